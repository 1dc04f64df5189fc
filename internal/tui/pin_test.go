package tui

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// pinFrame is a three-row live region and the renderer's write of it from
// its first row, ending back there.
var pinFrame = []string{"── rule", "› ask anything", "footer one"}

// insertLine matches IL (CSI n L), the pin's move.
var insertLine = regexp.MustCompile(`\x1b\[\d*L`)

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func drawPinFrame(lw *lockedWriter) {
	lw.noteView(pinFrame)
	lw.Write([]byte("\r" + strings.Join(pinFrame, "\r\n") + "\r" + ansi.CursorUp(len(pinFrame)-1)))
}

// TestPinMovesTheRegionToTheBottom: on a screen that is not full, the
// writer asks where the cursor is after the first frame, holds later
// writes, and on the answer moves what the screen shows down so that the
// region ends on the last row (pin.go); the lines above it keep their
// order, nothing goes into the scrollback, and the held write lands on
// the moved region.
func TestPinMovesTheRegionToTheBottom(t *testing.T) {
	scr := newTerm(40, 12)
	scr.Write([]byte("shell line one\nshell line two\n"))
	lw := &lockedWriter{w: scr}
	lw.pin.size = func() (int, int, error) { return 40, 12, nil }
	replies := make(chan string, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := scr.emu.Read(buf)
		replies <- string(buf[:n])
	}()
	drawPinFrame(lw)
	var reply string
	select {
	case reply = <-replies:
	case <-time.After(10 * time.Second):
		t.Fatal("the writer never asked for the cursor position")
	}
	if reply != "\x1b[3;1R" {
		t.Fatalf("the terminal answered %q, want the region's first row (3)", reply)
	}
	lw.Write([]byte(ansi.CursorDown(2) + "footer two" + ansi.EraseLineRight + "\r" + ansi.CursorUp(2)))
	if got := scr.lines(); !contains(got, "footer one") || contains(got, "footer two") {
		t.Fatalf("a write went out before the answer:\n%s", strings.Join(got, "\n"))
	}
	lw.pinAt(2)
	want := append(make([]string, 7), "shell line one", "shell line two", "── rule", "› ask anything", "footer two")
	if got := scr.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen after the answer:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	drawPinFrame(lw) // asked once only
	if lw.holding() {
		t.Fatal("the writer asked again")
	}
}

// TestPinGivesUpWithoutAnAnswer: a terminal that never answers gets the
// held output unchanged after pinWait, and nothing is moved.
func TestPinGivesUpWithoutAnAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var buf bytes.Buffer
		lw := &lockedWriter{w: writerFunc(func(p []byte) (int, error) {
			mu.Lock()
			defer mu.Unlock()
			return buf.Write(p)
		})}
		lw.pin.size = func() (int, int, error) { return 40, 12, nil }
		drawPinFrame(lw)
		lw.Write([]byte("later"))
		mu.Lock()
		asked := strings.HasSuffix(buf.String(), ansi.RequestCursorPositionReport)
		mu.Unlock()
		if !asked {
			t.Fatalf("no cursor request after the first frame: %q", buf.String())
		}
		time.Sleep(pinWait)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if out := buf.String(); !strings.Contains(out, "later") || insertLine.MatchString(out) {
			t.Fatalf("after pinWait: %q", out)
		}
	})
}

// TestPinSkipsAFullScreen: a region that ends on the last row already
// (the screen is full) is not moved, and a report that comes after the
// writer stopped waiting changes nothing.
func TestPinSkipsAFullScreen(t *testing.T) {
	var buf bytes.Buffer
	lw := &lockedWriter{w: &buf}
	lw.pin.size = func() (int, int, error) { return 40, 12, nil }
	drawPinFrame(lw)
	asked := buf.Len()
	lw.Write([]byte("later"))
	lw.pinAt(9) // 12 rows - 3: the region ends on the last row
	held := buf.String()[asked:]
	if !strings.Contains(held, "later") || insertLine.MatchString(held) {
		t.Fatalf("after the report: %q, want the held write alone", held)
	}
	lw.pinAt(0)
	if out := buf.String()[asked:]; out != held {
		t.Fatalf("a late report wrote %q", out[len(held):])
	}
}

// TestPinLeavesTheScreenAfterAResize: a resize between the request and
// the report may have rewrapped rows, so nothing is moved; the held
// output is written.
func TestPinLeavesTheScreenAfterAResize(t *testing.T) {
	var buf bytes.Buffer
	width := 40
	lw := &lockedWriter{w: &buf}
	lw.pin.size = func() (int, int, error) { return width, 12, nil }
	drawPinFrame(lw)
	asked := buf.Len()
	lw.Write([]byte("later"))
	width = 30
	lw.pinAt(2)
	if held := buf.String()[asked:]; !strings.Contains(held, "later") || insertLine.MatchString(held) {
		t.Fatalf("after a resize: %q, want the held write alone", held)
	}
}
