package permission

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/tools/edit"
	"github.com/zero-agent/zero/internal/workspace"
)

// CallPreview is what a person is shown of a call: the full command of a
// shell call, or the path and the diff an edit or write would make.
type CallPreview struct {
	Command, Path, Diff string
	// Note is set when the diff is not the file's: the edit would not
	// apply (the diff then shows old_string against new_string alone), or
	// a write changes nothing.
	Note string
}

// Preview describes call against the workspace as it is now, so hunk line
// numbers are the file's. ws may be nil (no file is read).
func Preview(ws *workspace.Workspace, call llm.ToolCall) CallPreview {
	var args struct {
		Command    string          `json:"command"`
		Cmd        string          `json:"cmd"` // exec_command's
		Path       string          `json:"path"`
		Content    string          `json:"content"`
		OldString  string          `json:"old_string"`
		NewString  string          `json:"new_string"`
		ReplaceAll json.RawMessage `json:"replace_all"`
	}
	_ = json.Unmarshal([]byte(call.Arguments), &args)
	p := CallPreview{Command: cmp.Or(args.Command, args.Cmd), Path: args.Path}
	if ws == nil {
		return p
	}
	switch call.Name {
	case "edit_file":
		p.Diff, p.Note = editPreview(ws, args.Path, args.OldString, args.NewString, flagTrue(args.ReplaceAll))
	case "apply_patch":
		p.Path, p.Diff, p.Note = patchPreview(ws, call.Arguments)
	case "write_file":
		old := ""
		if abs, err := ws.Resolve(args.Path, false); err == nil {
			if b, err := ws.ReadFile(abs); err == nil {
				old = string(b)
			}
		}
		p.Diff = udiff.Unified(args.Path, args.Path, old, args.Content)
		if p.Diff == "" {
			p.Note = "no change: " + args.Path + " already has this content"
		}
	}
	return p
}

// editPreview reads path through the workspace, applies the edit the way
// edit_file does (edit.Apply: CRLF, BOM and indentation handled there) and
// diffs the whole file before and after. The diff is for display: CRLF is
// shown as LF and a BOM is dropped, which changes no line number. When the
// edit would not apply, it returns the fragment diff and a note saying why.
func editPreview(ws *workspace.Workspace, path, oldS, newS string, replaceAll bool) (diff, note string) {
	fragment := udiff.Unified(path, path, oldS, newS)
	abs, err := ws.Resolve(path, true)
	if err != nil {
		return fragment, "preview: " + err.Error() + "; diff shows the edit's text only"
	}
	data, err := ws.ReadFile(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fragment, "preview: " + path + " does not exist, the edit will fail; diff shows its text only"
	case err != nil:
		return fragment, "preview: cannot read " + path + " (" + err.Error() + "); diff shows the edit's text only"
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return fragment, "preview: " + path + " is not UTF-8; diff shows the edit's text only, not file lines"
	}
	out, err := edit.Apply(data, oldS, newS, replaceAll)
	if err != nil {
		return fragment, "preview: would not apply (" + previewReason(err) + "); diff shows the edit's text only, not file lines"
	}
	return udiff.Unified(path, path, displayText(data), displayText(out.Content)), ""
}

// patchPreview is apply_patch's dry run (tools.ApplyPatch.Preview): every
// file the patch touches and the diff of all of them, computed from the
// workspace as it is and written nowhere. When the patch would not apply,
// the diff is the patch as the model wrote it and the note says why.
func patchPreview(ws *workspace.Workspace, arguments string) (path, diff, note string) {
	diff, files, err := tools.NewApplyPatch(ws).Preview(json.RawMessage(arguments))
	if err == nil {
		return strings.Join(files, ", "), diff, ""
	}
	var a struct{ Patch, Input string }
	_ = json.Unmarshal([]byte(arguments), &a)
	if a.Patch == "" {
		a.Patch = a.Input
	}
	return "", a.Patch, "preview: would not apply (" + err.Error() + "); diff shows the patch as written"
}

// previewReason is a short form of an edit.Apply error for the prompt.
func previewReason(err error) string {
	var nf *edit.NotFoundError
	var amb *edit.AmbiguousError
	switch {
	case errors.As(err, &nf):
		return "old_string not found"
	case errors.As(err, &amb):
		return fmt.Sprintf("old_string matches %d places", amb.Count)
	}
	return err.Error()
}

// displayText is file text as read_file shows it: CRLF as LF, no BOM.
func displayText(b []byte) string {
	return strings.ReplaceAll(strings.TrimPrefix(string(b), "\ufeff"), "\r\n", "\n")
}

// flagTrue reads a JSON boolean the way edit_file's arguments accept it:
// true, or the strings "true"/"True"/"1" (local models quote booleans).
func flagTrue(raw json.RawMessage) bool {
	switch strings.TrimSpace(string(raw)) {
	case "true", `"true"`, `"True"`, "1", `"1"`:
		return true
	}
	return false
}
