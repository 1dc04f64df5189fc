package tui

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/zero-agent/zero/internal/tui/input"
)

// chunkReader returns one scripted read(2) per Read call, rewritten by the
// same Detector the app wraps the TTY with, then io.EOF.
type chunkReader struct {
	chunks []string
	det    input.Detector
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	c := r.det.Rewrite([]byte(r.chunks[0]))
	r.chunks = r.chunks[1:]
	if len(c) > len(p) {
		panic("test read larger than the parser's buffer")
	}
	return copy(p, c), nil
}

// decodeReads runs raw terminal reads through Bubble Tea's own input
// parser (ultraviolet's TerminalReader, which tea.Program uses) and returns
// the messages the program would deliver. The escape timeout is set far
// out so only read boundaries, not scheduling, decide how bytes group.
func decodeReads(t *testing.T, reads []string) []tea.Msg {
	t.Helper()
	tr := uv.NewTerminalReader(&chunkReader{chunks: reads}, "xterm-256color")
	tr.EscTimeout = time.Hour
	evc := make(chan uv.Event)
	done := make(chan error, 1)
	go func() { done <- tr.StreamEvents(context.Background(), evc); close(evc) }()
	var msgs []tea.Msg
	for e := range evc {
		msgs = append(msgs, toTea(e))
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return msgs
}

// toTea converts parser events to Bubble Tea messages exactly as
// tea.Program's translateInputEvent does for the kinds used here.
func toTea(e uv.Event) tea.Msg {
	switch e := e.(type) {
	case uv.KeyPressEvent:
		return tea.KeyPressMsg(e)
	case uv.KeyReleaseEvent:
		return tea.KeyReleaseMsg(e)
	case uv.PasteEvent:
		return tea.PasteMsg(e)
	case uv.PasteStartEvent:
		return tea.PasteStartMsg(e)
	case uv.PasteEndEvent:
		return tea.PasteEndMsg(e)
	case uv.ForegroundColorEvent:
		return tea.ForegroundColorMsg(e)
	case uv.BackgroundColorEvent:
		return tea.BackgroundColorMsg(e)
	case uv.CursorPositionEvent:
		return tea.CursorPositionMsg(e)
	}
	return e
}

// feed runs reads through the parser into a fresh app and returns the app
// and its backend.
func feed(t *testing.T, reads []string) (*driver, *fakeBackend) {
	t.Helper()
	f := newFake()
	d := newDriver(t, f, Options{})
	for _, msg := range decodeReads(t, reads) {
		d.handle(msg)
		d.settle()
	}
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	return d, f
}

// TestBracketedPasteSplitAcrossReadsSubmitsOnceAndEchoesNothing: case B33
// (testdata/B33; https://github.com/anthropics/claude-code/issues/3134):
// for every input file, the input buffer, the submissions and the read
// that submits match expected.json, and no raw terminal reply is echoed.
func TestBracketedPasteSplitAcrossReadsSubmitsOnceAndEchoesNothing(t *testing.T) {
	var expected map[string]struct {
		InputBuffer        string `json:"input_buffer"`
		SubmittedAfterRead *int   `json:"submitted_after_read"`
		Submissions        *int   `json:"submissions"`
	}
	readCase(t, "expected.json", &expected)
	if len(expected) != 3 {
		t.Fatalf("expected.json has %d cases", len(expected))
	}
	for file, want := range expected {
		t.Run(file, func(t *testing.T) {
			var in struct {
				Reads []string `json:"reads"`
			}
			readCase(t, file, &in)
			d, f := feed(t, in.Reads)
			buffer := d.m.Value()
			if f.nturns() > 0 {
				buffer = f.turns[0].Prompt
			}
			if buffer != want.InputBuffer {
				t.Errorf("input buffer = %q, want %q", buffer, want.InputBuffer)
			}
			if want.Submissions != nil && f.nturns() != *want.Submissions {
				t.Errorf("submissions = %d, want %d", f.nturns(), *want.Submissions)
			}
			if want.Submissions == nil && f.nturns() != 0 {
				t.Errorf("submitted %d times, want none", f.nturns())
			}
			if want.SubmittedAfterRead != nil {
				// The first prefix of reads that submits must be the expected one.
				for k := 1; k <= len(in.Reads); k++ {
					_, fk := feed(t, in.Reads[:k])
					if fk.nturns() > 0 {
						if k != *want.SubmittedAfterRead {
							t.Errorf("submitted after read %d, want %d", k, *want.SubmittedAfterRead)
						}
						break
					}
				}
			}
			for _, l := range d.scrollback {
				for _, bad := range []string{"\x1b[31m", "\x1b]10", "rgb:cccc"} {
					if contains([]string{l}, bad) {
						t.Errorf("raw input echoed to the terminal: %q", l)
					}
				}
			}
		})
	}
}

// TestBracketedPasteInOneReadAndCRLineBreaksDoNotSubmitEarly (case B33)
// feeds stdin_reads.bin (the same paste as one read) and the
// no-bracketing case with '\r' line breaks, which must not submit early.
func TestBracketedPasteInOneReadAndCRLineBreaksDoNotSubmitEarly(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "B33", "stdin_reads.bin"))
	if err != nil {
		t.Fatal(err)
	}
	d, f := feed(t, []string{string(raw)}) // paste, then '\r' in the same read
	if f.nturns() != 1 || f.turns[0].Prompt != "line1 red\nline2" {
		t.Errorf("bin: value %q, %d submissions", d.m.Value(), f.nturns())
	}
	d, f = feed(t, []string{"one\rtwo\r", "\r"})
	if f.nturns() != 1 || f.turns[0].Prompt != "one\ntwo\n" {
		t.Errorf("CR paste: %d submissions, value %q", f.nturns(), d.m.Value())
	}
	// A paste split over several reads inside real brackets is one paste.
	d, f = feed(t, []string{"\x1b[200~a\nb", "\nc\r", "d\x1b[201~", "\r"})
	if f.nturns() != 1 || f.turns[0].Prompt != "a\nb\nc\nd" {
		t.Errorf("long paste: %d submissions, %q", f.nturns(), d.m.Value())
	}
}

func readCase(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "B33", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// A long line in the input box wraps at word boundaries: no word is split
// across rows, and the cursor stays after the last character typed.
func TestInputBoxWrapsAtWords(t *testing.T) {
	d := newDriver(t, newFake(), Options{Width: 30, Height: 20})
	d.typeText("please explain why the permission prompt wraps")
	live := d.live()
	at := slices.IndexFunc(live, func(l string) bool { return strings.HasPrefix(l, "› ") })
	want := []string{"› please explain why the", "  permission prompt wraps"}
	if at < 0 || at+2 > len(live) || !slices.Equal(trimRight(live[at:at+2]), want) {
		t.Fatalf("input rows, want %q\nlive:\n%s", want, strings.Join(live, "\n"))
	}
	if c := d.m.cursor; c == nil || c.X != len(want[1]) {
		t.Errorf("cursor %+v, want column %d", c, len(want[1]))
	}
}

// trimRight drops each line's trailing spaces.
func trimRight(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}
