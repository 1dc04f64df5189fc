package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// Filtered wraps t so every result's Content and Diff pass through filter
// before anyone sees them (secret redaction: the model, the screen and the
// session log all receive the filtered text), and so does the file a tool
// streamed its whole output to (Result.FullOutput), rewritten in chunks
// (filterFile). filter must therefore only replace text, as redaction
// does; a note that depends on the whole output belongs in Annotated.
func Filtered(t Tool, filter func(string) string) Tool {
	return &filtered{Tool: t, filter: filter}
}

type filtered struct {
	Tool
	filter func(string) string
}

// Run runs the wrapped tool and filters its output. A full-output file
// that cannot be filtered is removed (the capped Content is still
// spilled); Content says so.
func (f *filtered) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	res, err := f.Tool.Run(ctx, args)
	res.Content = f.filter(res.Content)
	if res.Diff != "" {
		res.Diff = f.filter(res.Diff)
	}
	if res.FullOutput != "" {
		if ferr := filterFile(res.FullOutput, f.filter); ferr != nil {
			os.Remove(res.FullOutput)
			res.FullOutput, res.FullOutputBytes = "", 0
			res.Content += fmt.Sprintf("[could not keep the full output: %v]\n", ferr)
		}
	}
	return res, err
}

// Annotated wraps t so note(ctx, Content) is appended to every result's
// Content (the sandbox's explanation of a refusal it recognises in shell
// output; ctx is the call's). Unlike Filtered it leaves Diff and the
// full-output file alone.
func Annotated(t Tool, note func(ctx context.Context, content string) string) Tool {
	return &annotated{Tool: t, note: note}
}

type annotated struct {
	Tool
	note func(context.Context, string) string
}

// Run runs the wrapped tool and appends the note.
func (a *annotated) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	res, err := a.Tool.Run(ctx, args)
	res.Content += a.note(ctx, res.Content)
	return res, err
}

// filterChunk is how much of a full-output file filterFile passes to the
// filter at once; pemWindow how far a chunk may grow to keep a PEM block
// whole (internal/redact matches a private key within 64 KiB).
const (
	filterChunk = 64 << 10
	pemWindow   = 64 << 10
)

// filterFile rewrites path through filter in chunks of about filterChunk
// bytes, so memory stays bounded whatever the file's size. Chunks end
// after a newline (else after a byte that cannot be inside a token), and
// never between a PEM "-----BEGIN" and its "-----END", so a secret is not
// split between two filter calls; the exception is a secret whose value
// follows its name on the next line ("password:\n  value") exactly at a
// chunk end, one place in 64 KiB. The file is replaced atomically.
func filterFile(path string, filter func(string) string) error {
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	tmp := path + ".filtering"
	dst, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(dst, 64<<10)
	err = filterChunks(src, w, filter, filterChunk)
	if err == nil {
		err = w.Flush()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// filterChunks copies r to w through filter in chunks of about chunk
// bytes (filterFile).
func filterChunks(r io.Reader, w io.Writer, filter func(string) string, chunk int) error {
	buf := make([]byte, 0, chunk+pemWindow)
	eof := false
	fill := func(upTo int) error { // read until buf holds upTo bytes or r ends
		for !eof && len(buf) < upTo {
			n, err := r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if errors.Is(err, io.EOF) {
				eof = true
			} else if err != nil {
				return err
			}
		}
		return nil
	}
	for {
		if err := fill(chunk); err != nil {
			return err
		}
		cut := len(buf)
		if !eof {
			// A chunk that cannot end yet (a PEM block opens it) grows,
			// up to pemWindow more.
			for cut = chunkEnd(buf); cut == 0 && !eof && len(buf) < cap(buf); cut = chunkEnd(buf) {
				if err := fill(len(buf) + 1); err != nil {
					return err
				}
			}
			if cut == 0 || eof {
				cut = len(buf)
			}
		}
		if _, err := io.WriteString(w, filter(string(buf[:cut]))); err != nil {
			return err
		}
		buf = buf[:copy(buf, buf[cut:])]
		if eof && len(buf) == 0 {
			return nil
		}
	}
}

// chunkEnd is where a chunk of buf may end: after its last newline, else
// after its last ASCII byte that is not a letter, digit, '_', '-', '+',
// '/' or '=' (a token's alphabet); moved back before a "-----BEGIN" that has no
// "-----END" after it. 0 means no such place.
func chunkEnd(buf []byte) int {
	cut := bytes.LastIndexByte(buf, '\n') + 1
	for i := len(buf) - 1; cut == 0 && i >= 0; i-- {
		if c := buf[i]; c < utf8.RuneSelf && !tokenByte(c) {
			cut = i + 1
		}
	}
	if i := bytes.LastIndex(buf[:cut], []byte("-----BEGIN")); i >= 0 && !bytes.Contains(buf[i:cut], []byte("-----END")) {
		cut = i
	}
	return cut
}

func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+' || c == '/' || c == '='
}
