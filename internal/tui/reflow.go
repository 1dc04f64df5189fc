package tui

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/tui/cells"
)

// Narrowing a terminal that reflows its lines (tmux, iTerm2, kitty, VTE,
// Windows Terminal...) rewraps every row of the live region that is wider
// than the new width onto two or more rows. Bubble Tea does not know: on a
// resize it erases its frame by moving the cursor up by the cursor's row
// within the frame and clearing below, so the rows the reflow added above
// the cursor (a status line, a rule, the streaming tail) stayed in the
// scrollback, and a streamed line could show twice (issue 4: "resize while
// streaming re-wraps without duplicating scrollback"). reflowShift counts
// those added rows; the program filter (newProgram) moves the cursor up by
// that many rows before the renderer handles the resize, so its erase
// starts at the real top of the old frame.

// terminalReflows reports whether the terminal described by env (KEY=value
// pairs) rewraps lines when it gets narrower. Almost every terminal in use
// does (tmux, iTerm2, kitty, WezTerm, Ghostty, Alacritty, VTE, Windows
// Terminal, xterm.js); xterm itself (it sets XTERM_VERSION), rxvt and the
// Linux console do not, and there moving the cursor up would erase
// transcript rows instead of stale ones.
func terminalReflows(env []string) bool {
	reflows := true
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "TMUX" && v != "":
			return true // tmux reflows whatever terminal is outside it
		case k == "XTERM_VERSION" && v != "":
			reflows = false
		case k == "TERM" && (v == "linux" || strings.HasPrefix(v, "rxvt")):
			reflows = false
		}
	}
	return reflows
}

// frameShape is the last frame as drawn: each line's width in cells, the
// terminal width it was drawn at and the cursor's row and column in it
// (row -1: no cursor shown; the renderer then leaves it on the last row).
type frameShape struct {
	widths   []int
	width    int
	row, col int
}

// noteFrame records the frame View returns.
func (m *Model) noteFrame(lines []string, cursor *tea.Cursor) {
	f := frameShape{widths: make([]int, len(lines)), width: m.width, row: -1}
	for i, l := range lines {
		f.widths[i] = cells.Width(l)
	}
	if cursor != nil {
		f.row, f.col = cursor.Y, cursor.X
	}
	m.frame = f
}

// reflowShift returns how many rows a terminal that reflows lines adds
// above the cursor when the last frame is rewrapped to width cells: 0 when
// the terminal did not get narrower than the frame was drawn for.
func (m *Model) reflowShift(width int) int {
	f := m.frame
	if width <= 0 || width >= f.width || len(f.widths) == 0 {
		return 0
	}
	row, col := f.row, f.col
	if row < 0 || row >= len(f.widths) {
		row, col = len(f.widths)-1, 0
	}
	extra := col / width // the cursor's own line wraps before it
	for _, w := range f.widths[:row] {
		if w > width {
			extra += (w - 1) / width
		}
	}
	return extra
}

// reflowFilter is the program's message filter: before Bubble Tea's
// renderer sees a resize, it moves the terminal's cursor up by the rows a
// reflow added above it (see reflowShift). It runs on Bubble Tea's event
// goroutine, like Update and View.
func reflowFilter(m *Model, out *lockedWriter) func(tea.Model, tea.Msg) tea.Msg {
	return func(_ tea.Model, msg tea.Msg) tea.Msg {
		if ws, ok := msg.(tea.WindowSizeMsg); ok {
			out.mu.Lock()
			// Right after printing above the frame, the renderer leaves the
			// cursor on the frame's first row until it draws again: no row
			// of the frame is above it.
			if n := m.reflowShift(ws.Width); n > 0 && !out.printed {
				out.w.Write([]byte(ansi.CursorUp(n)))
			}
			out.mu.Unlock()
		}
		return msg
	}
}

// lockedWriter serialises writes from the renderer and reflowFilter, so a
// cursor move never lands inside a frame, and notes whether the last write
// printed lines above the frame.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	printed bool
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.printed = isInsertAbove(p)
	return l.w.Write(p)
}

// isInsertAbove recognises Bubble Tea's print above an inline frame
// (cursedRenderer.insertAbove in bubbletea v2.1): "\r", scrolling and
// line insertion, then each printed line followed by EL and "\r\n". A
// frame the renderer draws ends by placing the cursor instead.
func isInsertAbove(p []byte) bool {
	return bytes.HasPrefix(p, []byte("\r")) && bytes.HasSuffix(p, []byte(ansi.EraseLineRight+"\r\n"))
}

// lockedFile is a lockedWriter over a terminal file; it keeps the file's
// descriptor visible so Bubble Tea still finds the tty (size, raw mode).
type lockedFile struct {
	*lockedWriter
	f *os.File
}

func (l lockedFile) Read(p []byte) (int, error) { return l.f.Read(p) }
func (l lockedFile) Close() error               { return l.f.Close() }
func (l lockedFile) Fd() uintptr                { return l.f.Fd() }

// lockOutput wraps w in a lockedWriter and returns the writer to give
// Bubble Tea: a file stays a file.
func lockOutput(w io.Writer) (io.Writer, *lockedWriter) {
	lw := &lockedWriter{w: w}
	if f, ok := w.(*os.File); ok {
		return lockedFile{lockedWriter: lw, f: f}, lw
	}
	return lw, lw
}
