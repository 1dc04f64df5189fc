package permission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// TestPatchPreviewShowsEveryFileWithoutWriting: the prompt for an
// apply_patch call shows the diff of every file it touches, computed by a
// dry run (nothing is written), equal to the diff the tool reports once
// approved.
func TestPatchPreviewShowsEveryFileWithoutWriting(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte(numbered(40, "\r\n")), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("old\n"), 0o644)
	ws, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n row 29\n-row 30\n+ROW THIRTY\n row 31\n*** Update File: b.txt\n*** Move to: c.txt\n@@\n-old\n+new\n*** Add File: d/e.txt\n+fresh\n*** End Patch"
	args, _ := json.Marshal(map[string]string{"patch": patch})
	p := Preview(ws, llm.ToolCall{Name: "apply_patch", Arguments: string(args)})
	if p.Note != "" {
		t.Fatalf("note %q", p.Note)
	}
	if p.Path != "a.txt, b.txt, c.txt, d/e.txt" {
		t.Errorf("path %q", p.Path)
	}
	for _, w := range []string{"--- a/a.txt\n+++ b/a.txt\n@@ -27,7 +27,7 @@", "-row 30\n+ROW THIRTY", "--- a/b.txt\n+++ b/c.txt", "+new", "--- /dev/null\n+++ b/d/e.txt", "+fresh"} {
		if !strings.Contains(p.Diff, w) {
			t.Errorf("diff lacks %q:\n%s", w, p.Diff)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "old\n" {
		t.Errorf("preview wrote b.txt: %q", b)
	}
	for _, f := range []string{"c.txt", "d"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("preview created %s", f)
		}
	}

	res, err := tools.NewApplyPatch(ws).Run(context.Background(), args)
	if err != nil || res.IsError {
		t.Fatalf("apply_patch: %v %q", err, res.Content)
	}
	if res.Diff != p.Diff {
		t.Errorf("preview diff differs from the tool's:\npreview:\n%s\ntool:\n%s", p.Diff, res.Diff)
	}
}

// TestPatchPreviewOfAPatchThatWouldNotApply shows the patch as written and
// says why it would fail.
func TestPatchPreviewOfAPatchThatWouldNotApply(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	ws, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-zzz\n+y\n*** End Patch"
	args, _ := json.Marshal(map[string]string{"input": patch})
	p := Preview(ws, llm.ToolCall{Name: "apply_patch", Arguments: string(args)})
	if p.Diff != patch {
		t.Errorf("diff %q, want the patch", p.Diff)
	}
	if !strings.Contains(p.Note, "preview: would not apply (*** Update File: a.txt, hunk 1") || !strings.Contains(p.Note, "diff shows the patch as written") {
		t.Errorf("note %q", p.Note)
	}
}
