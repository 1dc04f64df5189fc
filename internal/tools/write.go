package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/zero-agent/zero/internal/workspace"
)

// WriteFile is the write_file tool: create or replace a whole file.
type WriteFile struct {
	ws *workspace.Workspace
}

// Name implements Tool.
func (*WriteFile) Name() string { return "write_file" }

// Description implements Tool.
func (*WriteFile) Description() string {
	return "Create or overwrite a file with content, creating parent directories; prefer edit_file for changes to existing files."
}

// Schema implements Tool.
func (*WriteFile) Schema() json.RawMessage {
	return schema(`"path":{"type":"string"},"content":{"type":"string"}`, "path", "content")
}

// SideEffect implements Tool.
func (*WriteFile) SideEffect() SideEffect { return SideWrite }

// Run implements Tool. Replacing a file keeps its conventions: CRLF when
// most of its lines used CRLF, its UTF-8 BOM, its Windows-1252 encoding. A
// new file gets the line ending .gitattributes or .editorconfig ask for,
// else LF (B13). Binary files are refused (B17). Result.Diff is a unified
// diff against the old content.
func (t *WriteFile) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a struct {
		Path    *string `json:"path"`
		Content *string `json:"content"`
	}
	if r, ok := decodeArgs(args, &a, `{"path": string, "content": string}`); !ok {
		return r, nil
	}
	if a.Path == nil || *a.Path == "" || a.Content == nil {
		return errorResult(`path and content are required: {"path": string, "content": string}`), nil
	}
	path := *a.Path
	abs, r, ok := resolve(t.ws, path, true)
	if !ok {
		return r, nil
	}
	old, err := t.ws.ReadFile(abs)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		if fi, serr := t.ws.Stat(abs); serr == nil && fi.IsDir() {
			return errorResult("%s is a directory; name a file", path), nil
		}
		return statError(path, err), nil
	}
	data := []byte(*a.Content)
	if exists {
		if kind, bin := sniffBinary(old); bin {
			return errorResult("%s is a binary file (%s, %d bytes); write_file will not overwrite it (delete it first if that is intended)", path, kind, len(old)), nil
		}
		data, err = likeExisting(old, data)
		if err != nil {
			return errorResult("%s: %v", path, err), nil
		}
		if bytes.Equal(old, data) {
			return Result{Content: fmt.Sprintf("%s unchanged (same content)", path), Paths: []string{abs}}, nil
		}
	} else if newFileEOL(t.ws, abs) == "\r\n" {
		data = toCRLF(data)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if err := t.ws.WriteFile(abs, data); err != nil {
		return errorResult("writing %s: %v", path, err), nil
	}
	rel := t.ws.Rel(abs)
	verb, from := "updated", "a/"+rel
	if !exists {
		verb, from = "created", "/dev/null"
	}
	return Result{
		Content: fmt.Sprintf("%s %s (%d lines, %d bytes)", verb, path, lineCount(data), len(data)),
		Diff:    udiff.Unified(from, "b/"+rel, displayText(old), displayText(data)),
		Paths:   []string{abs},
	}, nil
}

// likeExisting re-encodes new content (as the model wrote it: UTF-8, LF)
// in the conventions of the file it replaces.
func likeExisting(old, data []byte) ([]byte, error) {
	if !utf8.Valid(old) && utf8.Valid(data) {
		enc, ok := encodeCP1252(string(data))
		if !ok {
			return nil, fmt.Errorf("the file is Windows-1252 (Latin-1) text and content has characters that encoding cannot store")
		}
		data = enc
	}
	if dominantEOL(old) == "\r\n" && !bytes.Contains(data, []byte("\r\n")) {
		data = toCRLF(data)
	}
	if bytes.HasPrefix(old, bom) && !bytes.HasPrefix(data, bom) {
		data = append(append([]byte(nil), bom...), data...)
	}
	return data, nil
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// dominantEOL is "\r\n" when most line endings of b are CRLF, else "\n".
func dominantEOL(b []byte) string {
	crlf := bytes.Count(b, []byte("\r\n"))
	if crlf > bytes.Count(b, []byte("\n"))-crlf {
		return "\r\n"
	}
	return "\n"
}

// toCRLF turns lone LFs into CRLF, leaving existing CRLF alone.
func toCRLF(b []byte) []byte {
	lf := bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
}

func lineCount(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// displayText is b as UTF-8 for diffs.
func displayText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return decodeCP1252(b)
}
