package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/zero-agent/zero/internal/tools/edit"
	"github.com/zero-agent/zero/internal/workspace"
)

// EditFile is the edit_file tool: replace an exact, unique string.
type EditFile struct {
	ws *workspace.Workspace
}

type editArgs struct {
	Path       *string  `json:"path"`
	OldString  *string  `json:"old_string"`
	NewString  *string  `json:"new_string"`
	ReplaceAll flexBool `json:"replace_all"`
}

// Name implements Tool.
func (*EditFile) Name() string { return "edit_file" }

// Description implements Tool.
func (*EditFile) Description() string {
	return "Replace old_string with new_string in a file; old_string must match exactly once unless replace_all is true."
}

// Schema implements Tool.
func (*EditFile) Schema() json.RawMessage {
	return schema(`"path":{"type":"string"},"old_string":{"type":"string"},"new_string":{"type":"string"},"replace_all":{"type":"boolean"}`, "path", "old_string", "new_string")
}

// SideEffect implements Tool.
func (*EditFile) SideEffect() SideEffect { return SideWrite }

// Run implements Tool. Matching and byte preservation are package edit's
// (CRLF, mixed endings, BOM, final newline, indentation fallback: B13-B15);
// Windows-1252 files are edited as text and written back in that encoding;
// binary files are refused (B17). Result.Diff is a unified diff.
func (t *EditFile) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a editArgs
	if r, ok := decodeArgs(args, &a, `{"path": string, "old_string": string, "new_string": string, "replace_all"?: bool}`); !ok {
		return r, nil
	}
	var missing []string
	if a.Path == nil || *a.Path == "" {
		missing = append(missing, "path")
	}
	if a.OldString == nil {
		missing = append(missing, "old_string")
	}
	if a.NewString == nil {
		missing = append(missing, "new_string")
	}
	if len(missing) > 0 {
		return errorResult(`missing %s: edit_file takes {"path": string, "old_string": string, "new_string": string, "replace_all"?: bool} (exact key names)`, strings.Join(missing, ", ")), nil
	}
	path := *a.Path
	abs, r, ok := resolve(t.ws, path, true)
	if !ok {
		return r, nil
	}
	data, err := t.ws.ReadFile(abs)
	if err != nil {
		if fi, serr := t.ws.Stat(abs); serr == nil && fi.IsDir() {
			return errorResult("%s is a directory; name a file", path), nil
		}
		r := statError(path, err)
		if strings.Contains(r.Content, "does not exist") {
			r.Content = fmt.Sprintf("%s does not exist; use write_file to create it", path)
		}
		return r, nil
	}
	if kind, bin := sniffBinary(data); bin {
		return errorResult("%s is a binary file (%s, %d bytes); edit_file cannot patch it", path, kind, len(data)), nil
	}
	legacy := !utf8.Valid(data)
	text := data
	if legacy {
		text = []byte(decodeCP1252(data))
	}
	out, err := edit.Apply(text, *a.OldString, *a.NewString, bool(a.ReplaceAll))
	if err != nil {
		var nf *edit.NotFoundError
		var amb *edit.AmbiguousError
		if errors.As(err, &nf) || errors.As(err, &amb) || errors.Is(err, edit.ErrEmptyOld) || errors.Is(err, edit.ErrNoChange) {
			return errorResult("%s: %v; file unchanged", path, err), nil
		}
		return Result{}, err
	}
	result := out.Content
	if legacy {
		enc, ok := encodeCP1252(string(result))
		if !ok {
			return errorResult("%s is Windows-1252 (Latin-1) text and new_string has characters that encoding cannot store; file unchanged", path), nil
		}
		result = enc
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if err := t.ws.WriteFile(abs, result); err != nil {
		return errorResult("writing %s: %v", path, err), nil
	}
	rel := t.ws.Rel(abs)
	msg := fmt.Sprintf("edited %s: %d replacement(s) at line(s) %s", path, len(out.Lines), joinInts(out.Lines))
	if out.Indented {
		msg += " (matched with indentation ignored; new_string re-indented to the file's style)"
	}
	return Result{
		Content: msg,
		Diff:    udiff.Unified("a/"+rel, "b/"+rel, string(text), displayText(result)),
		Paths:   []string{abs},
	}, nil
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
