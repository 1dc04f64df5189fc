package contextmgr

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// Per-result caps that follow the context window (max_tool_output unset),
// in bytes: small windows get DefaultMaxToolOutput, windows of at least
// ScaledCapFullWindow tokens get MaxScaledToolOutput, linear in between.
const (
	// ScaledCapSmallWindow is the window (tokens) up to which the cap is
	// DefaultMaxToolOutput.
	ScaledCapSmallWindow = 16 * 1024
	// ScaledCapFullWindow is the window (tokens) from which the cap is
	// MaxScaledToolOutput.
	ScaledCapFullWindow = 128 * 1024
	// MaxScaledToolOutput is the largest cap the window alone can give.
	MaxScaledToolOutput = 16 * 1024
)

// ToolOutputCap returns the per-result cap in bytes for a model whose
// context window is windowTokens (0 or less: unknown). configured is
// max_tool_output; when > 0 it wins whatever the window. Otherwise the cap
// is DefaultMaxToolOutput (4 KB) for windows up to 16K tokens or unknown,
// MaxScaledToolOutput (16 KB) for 128K tokens and more, and grows linearly
// in between (64K tokens: about 9 KB).
func ToolOutputCap(windowTokens, configured int) int {
	if configured > 0 {
		return configured
	}
	switch {
	case windowTokens <= ScaledCapSmallWindow:
		return DefaultMaxToolOutput
	case windowTokens >= ScaledCapFullWindow:
		return MaxScaledToolOutput
	}
	span := ScaledCapFullWindow - ScaledCapSmallWindow
	grow := MaxScaledToolOutput - DefaultMaxToolOutput
	return DefaultMaxToolOutput + grow*(windowTokens-ScaledCapSmallWindow)/span
}

// read_file output, as internal/tools renders it: numbered lines
// "%5d\t<text>\n", then footer lines in brackets. readMoreRe is the tool's
// own footer when the read stopped early; readContRe is the footer CapRead
// writes in its place, so a result capped twice still parses.
var (
	numberedRe = lazyregexp.New(`^ *(\d+)\t`)
	readMoreRe = lazyregexp.New(`^\[showing lines \d+-\d+ of (\d+); call read_file with offset=(\d+) to read more\]`)
	readContRe = lazyregexp.New(`^\[the file has (\d+) lines; after the omitted range, continue with read_file offset=(\d+)\]`)
)

// maxLineNumber bounds the line numbers parseRead accepts, far above any
// file read_file can list, so that marker arithmetic cannot overflow.
const maxLineNumber = 1 << 40

// readLine is one numbered line of a read_file result.
type readLine struct {
	n    int
	text string // with its '\n'
}

// parseRead splits a read_file result into its numbered lines and the
// bracketed lines after them (footer). ok is false when the text is not a
// numbered listing with strictly increasing numbers (an error, "(empty
// file)", a read-cache stub).
func parseRead(content string) (lines []readLine, footer []string, ok bool) {
	lines, footer, _, ok = parseReadGaps(content)
	return lines, footer, ok
}

// oldMarkerRe reads back a ReadMarker: first line and byte count.
var oldMarkerRe = lazyregexp.New(`^\[\.\.\. lines (\d+)-\d+ omitted \(\d+ lines(?:, (\d+) bytes)?\)`)

// parseReadGaps is parseRead that also returns the byte counts earlier
// markers gave, by the first line of their range.
func parseReadGaps(content string) (lines []readLine, footer []string, gapBytes map[int]int, ok bool) {
	gapBytes = map[int]int{}
	for _, l := range strings.SplitAfter(content, "\n") {
		if l == "" {
			continue
		}
		if m := numberedRe.FindStringSubmatch(l); m != nil && len(footer) == 0 {
			n, err := strconv.Atoi(m[1])
			if err != nil || n < 1 || n > maxLineNumber || len(lines) > 0 && n <= lines[len(lines)-1].n {
				return nil, nil, nil, false // not what read_file writes
			}
			lines = append(lines, readLine{n: n, text: l})
			continue
		}
		if strings.HasPrefix(l, "[") {
			if strings.HasPrefix(l, "[... lines ") && len(footer) == 0 {
				// An earlier cap's marker: the line numbers say what is
				// missing; keep its byte count for the new marker.
				if m := oldMarkerRe.FindStringSubmatch(l); m != nil && m[2] != "" {
					first, _ := strconv.Atoi(m[1])
					gapBytes[first], _ = strconv.Atoi(m[2])
				}
				continue
			}
			footer = append(footer, l)
			continue
		}
		return nil, nil, nil, false
	}
	return lines, footer, gapBytes, len(lines) > 0
}

// ReadMarker is the line that replaces lines first..last of a read_file
// result. It names the range, its size in bytes when known (omitted > 0)
// and the read_file call that fetches it; limit is how many lines the
// caller expects to fit one result:
//
//	[... lines 31-280 omitted (250 lines, 19602 bytes): read them with read_file path="main.go" offset=31 limit=250 ...]
//	[... lines 31-1980 omitted (1950 lines): read them in parts, starting with read_file path="main.go" offset=31 limit=40 ...]
func ReadMarker(path string, first, last, omitted, limit int) string {
	n := last - first + 1
	limit = min(max(limit, 1), n)
	size := fmt.Sprintf("%d lines", n)
	if omitted > 0 {
		size += fmt.Sprintf(", %d bytes", omitted)
	}
	call := fmt.Sprintf("read_file path=%q offset=%d limit=%d", path, first, limit)
	if limit < n {
		return fmt.Sprintf("[... lines %d-%d omitted (%s): read them in parts, starting with %s ...]", first, last, size, call)
	}
	return fmt.Sprintf("[... lines %d-%d omitted (%s): read them with %s ...]", first, last, size, call)
}

// CapRead caps a read_file result on line boundaries to at most maxBytes
// (<= 0: DefaultMaxToolOutput). It keeps whole numbered lines from the
// head (about two thirds of the room) and the tail, and puts ReadMarker
// for the exact omitted range between them; limit in that marker is the
// number of lines of the omitted range that fit perCall bytes (<= 0:
// maxBytes). An earlier cap's marker is recomputed from the line numbers,
// so capping twice stays exact.
// When the tool's footer says to continue at a later offset, it is
// rewritten so it no longer skips the omitted range. path is the path the
// marker tells the model to read. ok is false when content is not a
// numbered listing; the caller then uses Shape. Content that fits comes
// back unchanged with cut false. len(kept) <= maxBytes whenever maxBytes
// leaves room for the footer and the markers; a cap too small for one
// line keeps the marker and the footer only.
func CapRead(content string, maxBytes, perCall int, path string) (kept string, cut, ok bool) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxToolOutput
	}
	if perCall <= 0 {
		perCall = maxBytes
	}
	lines, footer, gapBytes, ok := parseReadGaps(content)
	if !ok {
		return content, false, false
	}
	if len(content) <= maxBytes {
		return content, false, true
	}
	footer = rewriteFooter(footer)
	fixed := 0
	for _, f := range footer {
		fixed += len(f)
	}
	// Size the marker for the widest numbers it can show.
	last := lines[len(lines)-1].n
	markerLen := len(ReadMarker(path, last, last+last, len(content), last)) + 1
	markers := 1
	for i := 1; i < len(lines); i++ {
		if lines[i].n != lines[i-1].n+1 {
			markers++
		}
	}
	room := maxBytes - fixed - markers*markerLen
	headRoom := room * 2 / 3
	h, used := 0, 0
	for h < len(lines) && used+len(lines[h].text) <= headRoom {
		used += len(lines[h].text)
		h++
	}
	t, tailUsed := len(lines), 0
	for t > h && used+tailUsed+len(lines[t-1].text) <= room {
		tailUsed += len(lines[t-1].text)
		t--
	}
	for h < t && used+tailUsed+len(lines[h].text) <= room { // tail left room
		used += len(lines[h].text)
		h++
	}
	var b strings.Builder
	// A marker goes wherever the numbering jumps between kept lines (an
	// earlier cap's range shows up here too) and where this cap drops.
	gap := func(first, last, omittedBytes, omittedLines int) {
		if first > last {
			return
		}
		// Ranges an earlier cap dropped: their bytes count too, when that
		// marker gave them; lines unknown by size drop the byte count.
		for i := 1; i < len(lines); i++ {
			from, to := lines[i-1].n+1, lines[i].n-1
			if from > to || from < first || to > last {
				continue
			}
			size, known := gapBytes[from]
			if !known || omittedBytes < 0 {
				omittedBytes = -1
				continue
			}
			omittedBytes += size
			omittedLines += to - from + 1
		}
		limit := 0
		if omittedLines > 0 && omittedBytes > 0 { // else: the average line
			limit = perCall * 9 / 10 * omittedLines / omittedBytes
		} else {
			limit = perCall * 9 / 10 * len(lines) / max(len(content), 1)
		}
		b.WriteString(ReadMarker(path, first, last, omittedBytes, limit))
		b.WriteByte('\n')
	}
	droppedBytes := 0
	for _, l := range lines[h:t] {
		droppedBytes += len(l.text)
	}
	keep := append(append([]readLine(nil), lines[:h]...), lines[t:]...)
	for i, l := range keep {
		if i == h && h < len(lines) && t > h { // the range this cap drops
			prev := lines[0].n - 1
			if h > 0 {
				prev = lines[h-1].n
			}
			gap(prev+1, l.n-1, droppedBytes, t-h)
		} else if i > 0 && l.n != keep[i-1].n+1 {
			gap(keep[i-1].n+1, l.n-1, 0, 0)
		}
		b.WriteString(l.text)
	}
	if t == len(lines) && t > h { // dropped up to the last line
		prev := lines[0].n - 1
		if h > 0 {
			prev = lines[h-1].n
		}
		gap(prev+1, last, droppedBytes, t-h)
	}
	for _, f := range footer {
		b.WriteString(f)
	}
	return b.String(), true, true
}

// rewriteFooter turns the tool's "call read_file with offset=N to read
// more" into a footer that says N comes after the omitted range.
func rewriteFooter(footer []string) []string {
	out := make([]string, len(footer))
	for i, f := range footer {
		out[i] = f
		if m := readMoreRe.FindStringSubmatch(f); m != nil {
			out[i] = fmt.Sprintf("[the file has %s lines; after the omitted range, continue with read_file offset=%s]\n", m[1], m[2])
		}
		if !strings.HasSuffix(out[i], "\n") {
			out[i] += "\n"
		}
	}
	return out
}
