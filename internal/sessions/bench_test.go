package sessions

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// writeLog builds an events.jsonl of at least size bytes with the mix a
// coding session produces: text deltas, tool calls, tool outputs of a few
// KB, usage and message events carrying whole tool results.
func writeLog(b *testing.B, path string, size int64) int {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	out := strings.Repeat("main.go:12: func main() {\n\t\"quoted\" <tag> ünïcode\n", 60)
	t0 := time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)
	var written int64
	n := 0
	emit := func(ev event.Event) {
		ev.SchemaVersion = event.SchemaVersion
		ev.RunID = "r1"
		ev.Time = t0.Add(time.Duration(n) * time.Millisecond)
		if err := enc.Encode(ev); err != nil {
			b.Fatal(err)
		}
		n++
	}
	for turn := 1; written < size; turn++ {
		for i := 0; i < 40; i++ {
			emit(event.Event{Type: event.Text, Turn: turn, Text: "some streamed words "})
		}
		call := &llm.ToolCall{ID: fmt.Sprintf("call_%d", turn), Name: "read_file", Arguments: `{"path":"main.go"}`}
		am := llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartText, Text: strings.Repeat("words ", 140)}, {Type: llm.PartToolCall, ToolCall: call}}}
		emit(event.Event{Type: event.Message, Turn: turn, Message: &am})
		emit(event.Event{Type: event.ToolCall, Turn: turn, ToolCall: call})
		emit(event.Event{Type: event.ToolResult, Turn: turn, Result: &event.ToolOutcome{CallID: call.ID, Name: call.Name, Content: out, RawBytes: len(out), KeptBytes: len(out)}})
		tm := llm.ToolResultMessage(llm.ToolResult{CallID: call.ID, Name: call.Name, Content: out})
		emit(event.Event{Type: event.Message, Turn: turn, Message: &tm})
		emit(event.Event{Type: event.Usage, Turn: turn, Usage: &llm.Usage{InputTokens: 1000 * turn, OutputTokens: 50}})
		w.Flush()
		fi, _ := f.Stat()
		written = fi.Size()
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return n
}

// load100MB builds a 100 MB session log in a temporary store.
func load100MB(b *testing.B) (*Session, int) {
	st := Open(b.TempDir())
	s, err := st.Create(Metadata{})
	if err != nil {
		b.Fatal(err)
	}
	sendPrompt(b, s, "go") // kept on Close; writeLog replaces the log
	s.Close()
	n := writeLog(b, s.EventsPath(), 100<<20)
	fi, _ := os.Stat(s.EventsPath())
	b.SetBytes(fi.Size())
	return s, n
}

// BenchmarkLoad100MB measures resume of a 100 MB log: read it, recover,
// decode the message events and rebuild the history (SPEC §11 target:
// under 1 s/op).
func BenchmarkLoad100MB(b *testing.B) {
	s, n := load100MB(b)
	turns := n / 45 // writeLog emits 45 events per turn, 2 of them messages
	for b.Loop() {
		h, ws, err := s.History()
		if err != nil || len(ws) != 0 || len(h) != 2*turns {
			b.Fatalf("history of %d messages (want %d), %v, %v", len(h), 2*turns, ws, err)
		}
	}
}

// BenchmarkEvents100MB measures decoding every event of a 100 MB log (what
// `zero logs` needs), for comparison with the resume path.
func BenchmarkEvents100MB(b *testing.B) {
	s, n := load100MB(b)
	for b.Loop() {
		evs, ws, err := s.Events()
		if err != nil || len(ws) != 0 || len(evs) != n {
			b.Fatalf("read %d events (want %d), %v, %v", len(evs), n, ws, err)
		}
	}
}

// BenchmarkAppendDelta measures appending a text delta (no fsync).
func BenchmarkAppendDelta(b *testing.B) {
	st := Open(filepath.Join(b.TempDir(), "s"))
	s, err := st.Create(Metadata{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ev := event.Event{Type: event.Text, RunID: "r1", Text: "some streamed words "}
	for b.Loop() {
		if err := s.Append(ev); err != nil {
			b.Fatal(err)
		}
	}
}
