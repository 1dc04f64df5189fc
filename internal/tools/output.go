package tools

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"
)

// A tool that keeps only part of its output in Result.Content (bash keeps
// a head and a tail in memory) can also stream the whole output to a file
// the caller names, so that nothing is lost and memory stays bounded: the
// agent loop names the session's spill file of the call
// (contextmgr.SpillPath) with WithFullOutput, the tool writes there once
// its output passes what it keeps in memory, up to its file limit
// (Options.BashFullOutputLimit), and reports the file in
// Result.FullOutput. A caller that does not ask gets no file.

type fullOutputKey struct{}

// WithFullOutput returns ctx asking the tool run under it to write its
// whole output, up to the tool's limit, to path (parent directories 0700,
// the file 0600) when Content cannot hold all of it. The caller owns the
// file.
func WithFullOutput(ctx context.Context, path string) context.Context {
	return context.WithValue(ctx, fullOutputKey{}, path)
}

// fullOutputPath is the path WithFullOutput set on ctx, or "".
func fullOutputPath(ctx context.Context) string {
	p, _ := ctx.Value(fullOutputKey{}).(string)
	return p
}

type outputStreamKey struct{}

// WithOutputStream returns ctx asking a tool run under it that produces
// output while it runs (bash) to copy each piece to w as it arrives,
// besides keeping it for its Result. w must not block; its errors are
// ignored.
func WithOutputStream(ctx context.Context, w io.Writer) context.Context {
	return context.WithValue(ctx, outputStreamKey{}, w)
}

// streamTo is out, plus the stream WithOutputStream set on ctx.
func streamTo(ctx context.Context, out io.Writer) io.Writer {
	w, _ := ctx.Value(outputStreamKey{}).(io.Writer)
	if w == nil {
		return out
	}
	return teeWriter{out, w}
}

// teeWriter writes to both, reporting only the first's result: a
// failing stream must not cut the output the tool keeps.
type teeWriter struct{ keep, stream io.Writer }

func (t teeWriter) Write(p []byte) (int, error) {
	n, err := t.keep.Write(p)
	_, _ = t.stream.Write(p[:n])
	return n, err
}

// headTail keeps the first and last half bytes written and counts all.
// With a path set, once the output passes 2*half bytes every byte so far
// and after goes to that file too, until limit bytes are in it.
type headTail struct {
	mu    sync.Mutex
	half  int
	head  []byte
	tail  []byte
	total int64

	path    string
	limit   int64
	file    *os.File
	written int64
	fileErr error
}

func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.path != "" && h.total+int64(len(p)) > int64(2*h.half) {
		h.spill(p)
	}
	h.total += int64(len(p))
	n := len(p)
	if room := h.half - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	h.tail = append(h.tail, p...)
	if len(h.tail) > 2*h.half {
		h.tail = append(h.tail[:0], h.tail[len(h.tail)-h.half:]...)
	}
	return n, nil
}

// spill writes p to the full-output file, opening it on the first write
// that passes 2*half bytes. Until then head and tail hold every byte
// (tail is only trimmed beyond 2*half), so they start the file.
func (h *headTail) spill(p []byte) {
	if h.fileErr != nil {
		return
	}
	if h.file == nil {
		if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
			h.fileErr = err
			return
		}
		f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			h.fileErr = err
			return
		}
		h.file = f
		h.fileWrite(h.head)
		h.fileWrite(h.tail)
	}
	h.fileWrite(p)
}

func (h *headTail) fileWrite(b []byte) {
	n := min(int64(len(b)), h.limit-h.written)
	if n <= 0 || h.fileErr != nil {
		return
	}
	if _, err := h.file.Write(b[:n]); err != nil {
		h.fileErr = err
		return
	}
	h.written += n
}

// closeFile finishes the full-output file. It returns the path and the
// bytes it holds, or "" when no file was needed; a file that could not be
// written whole up to the limit is removed and its error returned.
func (h *headTail) closeFile() (path string, held int64, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.file == nil {
		return "", 0, h.fileErr
	}
	if cerr := h.file.Close(); h.fileErr == nil {
		h.fileErr = cerr
	}
	h.file = nil
	if h.fileErr != nil {
		os.Remove(h.path)
		return "", 0, h.fileErr
	}
	return h.path, h.written, nil
}

// dropped returns how many bytes were written and whether some of them
// are not kept.
func (h *headTail) dropped() (total int64, cut bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total, h.total > int64(len(h.head)+min(len(h.tail), h.half))
}

// String renders the kept output (see writeTo).
func (h *headTail) String(file string, held int64) string {
	var b strings.Builder
	h.writeTo(&b, file, held)
	return b.String()
}

// writeTo appends the kept output to b, copying it once (it may be a
// megabyte), ending in a newline; when bytes were dropped a marker line
// between head and tail gives the raw size and where the whole output is
// (the file closeFile returned, held bytes of it). Cuts fall on UTF-8
// rune boundaries.
func (h *headTail) writeTo(b *strings.Builder, file string, held int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	head, tail := h.head, h.tail
	if len(tail) > h.half {
		tail = tail[len(tail)-h.half:]
	}
	cut := int64(len(head)+len(tail)) < h.total
	if cut {
		head = trimPartialRune(head)
		for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
			tail = tail[1:]
		}
	}
	b.Grow(len(head) + len(tail) + 256)
	b.Write(head)
	last := byte('\n')
	if len(head) > 0 {
		last = head[len(head)-1]
	}
	if cut {
		if last != '\n' {
			b.WriteByte('\n')
		}
		b.WriteString(cutMarker(h.total-int64(len(head)+len(tail)), h.total, file, held))
		b.WriteByte('\n')
		last = '\n'
	}
	b.Write(tail)
	if len(tail) > 0 {
		last = tail[len(tail)-1]
	}
	if last != '\n' {
		b.WriteByte('\n')
	}
}

// cutMarker is the line bash puts where it dropped output. It names the
// full-output file when there is one, and its limit when the output
// passed it.
func cutMarker(omitted, total int64, file string, held int64) string {
	switch {
	case file == "":
		return fmt.Sprintf("[... %d bytes omitted; output was %d bytes in all; redirect to a file and read_file or grep it to see more ...]", omitted, total)
	case held < total:
		return fmt.Sprintf("[... %d bytes omitted; output was %d bytes in all; the first %d bytes are in %s, read it with read_file offset/limit or grep it ...]", omitted, total, held, file)
	}
	return fmt.Sprintf("[... %d bytes omitted; output was %d bytes in all; full output in %s, read it with read_file offset/limit or grep it ...]", omitted, total, file)
}

// trimPartialRune drops a multibyte UTF-8 sequence cut off at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}
