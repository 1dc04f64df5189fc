package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Record is one JSON object read from a JSONL log.
type Record struct {
	// Line is the 1-based physical line (count of '\n' before it, plus one)
	// the record was read from.
	Line int
	// Raw holds the object's bytes; it is always valid JSON and starts with
	// '{'. ReadRecords returns slices of its input; LineReader copies.
	Raw json.RawMessage
	// Recovered is true when the record was cut out of a damaged line: a
	// complete object glued after a torn write, or after NUL padding.
	Recovered bool
}

// WarningKind classifies what the reader or the history rebuild had to
// drop or invent.
type WarningKind string

// Warning kinds.
const (
	// WarnUnreadable: a line with no readable record (NUL block, a record
	// split by a raw newline, garbage) was skipped.
	WarnUnreadable WarningKind = "unreadable_line"
	// WarnTruncatedTail: the unterminated last line did not parse and was
	// dropped. This is the normal trace of a crash mid-write.
	WarnTruncatedTail WarningKind = "truncated_tail"
	// WarnRecovered: complete records were cut out of a damaged line; the
	// fragment around them was dropped.
	WarnRecovered WarningKind = "recovered"
	// WarnUndecodable: a line held valid JSON that is not an event.
	WarnUndecodable WarningKind = "undecodable"
	// WarnSynthesized: a tool call had no result; an interrupted result
	// was synthesized so the history is valid for every provider.
	WarnSynthesized WarningKind = "synthesized_result"
	// WarnOrphanResult: a tool result answered no known call and was
	// dropped from the rebuilt history.
	WarnOrphanResult WarningKind = "orphan_result"
	// WarnRepeatedCall: a tool call id appeared twice in one assistant
	// message; the repeat was dropped from the rebuilt history.
	WarnRepeatedCall WarningKind = "repeated_call"
)

// Warning is one thing the reader skipped, dropped, recovered or
// synthesized. Warnings are shown to the user, never hidden.
type Warning struct {
	Kind WarningKind
	// Line is the 1-based physical line concerned, 0 when not tied to one.
	Line int
	// Bytes is the number of bytes dropped from the line (0 for
	// synthesized results).
	Bytes int
	// Detail names the thing concerned, e.g. a tool call id.
	Detail string
}

// String is the warning as shown to the user, e.g. "line 3: unreadable
// line skipped (48 bytes)".
func (w Warning) String() string {
	switch w.Kind {
	case WarnUnreadable:
		return fmt.Sprintf("line %d: unreadable line skipped (%d bytes)", w.Line, w.Bytes)
	case WarnTruncatedTail:
		return fmt.Sprintf("line %d: truncated trailing record dropped (%d bytes)", w.Line, w.Bytes)
	case WarnRecovered:
		return fmt.Sprintf("line %d: %s recovered from a damaged line (%d bytes dropped)", w.Line, w.Detail, w.Bytes)
	case WarnUndecodable:
		return fmt.Sprintf("line %d: record is not an event: %s", w.Line, w.Detail)
	case WarnSynthesized:
		return fmt.Sprintf("tool_result for %s: %s", w.Detail, InterruptedResult)
	case WarnOrphanResult:
		return fmt.Sprintf("tool_result for %s answers no tool call: dropped", w.Detail)
	case WarnRepeatedCall:
		return fmt.Sprintf("tool call %s repeated in one message: dropped", w.Detail)
	}
	return fmt.Sprintf("line %d: %s %s", w.Line, w.Kind, w.Detail)
}

// Summarize condenses warnings into one short line per kind, in a fixed
// order, e.g. "1 unreadable line skipped", "2 truncated trailing records
// dropped". It returns nil for no warnings.
func Summarize(ws []Warning) []string {
	count := map[WarningKind]int{}
	for _, w := range ws {
		count[w.Kind]++
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	var out []string
	add := func(k WarningKind, one, many, verb string) {
		if n := count[k]; n > 0 {
			out = append(out, fmt.Sprintf("%d %s %s", n, plural(n, one, many), verb))
		}
	}
	add(WarnUnreadable, "unreadable line", "unreadable lines", "skipped")
	add(WarnTruncatedTail, "truncated trailing record", "truncated trailing records", "dropped")
	add(WarnRecovered, "damaged line", "damaged lines", "partly recovered")
	add(WarnUndecodable, "non-event record", "non-event records", "skipped")
	add(WarnSynthesized, "unanswered tool call", "unanswered tool calls", "given an interrupted result")
	add(WarnOrphanResult, "orphan tool result", "orphan tool results", "dropped")
	add(WarnRepeatedCall, "repeated tool call", "repeated tool calls", "dropped")
	return out
}

// defaultPrefix starts every JSON object with at least one member.
var defaultPrefix = []byte(`{"`)

// ReadRecords splits data into JSONL records, recovering from damage
// instead of stopping at it (case B27):
//   - a line that is one JSON object is a record;
//   - blank lines are ignored;
//   - a damaged line (torn write glued to the next record, NUL padding,
//     half of a record split by a raw newline) yields every complete object
//     that starts with prefix and parses, and a warning for the rest;
//   - an unterminated last line that does not parse is a truncated tail.
//
// prefix is how every record begins (`{"seq":` for the neutral case logs,
// `{"schemaVersion":` for events.jsonl); it finds record starts inside a
// damaged line. An empty prefix means `{"`. Records alias data.
func ReadRecords(data, prefix []byte) ([]Record, []Warning) {
	if len(prefix) == 0 {
		prefix = defaultPrefix
	}
	recs := make([]Record, 0, bytes.Count(data, []byte{'\n'})+1)
	var warns []Warning
	emit := func(r Record) { recs = append(recs, r) }
	warn := func(w Warning) { warns = append(warns, w) }
	for line := 1; len(data) > 0; line++ {
		var body []byte
		terminated := true
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			body, data = data[:i], data[i+1:]
		} else {
			body, data, terminated = data, nil, false
		}
		scanLine(body, line, terminated, prefix, emit, warn)
	}
	return recs, warns
}

// scanLine classifies one physical line (without its '\n').
func scanLine(line []byte, n int, terminated bool, prefix []byte, emit func(Record), warn func(Warning)) {
	body := bytes.TrimSpace(line)
	if len(body) == 0 {
		return
	}
	if body[0] == '{' && json.Valid(body) {
		emit(Record{Line: n, Raw: body})
		return
	}
	kept, lastEnd, found := 0, 0, 0
	for i := 0; i < len(body); {
		j := bytes.Index(body[i:], prefix)
		if j < 0 {
			break
		}
		start := i + j
		end, ok := objectEnd(body[start:])
		if !ok {
			i = start + 1
			continue
		}
		emit(Record{Line: n, Raw: body[start : start+end], Recovered: true})
		kept += end
		found++
		i = start + end
		lastEnd = i
	}
	if kept > 0 {
		warn(Warning{Kind: WarnRecovered, Line: n, Bytes: len(body) - kept, Detail: fmt.Sprintf("%d record(s)", found)})
		if !terminated && len(bytes.TrimSpace(body[lastEnd:])) > 0 {
			warn(Warning{Kind: WarnTruncatedTail, Line: n, Bytes: len(body) - lastEnd})
		}
		return
	}
	if !terminated && !onlyPadding(body) {
		warn(Warning{Kind: WarnTruncatedTail, Line: n, Bytes: len(body)})
		return
	}
	warn(Warning{Kind: WarnUnreadable, Line: n, Bytes: len(body)})
}

// onlyPadding reports whether b is NUL bytes and whitespace only, the
// trace a file system leaves when a crash preallocated a block.
func onlyPadding(b []byte) bool {
	for _, c := range b {
		switch c {
		case 0, ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// objectEnd returns the length of the JSON object at the start of b, or
// false when b does not start with a complete, valid object.
func objectEnd(b []byte) (int, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil || len(raw) == 0 || raw[0] != '{' {
		return 0, false
	}
	return int(dec.InputOffset()), true
}

// LineReader is the streaming form of ReadRecords: records come out one at
// a time from an io.Reader, with the same recovery rules and warnings.
// Lines may be of any length.
type LineReader struct {
	r      *bufio.Reader
	prefix []byte
	line   int
	queue  []Record
	warns  []Warning
	err    error
	buf    []byte
}

// NewLineReader reads records from r; prefix is as for ReadRecords.
func NewLineReader(r io.Reader, prefix []byte) *LineReader {
	if len(prefix) == 0 {
		prefix = defaultPrefix
	}
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), prefix: append([]byte(nil), prefix...)}
}

// Next returns the next record, or io.EOF after the last one. Other errors
// come from the underlying reader. Raw is a copy the caller may keep.
func (lr *LineReader) Next() (Record, error) {
	for len(lr.queue) == 0 {
		if lr.err != nil {
			return Record{}, lr.err
		}
		lr.readLine()
	}
	r := lr.queue[0]
	lr.queue = lr.queue[1:]
	return r, nil
}

// Warnings returns what was skipped or recovered so far.
func (lr *LineReader) Warnings() []Warning { return lr.warns }

func (lr *LineReader) readLine() {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.buf = append(lr.buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			lr.err = err
		}
		break
	}
	if len(lr.buf) == 0 {
		return
	}
	lr.line++
	terminated := lr.buf[len(lr.buf)-1] == '\n'
	body := lr.buf
	if terminated {
		body = body[:len(body)-1]
	}
	scanLine(body, lr.line, terminated, lr.prefix,
		func(r Record) {
			r.Raw = append(json.RawMessage(nil), r.Raw...)
			lr.queue = append(lr.queue, r)
		},
		func(w Warning) { lr.warns = append(lr.warns, w) })
}
