// Package sse reads server-sent events (text/event-stream) as the WHATWG
// HTML standard defines them, tolerant of the framing real model servers
// use: "data:" with or without one space, ":" keep-alive comments, \n, \r\n
// and lone \r line endings, multi-line data, a byte-order mark, and a last
// event that is not followed by a blank line (case B07).
//
// It owns only the framing. It knows nothing of JSON, "[DONE]" or any
// provider's event names; providers interpret Event.Data themselves. It
// performs no I/O beyond reading the io.Reader it is given.
package sse

import (
	"bytes"
	"errors"
	"io"
)

// MaxLineBytes is the longest line (in bytes, without its terminator) the
// reader accepts; a longer line fails with ErrLineTooLong so a broken
// server cannot make the reader buffer without bound.
const MaxLineBytes = 16 << 20

// ErrLineTooLong is returned by Next when a line exceeds MaxLineBytes.
var ErrLineTooLong = errors.New("sse: line too long")

var bom = []byte("\xef\xbb\xbf")

// Event is one dispatched event.
type Event struct {
	// Event is the "event:" field; empty means the default type "message".
	Event string
	// Data is the "data:" lines joined with "\n" (no trailing newline).
	Data string
	// ID is the last event ID seen so far in the stream (it persists
	// across events, per the standard).
	ID string
}

// Reader splits an event stream into events. The zero value is not usable;
// call NewReader.
type Reader struct {
	r   io.Reader
	buf []byte
	// start and end delimit unread bytes in buf.
	start, end int
	err        error
	// skipLF is set when the previous line ended with \r, so a following
	// \n belongs to that terminator (\r\n split across reads).
	skipLF  bool
	sawBOM  bool
	lastID  string
	data    []byte
	event   string
	hasData bool

	// OnComment, when set, is called with the text of every comment line
	// (the bytes after the leading ':'), so callers can reset idle timers
	// on keep-alives. It must not retain the Reader.
	OnComment func(text string)
}

// NewReader returns a Reader that reads events from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, buf: make([]byte, 4096)}
}

// Next returns the next event. At the end of the stream it flushes a
// pending event that had data but no closing blank line, then returns
// io.EOF. Any other read error discards the unfinished event. Read errors from the underlying reader are returned as they are
// (after any complete event before them), so callers can tell a dropped
// connection (io.ErrUnexpectedEOF, net errors) from a clean end.
func (r *Reader) Next() (Event, error) {
	for {
		line, err := r.line()
		if err != nil {
			if r.hasData && err == io.EOF {
				return r.dispatch(), nil
			}
			r.data, r.hasData, r.event = r.data[:0], false, ""
			return Event{}, err
		}
		if len(line) == 0 {
			if r.hasData {
				return r.dispatch(), nil
			}
			// Blank line with no data: reset the event type, dispatch nothing.
			r.event = ""
			continue
		}
		r.field(line)
	}
}

func (r *Reader) dispatch() Event {
	ev := Event{Event: r.event, Data: string(r.data), ID: r.lastID}
	r.data = r.data[:0]
	r.hasData = false
	r.event = ""
	return ev
}

// field interprets one non-blank line.
func (r *Reader) field(line []byte) {
	if line[0] == ':' {
		if r.OnComment != nil {
			r.OnComment(string(line[1:]))
		}
		return
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "data":
		if r.hasData {
			r.data = append(r.data, '\n')
		}
		r.data = append(r.data, value...)
		r.hasData = true
	case "event":
		r.event = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = string(value)
		}
	}
	// "retry" and unknown fields are ignored.
}

// line returns the next line without its terminator. The slice is valid
// until the next call.
func (r *Reader) line() ([]byte, error) {
	scanned := 0
	for {
		if r.skipLF && r.start < r.end {
			if r.buf[r.start] == '\n' {
				r.start++
			}
			r.skipLF = false
		}
		if !r.sawBOM {
			avail := r.buf[r.start:r.end]
			if len(avail) >= len(bom) || !bytes.HasPrefix(bom, avail) || r.err != nil {
				r.sawBOM = true
				if bytes.HasPrefix(avail, bom) {
					r.start += len(bom)
				}
			}
		}
		if r.sawBOM {
			win := r.buf[r.start+scanned : r.end]
			if i := bytes.IndexAny(win, "\r\n"); i >= 0 {
				i += r.start + scanned
				line := r.buf[r.start:i]
				if r.buf[i] == '\r' {
					r.skipLF = true
				}
				r.start = i + 1
				return line, nil
			}
			scanned = r.end - r.start
		}
		if r.err != nil {
			if r.start < r.end && r.err == io.EOF {
				// Last line without a terminator.
				line := r.buf[r.start:r.end]
				r.start = r.end
				return line, nil
			}
			r.start = r.end
			return nil, r.err
		}
		if scanned > MaxLineBytes {
			r.err = ErrLineTooLong
			r.start = r.end
			return nil, r.err
		}
		r.fill()
	}
}

// fill reads more bytes, compacting or growing the buffer as needed.
func (r *Reader) fill() {
	if r.start > 0 {
		n := copy(r.buf, r.buf[r.start:r.end])
		r.start, r.end = 0, n
	}
	if r.end == len(r.buf) {
		nb := make([]byte, len(r.buf)*2)
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	n, err := r.r.Read(r.buf[r.end:])
	r.end += n
	if err != nil {
		r.err = err
	}
}
