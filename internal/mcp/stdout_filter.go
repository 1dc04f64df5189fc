package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// Sizes: lines up to checkedLine bytes are checked whole; a longer line is
// passed through when it starts like a message (only protocol messages
// are that long), streamed, never held whole. Only the first
// maxSkippedQuote bytes of a skipped line are kept for the log.
const (
	checkedLine     = 64 << 10
	maxSkippedQuote = 512
)

// stdoutFilter passes only the lines of a stdio server's stdout that are
// JSON-RPC messages, and hands every other line to skipped. Servers print
// banners and logs on stdout although the transport forbids it (case B29:
// testdata/B29), JSON logs (pino, structlog) included; the SDK's decoder
// would end the connection at the first such line.
//
// A line is a message when it is a JSON object with a "jsonrpc" member or
// a non-empty array of such objects (a batch). Lines longer than
// checkedLine are judged by their first byte ('{' or '['), so an 8 MB
// result costs no more than the SDK's own decoder.
type stdoutFilter struct {
	r       *bufio.Reader
	closer  io.Closer
	pending []byte // the start of a message line, to hand out
	passing bool   // copying the rest of a long message line up to '\n'
	skipped func(line []byte)
}

func newStdoutFilter(rc io.ReadCloser, skipped func(line []byte)) *stdoutFilter {
	return &stdoutFilter{r: bufio.NewReaderSize(rc, checkedLine), closer: rc, skipped: skipped}
}

func (f *stdoutFilter) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for len(f.pending) == 0 && !f.passing {
		if err := f.nextLine(); err != nil {
			return 0, err
		}
	}
	if len(f.pending) > 0 {
		n := copy(p, f.pending)
		f.pending = f.pending[n:]
		return n, nil
	}
	return f.copyLine(p)
}

// nextLine reads the next line and keeps it in pending when it is a
// message, else reports it to skipped (blank lines silently).
func (f *stdoutFilter) nextLine() error {
	line, err := f.r.ReadSlice('\n')
	switch {
	case err == bufio.ErrBufferFull:
		if startsMessage(line) {
			f.pending = append(f.pending[:0], line...)
			f.passing = true
			return nil
		}
		return f.skipLong(line)
	case isMessage(line):
		f.pending = append(f.pending[:0], line...)
		return nil // an error (EOF) comes back from the next ReadSlice
	case len(bytes.TrimSpace(line)) > 0 && f.skipped != nil:
		f.skipped(bytes.TrimRight(line[:min(len(line), maxSkippedQuote)], "\r\n"))
	}
	return err
}

// copyLine copies the rest of a long message line, ending at '\n'.
func (f *stdoutFilter) copyLine(p []byte) (int, error) {
	if f.r.Buffered() == 0 {
		if _, err := f.r.Peek(1); err != nil {
			return 0, err
		}
	}
	chunk, _ := f.r.Peek(min(f.r.Buffered(), len(p)))
	if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
		chunk = chunk[:i+1]
		f.passing = false
	}
	n := copy(p, chunk)
	_, _ = f.r.Discard(n)
	return n, nil
}

// skipLong discards a long non-message line whose first part is head.
func (f *stdoutFilter) skipLong(head []byte) error {
	if f.skipped != nil {
		f.skipped(append([]byte(nil), head[:min(len(head), maxSkippedQuote)]...))
	}
	for {
		_, err := f.r.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// startsMessage: the first non-blank byte opens an object or an array.
func startsMessage(line []byte) bool {
	t := bytes.TrimLeft(line, " \t\r")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// isMessage: a whole line holding a JSON-RPC object or batch.
func isMessage(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return false
	}
	type probe struct {
		JSONRPC *string `json:"jsonrpc"`
	}
	switch t[0] {
	case '{':
		var p probe
		return json.Unmarshal(t, &p) == nil && p.JSONRPC != nil
	case '[':
		var ps []probe
		if json.Unmarshal(t, &ps) != nil || len(ps) == 0 {
			return false
		}
		for _, p := range ps {
			if p.JSONRPC == nil {
				return false
			}
		}
		return true
	}
	return false
}

func (f *stdoutFilter) Close() error { return f.closer.Close() }
