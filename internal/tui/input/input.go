// Package input sits between the terminal and Bubble Tea's input parser and
// fixes what the parser cannot see: read boundaries. A terminal or
// multiplexer that does not bracket pastes delivers a pasted block as one
// multi-byte read with embedded newlines; typed keys arrive a few bytes at
// a time. Reader turns such a read into a bracketed paste (ESC[200~ …
// ESC[201~) so the pasted lines land whole instead of each '\r' submitting
// (case B33).
//
// Everything else (real bracketed pastes, split end markers, escape codes
// inside pastes, terminal replies) is left to the parser, which keeps a
// pending buffer across reads. This package only rewrites bytes; it never
// decides what a key means.
package input

import (
	"bytes"
	"io"
	"os"
)

// Bracketed paste markers (xterm ctlseqs, "Bracketed Paste Mode").
const (
	PasteStart = "\x1b[200~"
	PasteEnd   = "\x1b[201~"
)

// Detector tracks whether the byte stream is inside a bracketed paste, so
// a long real paste split over several reads is never wrapped twice. The
// zero value is ready.
type Detector struct {
	inPaste bool
	match   int // bytes of "\x1b[20" matched at the end of the last read
	// marker is the byte after "\x1b[20" when match == 5.
	pending byte
}

// Rewrite returns read as the parser should see it: unchanged, or wrapped
// as a bracketed paste with "\r\n" and "\r" normalised to "\n" when it
// looks like an unbracketed paste: no ESC, not inside a bracketed paste, a
// printable byte, and a line break before the end. One trailing line break
// alone is typed text plus Enter (keys batched by a slow link or by tmux
// send-keys), which must still submit.
func (d *Detector) Rewrite(read []byte) []byte {
	wasInPaste := d.inPaste
	d.scan(read)
	if wasInPaste || !looksLikePaste(read) {
		return read
	}
	body := bytes.ReplaceAll(read, []byte("\r\n"), []byte("\n"))
	body = bytes.ReplaceAll(body, []byte("\r"), []byte("\n"))
	out := make([]byte, 0, len(body)+len(PasteStart)+len(PasteEnd))
	out = append(out, PasteStart...)
	out = append(out, body...)
	return append(out, PasteEnd...)
}

func looksLikePaste(b []byte) bool {
	body := bytes.TrimSuffix(b, []byte("\n"))
	body = bytes.TrimSuffix(body, []byte("\r"))
	if len(b) < 2 || bytes.IndexByte(b, 0x1b) >= 0 || !bytes.ContainsAny(body, "\r\n") {
		return false
	}
	for _, c := range b {
		if c >= 0x20 && c != 0x7f {
			return true
		}
	}
	return false
}

// scan follows paste start/end markers, including markers split across
// reads.
func (d *Detector) scan(b []byte) {
	const prefix = "\x1b[20"
	for _, c := range b {
		switch {
		case d.match < len(prefix):
			if c == prefix[d.match] {
				d.match++
			} else if c == 0x1b {
				d.match = 1
			} else {
				d.match = 0
			}
		case d.match == len(prefix):
			if c == '0' || c == '1' {
				d.pending = c
				d.match++
			} else {
				d.match = 0
			}
		default:
			if c == '~' {
				d.inPaste = d.pending == '0'
			}
			d.match = 0
			if c == 0x1b {
				d.match = 1
			}
		}
	}
}

// Reader wraps a terminal input file with a Detector. It implements the
// file interface Bubble Tea checks for raw mode and cancellable reads
// (Fd, Name, Read, Write, Close), so wrapping keeps the TTY a TTY.
//
// Each Read returns everything it read: the poller that calls Read waits
// on the descriptor first, so bytes held back here would stall until the
// next key press.
type Reader struct {
	f *os.File
	d Detector
	// later: a read already came through (see firstRead).
	later bool
}

// NewReader wraps f (normally os.Stdin or /dev/tty).
func NewReader(f *os.File) *Reader { return &Reader{f: f} }

// Read returns one rewritten read of the file. It reads at most
// len(p)-12 bytes so the paste markers always fit.
func (r *Reader) Read(p []byte) (int, error) {
	room := len(p) - len(PasteStart) - len(PasteEnd)
	if room < 1 {
		return 0, io.ErrShortBuffer
	}
	buf := make([]byte, room)
	n, err := r.f.Read(buf)
	if n == 0 {
		return 0, err
	}
	read := buf[:n]
	if !r.later {
		read = firstRead(read)
		r.later = true
	}
	return copy(p, r.d.Rewrite(read)), nil
}

// firstRead fixes keys typed before the terminal was in raw mode: the tty
// then turned Enter into "\n" (ICRNL), which the parser takes for ctrl+j,
// a newline in the input box, so the typed line was not sent (QA: text and
// Enter typed as zero starts). A single line ending in "\n" is given its
// "\r" back; several lines are a paste (Detector).
func firstRead(b []byte) []byte {
	body, ok := bytes.CutSuffix(b, []byte("\n"))
	if !ok || bytes.ContainsAny(body, "\r\n") {
		return b
	}
	return append(body, '\r')
}

// Write writes to the underlying file.
func (r *Reader) Write(p []byte) (int, error) { return r.f.Write(p) }

// Close closes the underlying file.
func (r *Reader) Close() error { return r.f.Close() }

// Fd returns the underlying file descriptor (for raw mode and polling).
func (r *Reader) Fd() uintptr { return r.f.Fd() }

// Name returns the underlying file's name.
func (r *Reader) Name() string { return r.f.Name() }
