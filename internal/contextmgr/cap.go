package contextmgr

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Defaults of the context levers, in bytes. Config keys in parentheses.
const (
	// DefaultMaxToolOutput caps one tool result (max_tool_output).
	DefaultMaxToolOutput = 4 * 1024
	// DefaultMaxTurnOutput caps all results of one turn together
	// (max_turn_output).
	DefaultMaxTurnOutput = 24 * 1024
	// MinResultCap is the floor below which the per-turn budget never
	// shrinks one result's cap.
	MinResultCap = 256
)

// Marker returns the line that replaces omitted bytes. It names the spill
// file and how to read it, so the model can fetch what was cut:
//
//	[... 12345 bytes omitted; full output in <path>, read it with read_file offset/limit ...]
//
// Without a spill path it says only how much was omitted.
func Marker(omitted int, spillPath string) string {
	return spill{path: spillPath}.marker(omitted, 0)
}

// spill names the file that holds a cut result's output. held is how many
// bytes of it the file holds when that is less than the whole output (a
// tool stopped at its file limit, tools.Options.BashFullOutputLimit); 0
// means the file holds everything.
type spill struct {
	path string
	held int
}

// marker is Marker for s; total is the whole output's size, stated when
// the file holds only its first s.held bytes:
//
//	[... 12345 bytes omitted; the first 67108864 of 90000000 bytes are in <path>, read it with read_file offset/limit ...]
func (s spill) marker(omitted, total int) string {
	switch {
	case s.path == "":
		return fmt.Sprintf("[... %d bytes omitted ...]", omitted)
	case s.held > 0 && s.held < total:
		return fmt.Sprintf("[... %d bytes omitted; the first %d of %d bytes are in %s, read it with read_file offset/limit ...]", omitted, s.held, total, s.path)
	}
	return fmt.Sprintf("[... %d bytes omitted; full output in %s, read it with read_file offset/limit ...]", omitted, s.path)
}

// Cap keeps content within max bytes (max <= 0 means DefaultMaxToolOutput):
// content that fits is returned as is with cut false. Otherwise it keeps a
// head (about 60%) and a tail, both cut on UTF-8 boundaries and, where a
// newline is near, on line boundaries, joined by Marker; len(kept) <= max
// whenever max leaves room for the marker, else kept is the marker alone.
// cut reports that bytes were dropped; the caller must have written the
// full content to spillPath (see Spill) for the marker to be true.
func Cap(content string, max int, spillPath string) (kept string, cut bool) {
	return capExtra(content, max, spill{path: spillPath}, 0)
}

// capExtra is Cap for content that is itself already cut: extra bytes
// (a tool's own truncation, see tools.Result.RawBytes) were dropped before
// and count in the marker.
func capExtra(content string, max int, sp spill, extra int) (kept string, cut bool) {
	if max <= 0 {
		max = DefaultMaxToolOutput
	}
	if len(content) <= max {
		return content, false
	}
	// The marker's length depends on the omitted count; size it for the
	// largest count it can show.
	total := len(content)
	if extra > 0 {
		total += extra
	}
	room := max - len(sp.marker(total, total)) - 2 // two newlines
	if room <= 0 {
		return sp.marker(total, total), true
	}
	head := cutHead(content, room*3/5)
	tail := cutTail(content, room-len(head))
	return joinCut(head, tail, total, sp), true
}

func joinCut(head, tail string, total int, sp spill) string {
	var b strings.Builder
	b.WriteString(head)
	if head != "" && !strings.HasSuffix(head, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(sp.marker(total-len(head)-len(tail), total))
	b.WriteByte('\n')
	b.WriteString(tail)
	return b.String()
}

// cutHead returns the longest prefix of s of at most n bytes ending on a
// rune boundary, shortened to the last newline if one is in its last fifth.
func cutHead(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	h := s[:n]
	if k := strings.LastIndexByte(h, '\n'); k >= 0 && k >= len(h)*4/5 {
		h = h[:k+1]
	}
	return h
}

// cutTail returns the longest suffix of s of at most n bytes starting on a
// rune boundary, shortened to start after a newline if one is in its first
// fifth.
func cutTail(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	t := s[i:]
	if k := strings.IndexByte(t, '\n'); k >= 0 && k < len(t)/5 {
		t = t[k+1:]
	}
	return t
}

// Spill writes the full content of one tool result to SpillPath(dir,
// callID) (mode 0600, directories 0700) and returns the path. dir is the
// session directory, which read_file is allowed to open. Errors are the
// file system's, wrapped.
func Spill(dir, callID, content string) (string, error) {
	path := SpillPath(dir, callID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("spill tool output: %w", err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return "", fmt.Errorf("spill tool output: %w", err)
	}
	return path, nil
}

// SpillPath is where the full output of call callID is kept:
// <dir>/tool-output/<callID>.txt, callID reduced to [A-Za-z0-9_-]. A tool
// that streams its whole output (tools.WithFullOutput) is given this path,
// so Spill need not copy it.
func SpillPath(dir, callID string) string {
	return filepath.Join(dir, "tool-output", safeName(callID)+".txt")
}

func safeName(id string) string {
	var b strings.Builder
	for _, r := range id {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 || b.Len() > 64 {
		return "call-" + strconv.Itoa(len(id)) + "-" + strconv.FormatUint(fnv(id), 36)
	}
	if b.String() != id { // keep ids that differ only in dropped bytes apart
		return b.String() + "-" + strconv.FormatUint(fnv(id), 36)
	}
	return b.String()
}

func fnv(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
