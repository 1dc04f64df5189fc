package mcp

import (
	"bufio"
	"bytes"
	"io"
)

// maxSkippedQuote is how much of a skipped stdout line is kept for the log.
const maxSkippedQuote = 512

// stdoutFilter passes only the lines of a stdio server's stdout that can
// be JSON-RPC messages (their first non-blank byte is '{', or '[' then
// '{' or ']' for a batch), and
// hands every other line to skipped. Servers print banners and logs on
// stdout although the transport forbids it (case B29: testdata/B29); the
// SDK's decoder would end the connection at the first such line.
//
// It streams: a message line is copied through as it arrives, never held
// whole, so an 8 MB frame costs no more than the SDK's own decoder, and a
// skipped line is discarded as it is read (only its first 512 bytes are
// quoted).
type stdoutFilter struct {
	r       *bufio.Reader
	closer  io.Closer
	passing bool // inside a message line, copying up to its '\n'
	skipped func(line []byte)
}

func newStdoutFilter(rc io.ReadCloser, skipped func(line []byte)) *stdoutFilter {
	return &stdoutFilter{r: bufio.NewReaderSize(rc, 64<<10), closer: rc, skipped: skipped}
}

func (f *stdoutFilter) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for !f.passing {
		c, err := f.r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			// Blank space between messages: nothing to pass.
		case '{', '[':
			if c == '[' && !f.batchFollows() {
				if err := f.skipLine(c); err != nil {
					return 0, err
				}
				continue
			}
			f.passing = true
			p[0] = c
			if c2 := f.copyLine(p[1:]); c2 >= 0 {
				return 1 + c2, nil
			}
			return 1, nil
		default:
			if err := f.skipLine(c); err != nil {
				return 0, err
			}
		}
	}
	n := f.copyLine(p)
	if n < 0 {
		_, err := f.r.Peek(1)
		return 0, err
	}
	return n, nil
}

// batchFollows tells a JSON-RPC batch ("[{" or "[]", blanks aside) from
// a log line such as "[INFO] ..." after a '['.
func (f *stdoutFilter) batchFollows() bool {
	for i := 1; i <= 64; i++ {
		b, err := f.r.Peek(i)
		if err != nil {
			return false
		}
		switch b[i-1] {
		case ' ', '\t', '\r':
			continue
		case '{', ']':
			return true
		default:
			return false
		}
	}
	return false
}

// copyLine copies what is buffered of the current message line into p,
// ending the line at '\n'. It returns -1 when nothing is buffered.
func (f *stdoutFilter) copyLine(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	if f.r.Buffered() == 0 {
		if _, err := f.r.Peek(1); err != nil {
			return -1
		}
	}
	chunk, _ := f.r.Peek(min(f.r.Buffered(), len(p)))
	if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
		chunk = chunk[:i+1]
		f.passing = false
	}
	n := copy(p, chunk)
	_, _ = f.r.Discard(n)
	return n
}

// skipLine discards the rest of a non-message line that began with first.
func (f *stdoutFilter) skipLine(first byte) error {
	quote := []byte{first}
	for {
		part, err := f.r.ReadSlice('\n')
		if room := maxSkippedQuote - len(quote); room > 0 {
			quote = append(quote, part[:min(room, len(part))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if f.skipped != nil {
			f.skipped(bytes.TrimRight(quote, "\r\n"))
		}
		if err == io.EOF {
			return io.EOF
		}
		return err
	}
}

func (f *stdoutFilter) Close() error { return f.closer.Close() }
