package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/workspace"
)

// maxLineBytes caps one displayed line of read_file (bytes); the rest of a
// longer line is replaced by a marker giving its size.
const maxLineBytes = 2000

// ReadFile is the read_file tool: numbered lines of a text file.
type ReadFile struct {
	ws   *workspace.Workspace
	opts Options
}

type readArgs struct {
	Path   string  `json:"path"`
	Offset flexInt `json:"offset"`
	Limit  flexInt `json:"limit"`
}

// Name implements Tool.
func (*ReadFile) Name() string { return "read_file" }

// Description implements Tool.
func (*ReadFile) Description() string {
	return "Read a text file as numbered lines (line number, tab, raw line); offset is the 1-based first line, limit the line count."
}

// Schema implements Tool.
func (*ReadFile) Schema() json.RawMessage {
	return schema(`"path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}`, "path")
}

// SideEffect implements Tool.
func (*ReadFile) SideEffect() SideEffect { return SideRead }

// Run implements Tool. Output lines are "%5d\t<line>" with the file's raw
// bytes (tabs kept, CR of CRLF and a UTF-8 BOM dropped). Binary files
// (sniffBinary) are refused without showing any content; text that is not
// UTF-8 is decoded as Windows-1252 and flagged.
func (t *ReadFile) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a readArgs
	if r, ok := decodeArgs(args, &a, `{"path": string, "offset"?: int, "limit"?: int}`); !ok {
		return r, nil
	}
	if a.Path == "" {
		return errorResult("path is required"), nil
	}
	abs, r, ok := resolve(t.ws, a.Path, false)
	if !ok {
		return r, nil
	}
	fi, err := t.ws.Stat(abs)
	if err != nil {
		return statError(a.Path, err), nil
	}
	if fi.IsDir() {
		return errorResult("%s is a directory; use list_dir or glob", a.Path), nil
	}
	f, err := t.ws.ReadSource(abs)
	if err != nil {
		return statError(a.Path, err), nil
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(sniffLen)
	if kind, bin := sniffBinary(head); bin {
		return errorResult("binary file (%s, %d bytes) - not shown; use a converter (for example via bash) to get text", kind, fi.Size()), nil
	}
	offset, limit := int(a.Offset), int(a.Limit)
	if offset < 1 {
		offset = 1
	}
	if limit <= 0 {
		limit = t.opts.ReadLimit
	}
	out, err := t.render(ctx, br, offset, limit)
	if err != nil {
		return Result{}, err
	}
	out.Paths = []string{abs}
	return out, nil
}

// render numbers lines offset..offset+limit-1 and reports what was left.
func (t *ReadFile) render(ctx context.Context, br *bufio.Reader, offset, limit int) (Result, error) {
	var sb strings.Builder
	line, shown, legacy := 0, 0, false
	last := offset - 1 // last line written
	stoppedBytes := false
	for {
		raw, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A very long line: keep reading it, render the capped start.
			long := append([]byte(nil), raw...)
			for errors.Is(err, bufio.ErrBufferFull) {
				raw, err = br.ReadSlice('\n')
				long = append(long, raw...)
			}
			raw = long
		}
		if len(raw) == 0 && err != nil {
			if err != io.EOF {
				return Result{}, err
			}
			break
		}
		line++
		if line%4096 == 0 && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if line < offset || shown >= limit || stoppedBytes {
			continue // count the rest to report the total
		}
		text := bytes.TrimSuffix(bytes.TrimSuffix(raw, []byte("\n")), []byte("\r"))
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\xEF\xBB\xBF"))
		}
		s := string(text)
		if !utf8.Valid(text) {
			s, legacy = decodeCP1252(text), true
		}
		s = capLine(s, maxLineBytes)
		if sb.Len()+len(s)+8 > t.opts.ReadMaxBytes && shown > 0 {
			stoppedBytes = true
			continue
		}
		fmt.Fprintf(&sb, "%5d\t%s\n", line, s)
		shown++
		last = line
		if err != nil {
			break
		}
	}
	total := line
	switch {
	case total == 0:
		return Result{Content: "(empty file)"}, nil
	case offset > total:
		return errorResult("offset %d is past the end of the file (%d lines)", offset, total), nil
	}
	if last < total {
		fmt.Fprintf(&sb, "[showing lines %d-%d of %d; call read_file with offset=%d to read more]\n", offset, last, total, last+1)
	}
	if legacy {
		sb.WriteString("[file is not UTF-8; shown decoded as Windows-1252 (Latin-1); edit_file keeps that encoding]\n")
	}
	return Result{Content: sb.String()}, nil
}

// capLine shortens s to at most n bytes on a rune boundary, with a marker.
func capLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… [line truncated: %d bytes]", s[:cut], len(s))
}

// statError turns an open/stat failure into a message the model can act on.
func statError(path string, err error) Result {
	if errors.Is(err, fs.ErrNotExist) {
		return errorResult("%s does not exist; check the path with list_dir or glob", path)
	}
	if errors.Is(err, fs.ErrPermission) {
		return errorResult("%s: permission denied", path)
	}
	return errorResult("%s: %v", path, err)
}
