package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"sync"

	"github.com/zero-agent/zero/internal/event"
)

// DecodeEvents reads an events.jsonl image with the recovery rules of
// ReadRecords and decodes every record into an event.Event, in log order.
// Records that are valid JSON but not events (no type, a field of the
// wrong shape) are skipped with WarnUndecodable.
//
// The image is cut at line boundaries into one chunk per CPU and the
// chunks are decoded in parallel; a healthy line is scanned once for
// validity and once to decode.
func DecodeEvents(data []byte) ([]event.Event, []Warning) {
	return decodeEvents(data, nil)
}

// decodeEvents is DecodeEvents keeping only the events whose type want
// accepts (all when want is nil). A healthy line of an unwanted type is
// skipped by its type prefix without being parsed, which is what makes a
// resume of a 100 MB log take well under a second (SPEC §11).
func decodeEvents(data []byte, want func(event.Type) bool) ([]event.Event, []Warning) {
	n := runtime.GOMAXPROCS(0)
	if len(data) < 1<<20 {
		n = 1
	}
	return decodeChunks(data, want, n)
}

// decodeChunks is decodeEvents over at most n chunks.
func decodeChunks(data []byte, want func(event.Type) bool, n int) ([]event.Event, []Warning) {
	chunks := splitLines(data, n)
	// Each chunk decodes into its own segment of one shared array, sized
	// by its line count (a line holds one event unless a torn write glued
	// several); the segments are then moved together in place.
	offs := make([]int, len(chunks)+1)
	for i, c := range chunks {
		offs[i+1] = offs[i] + bytes.Count(c, []byte{'\n'}) + 1
	}
	all := make([]event.Event, offs[len(chunks)])
	results := make([]chunkResult, len(chunks))
	var wg sync.WaitGroup
	for i, c := range chunks {
		wg.Go(func() {
			r := &results[i]
			r.want = want
			r.events = all[offs[i]:offs[i]:offs[i+1]]
			r.decode(c, i == len(chunks)-1)
		})
	}
	wg.Wait()

	evs := all[:0]
	for i, r := range results {
		if len(r.events) > offs[i+1]-offs[i] {
			evs = nil // a chunk outgrew its segment: gather into a new array
			break
		}
	}
	var warns []Warning
	base := 0
	for _, r := range results {
		evs = append(evs, r.events...) // in place: never past this chunk's segment
		for _, w := range r.warns {
			w.Line += base
			warns = append(warns, w)
		}
		base += r.lines
	}
	if len(evs) > 0 && &evs[0] == &all[0] {
		clear(all[len(evs):]) // drop stale copies for the collector
	}
	return evs, warns
}

// splitLines cuts data into at most n pieces, each ending just after a
// '\n' (except the last).
func splitLines(data []byte, n int) [][]byte {
	var out [][]byte
	for n > 1 && len(data) > 0 {
		at := len(data) / n
		i := bytes.IndexByte(data[at:], '\n')
		if i < 0 {
			break
		}
		cut := at + i + 1
		out = append(out, data[:cut])
		data = data[cut:]
		n--
	}
	return append(out, data)
}

type chunkResult struct {
	want   func(event.Type) bool
	events []event.Event
	warns  []Warning // Line relative to the chunk
	lines  int       // physical lines in the chunk
}

// decode appends the chunk's events to r.events; last says the chunk
// ends the log (its unterminated line is a torn tail).
func (r *chunkResult) decode(data []byte, last bool) {
	emit := func(rec Record) {
		if err := r.add(rec.Raw); err != nil {
			r.warns = append(r.warns, Warning{Kind: WarnUndecodable, Line: rec.Line, Detail: err.Error()})
		}
	}
	warn := func(w Warning) { r.warns = append(r.warns, w) }
	for len(data) > 0 {
		r.lines++
		var body []byte
		terminated := true
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			body, data = data[:i], data[i+1:]
		} else {
			body, data, terminated = data, nil, !last
		}
		line := bytes.TrimSpace(body)
		if r.want != nil && terminated && r.skip(line) {
			continue
		}
		if len(line) > 0 && line[0] == '{' {
			// Unmarshal validates the whole line before it decodes, so
			// only a syntax error means the line is damaged.
			err := r.add(line)
			var syn *json.SyntaxError
			if !errors.As(err, &syn) {
				if err != nil {
					r.warns = append(r.warns, Warning{Kind: WarnUndecodable, Line: r.lines, Detail: err.Error()})
				}
				continue
			}
		}
		scanLine(body, r.lines, terminated, eventPrefix, emit, warn)
	}
}

// add decodes one record and keeps it when wanted.
func (r *chunkResult) add(raw []byte) error {
	var ev event.Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		return err
	}
	if ev.Type == "" {
		return errors.New("no type")
	}
	if r.want == nil || r.want(ev.Type) {
		r.events = append(r.events, ev)
	}
	return nil
}

// skip reports whether line is, by its shape, one whole record of a type
// r.want rejects: it starts `{"schemaVersion":N,"type":"T"`, ends with '}'
// and holds no second record start (a torn write glued to another record
// goes the slow way, so the glued record is not lost).
func (r *chunkResult) skip(line []byte) bool {
	if !bytes.HasPrefix(line, eventPrefix) || line[len(line)-1] != '}' {
		return false
	}
	rest := line[len(eventPrefix):]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	rest = rest[i:]
	const typeKey = `,"type":"`
	if i == 0 || !bytes.HasPrefix(rest, []byte(typeKey)) {
		return false
	}
	rest = rest[len(typeKey):]
	end := bytes.IndexByte(rest, '"')
	if end <= 0 || r.want(event.Type(rest[:end])) {
		return false
	}
	return bytes.Index(line[1:], eventPrefix) < 0
}
