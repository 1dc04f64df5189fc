package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/zero-agent/zero/internal/tools/patch"
	"github.com/zero-agent/zero/internal/workspace"
)

// ApplyPatch is the apply_patch tool: add, update, move and delete files
// with one patch in the format Codex's models write (package patch), all
// or nothing. It is not in Core: the run layer offers it to the models
// that use it (NewApplyPatch).
type ApplyPatch struct {
	ws *workspace.Workspace
}

// NewApplyPatch returns the apply_patch tool bound to ws.
func NewApplyPatch(ws *workspace.Workspace) *ApplyPatch { return &ApplyPatch{ws: ws} }

// Name implements Tool.
// ApplyPatchName is apply_patch's name (the permission engine decides it
// by the paths its patch names).
const ApplyPatchName = "apply_patch"

func (*ApplyPatch) Name() string { return ApplyPatchName }

// Description implements Tool.
func (*ApplyPatch) Description() string {
	return "Change files with one patch: several files per call, all applied or none. " +
		"Sections are *** Add File: / *** Delete File: / *** Update File: (optionally *** Move to:); " +
		"hunks start with @@ and use ' ' context, '-' remove, '+' add lines, e.g.\n" +
		"*** Begin Patch\n*** Update File: app.py\n@@ def greet():\n-    print(\"Hi\")\n+    print(\"Hello\")\n*** End Patch"
}

// Schema implements Tool.
func (*ApplyPatch) Schema() json.RawMessage {
	return schema(`"patch":{"type":"string"}`, "patch")
}

// SideEffect implements Tool.
func (*ApplyPatch) SideEffect() SideEffect { return SideWrite }

// Run implements Tool: it computes every file's new content first and
// writes only when all hunks apply; a write that fails midway restores the
// files already written. Files keep their conventions as with edit_file
// and write_file (CRLF, BOM, final newline, Windows-1252); binary files are
// refused. Result.Diff is a unified diff of every file.
func (t *ApplyPatch) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	pl, r, ok := t.plan(args)
	if !ok {
		return r, nil
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if err := t.commit(pl.plan.Files); err != nil {
		return errorResult("%v", err), nil
	}
	return Result{Content: t.summary(pl), Diff: t.diff(pl), Paths: pl.paths()}, nil
}

// Preview is the dry run behind the permission prompt: the diff Run would
// report and the workspace-relative files it would touch, or the error
// Run would give, with nothing written.
func (t *ApplyPatch) Preview(args json.RawMessage) (diff string, files []string, err error) {
	pl, r, ok := t.plan(args)
	if !ok {
		return "", nil, errors.New(strings.Replace(r.Content, "; nothing was written", "", 1))
	}
	for _, p := range pl.paths() {
		files = append(files, t.ws.Rel(p))
	}
	return t.diff(pl), files, nil
}

// PatchPaths returns the paths an apply_patch call names, as written
// (each section's and each Move to), for a permission check: the call has
// no single "path" argument. An error means the arguments or the patch do
// not parse; the tool would refuse the call with it.
func PatchPaths(args json.RawMessage) ([]string, error) {
	var a struct {
		Patch *string `json:"patch"`
		Input *string `json:"input"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if a.Patch == nil {
		a.Patch = a.Input
	}
	if a.Patch == nil {
		return nil, errors.New("missing patch")
	}
	return patch.Paths(*a.Patch)
}

// planned is a patch applied in memory with the file conventions put back.
type planned struct {
	plan  *patch.Plan
	moved map[string]string // destination → source
}

func (p *planned) paths() []string {
	var out []string
	for _, f := range p.plan.Files {
		if f.Changed() {
			out = append(out, f.Path)
		}
	}
	return out
}

// plan parses the patch, resolves every path through the workspace and
// applies it in memory; a failure is the Result to return.
func (t *ApplyPatch) plan(args json.RawMessage) (*planned, Result, bool) {
	var a struct {
		Patch *string `json:"patch"`
		Input *string `json:"input"` // the name some models send
	}
	if r, ok := decodeArgs(args, &a, `{"patch": string}`); !ok {
		return nil, r, false
	}
	if a.Patch == nil {
		a.Patch = a.Input
	}
	if a.Patch == nil || strings.TrimSpace(*a.Patch) == "" {
		return nil, errorResult(`missing patch: apply_patch takes {"patch": "*** Begin Patch\n...\n*** End Patch"}`), false
	}
	ops, err := patch.Parse(*a.Patch)
	if err != nil {
		return nil, nothingWritten(err.Error()), false
	}
	src := &patchSource{ws: t.ws, raw: map[string][]byte{}, legacy: map[string]bool{}, update: map[string]bool{}, binary: map[string]bool{}}
	for i := range ops {
		op := &ops[i]
		for _, p := range []*string{&op.Path, &op.MoveTo} {
			if *p == "" {
				continue
			}
			abs, err := t.ws.Resolve(*p, true)
			if err != nil {
				return nil, nothingWritten(fmt.Sprintf("*** %s: %v", op.Kind, err)), false
			}
			src.shown(abs, *p)
			*p = abs
		}
		if op.Kind == patch.Update && len(op.Hunks) > 0 {
			src.update[op.Path] = true
		}
	}
	pp, err := patch.Apply(ops, src)
	if err != nil {
		return nil, nothingWritten(src.relabel(err.Error())), false
	}
	pl := &planned{plan: pp, moved: map[string]string{}}
	if err := t.conventions(pl, src); err != nil {
		return nil, nothingWritten(err.Error()), false
	}
	return pl, Result{}, true
}

// nothingWritten is a failure before any write, said on its first line
// (a hunk error quotes the file's text after it).
func nothingWritten(msg string) Result {
	head, rest, _ := strings.Cut(msg, "\n")
	if rest != "" {
		rest = "\n" + rest
	}
	return errorResult("%s; nothing was written%s", head, rest)
}

// conventions re-encodes new content like the file it replaces: an Added
// file gets write_file's treatment (the old file's CRLF, BOM and encoding,
// or the line ending .gitattributes/.editorconfig ask for), an Updated
// Windows-1252 file goes back to that encoding. Before becomes the bytes
// on disk, for the unchanged test and for restoring.
func (t *ApplyPatch) conventions(pl *planned, src *patchSource) error {
	added := map[string]bool{}
	for _, c := range pl.plan.Changes {
		switch {
		case c.Op == patch.Add:
			added[c.Path] = true
		case c.MoveTo != "":
			pl.moved[c.MoveTo] = c.Path
			if src.legacy[c.Path] {
				src.legacy[c.MoveTo] = true
			}
		}
	}
	for _, f := range pl.plan.Files {
		f.Before = src.raw[f.Path]
		if !f.Exists {
			continue
		}
		rel := t.ws.Rel(f.Path)
		switch {
		case added[f.Path] && src.binary[f.Path]:
			return fmt.Errorf("*** Add File: %s would replace a binary file; delete it first with *** Delete File: if that is intended", rel)
		case added[f.Path] && f.Existed:
			data, err := likeExisting(f.Before, f.After)
			if err != nil {
				return fmt.Errorf("%s: %v", rel, err)
			}
			f.After = data
		case added[f.Path]:
			if newFileEOL(t.ws, f.Path) == "\r\n" {
				f.After = toCRLF(f.After)
			}
		case src.legacy[f.Path]:
			enc, ok := encodeCP1252(string(f.After))
			if !ok {
				return fmt.Errorf("%s is Windows-1252 (Latin-1) text and the patch adds characters that encoding cannot store", rel)
			}
			f.After = enc
		}
	}
	return nil
}

// commit writes or removes every changed file in order; when one fails,
// the ones already done are put back as they were.
func (t *ApplyPatch) commit(files []*patch.File) error {
	var done []*patch.File
	for _, f := range files {
		if !f.Changed() {
			continue
		}
		var err error
		if f.Exists {
			err = t.ws.WriteFile(f.Path, f.After)
		} else {
			err = t.ws.Remove(f.Path)
		}
		if err == nil {
			done = append(done, f)
			continue
		}
		msg := fmt.Sprintf("writing %s: %v", t.ws.Rel(f.Path), err)
		var lost []string
		for i := len(done) - 1; i >= 0; i-- {
			d := done[i]
			var rerr error
			if d.Existed {
				rerr = t.ws.WriteFile(d.Path, d.Before)
			} else {
				rerr = t.ws.Remove(d.Path)
			}
			if rerr != nil {
				lost = append(lost, fmt.Sprintf("%s (%v)", t.ws.Rel(d.Path), rerr))
			}
		}
		if len(lost) > 0 {
			return fmt.Errorf("%s; restoring the files written before it failed for %s, the others are as they were", msg, strings.Join(lost, ", "))
		}
		if len(done) > 0 {
			return fmt.Errorf("%s; the %d file(s) written before it were restored, nothing is changed", msg, len(done))
		}
		return fmt.Errorf("%s; nothing was written", msg)
	}
	return nil
}

// diff is one unified diff per operation, workspace-relative.
func (t *ApplyPatch) diff(pl *planned) string {
	var sb strings.Builder
	for _, c := range pl.plan.Changes {
		from, to := "a/"+t.ws.Rel(c.Path), "b/"+t.ws.Rel(c.Path)
		switch {
		case !c.Existed:
			from = "/dev/null"
		case c.Op == patch.Delete:
			to = "/dev/null"
		case c.MoveTo != "":
			to = "b/" + t.ws.Rel(c.MoveTo)
		}
		d := udiff.Unified(from, to, shownText(c.Before), shownText(c.After))
		if d == "" && c.MoveTo != "" {
			d = fmt.Sprintf("rename from %s\nrename to %s\n", t.ws.Rel(c.Path), t.ws.Rel(c.MoveTo))
		}
		sb.WriteString(d)
	}
	return sb.String()
}

// shownText is file bytes as read_file shows them (UTF-8, LF, no BOM), so
// the prompt's diff carries no CR and its line numbers are the file's.
func shownText(b []byte) string {
	return strings.ReplaceAll(strings.TrimPrefix(displayText(b), "\ufeff"), "\r\n", "\n")
}

// summary says what each operation did, for the model.
func (t *ApplyPatch) summary(pl *planned) string {
	var parts []string
	indented := 0
	for _, c := range pl.plan.Changes {
		rel := t.ws.Rel(c.Path)
		switch {
		case c.Op == patch.Add && c.Existed:
			parts = append(parts, "replaced "+rel)
		case c.Op == patch.Add:
			parts = append(parts, "added "+rel)
		case c.Op == patch.Delete:
			parts = append(parts, "deleted "+rel)
		case c.MoveTo != "":
			parts = append(parts, "updated "+rel+" and moved it to "+t.ws.Rel(c.MoveTo))
		default:
			parts = append(parts, "updated "+rel)
		}
		indented += c.Indented
	}
	msg := "applied patch: " + strings.Join(parts, ", ")
	if indented > 0 {
		msg += fmt.Sprintf(" (%d hunk(s) matched with indentation ignored; their lines were re-indented to the file's style)", indented)
	}
	return msg
}

// patchSource reads files for package patch through the workspace: UTF-8
// as is, Windows-1252 decoded, binary refused for an Update.
type patchSource struct {
	ws     *workspace.Workspace
	raw    map[string][]byte // bytes on disk, by absolute path
	legacy map[string]bool   // files decoded from Windows-1252
	update map[string]bool   // paths the patch updates
	binary map[string]bool   // files that are not text
	names  [][2]string       // absolute path, as the patch wrote it
}

// shown records how the patch wrote abs, so errors name it that way.
func (s *patchSource) shown(abs, asWritten string) {
	s.names = append(s.names, [2]string{abs, asWritten})
}

// relabel replaces absolute paths in msg with the patch's own spelling,
// longest first so a directory's path does not cut a file's inside it.
func (s *patchSource) relabel(msg string) string {
	sort.Slice(s.names, func(i, j int) bool { return len(s.names[i][0]) > len(s.names[j][0]) })
	for _, n := range s.names {
		msg = strings.ReplaceAll(msg, n[0], n[1])
	}
	return msg
}

// ReadFile implements patch.Source.
func (s *patchSource) ReadFile(abs string) ([]byte, error) {
	data, err := s.ws.ReadFile(abs)
	rel := s.ws.Rel(abs)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, fs.ErrNotExist // a parent is a file: nothing is there
		}
		if fi, serr := s.ws.Stat(abs); serr == nil && fi.IsDir() {
			return nil, fmt.Errorf("%s is a directory; name a file", rel)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	s.raw[abs] = data
	if kind, bin := sniffBinary(data); bin {
		s.binary[abs] = true
		if s.update[abs] {
			return nil, fmt.Errorf("%s is a binary file (%s, %d bytes); apply_patch cannot update it", rel, kind, len(data))
		}
		return data, nil
	}
	if !utf8.Valid(data) {
		s.legacy[abs] = true
		return []byte(decodeCP1252(data)), nil
	}
	return data, nil
}
