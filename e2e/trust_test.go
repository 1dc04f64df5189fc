package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestDeletedZeroDirIsReportedOnce: deleting a trusted project's .zero/
// is said once, naming what disappeared, and the folder stays trusted; a
// pinned file of another tool appearing (.mcp.json) withdraws trust and is
// named by `zero trust list`.
func TestDeletedZeroDirIsReportedOnce(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(dir, ".zero"), 0o755)
	os.WriteFile(filepath.Join(dir, ".zero", "rules.json"), []byte(`{"rules": []}`), 0o644)
	os.WriteFile(filepath.Join(dir, ".zero", "hooks.json"), []byte(`{}`), 0o644)
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	if r := e.run(dir, "", "trust"); r.code != 0 {
		t.Fatalf("zero trust: %d %s", r.code, r.stderr)
	}
	exec := func() result {
		t.Helper()
		srv.Script(llmtest.Reply(llmtest.Text("ok")))
		r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "m", "hi")
		if r.code != 0 {
			t.Fatalf("exec: %d %s", r.code, r.stderr)
		}
		return r
	}
	if r := exec(); strings.Contains(r.stderr, "trust") {
		t.Fatalf("a trusted, unchanged folder: %s", r.stderr)
	}
	os.RemoveAll(filepath.Join(dir, ".zero"))
	r := exec()
	if n := strings.Count(r.stderr, "removed since you trusted this folder: .zero/rules.json, .zero/hooks.json"); n != 1 {
		t.Fatalf("first run after rm -r .zero: want the removal named once:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "changed since") {
		t.Fatalf("a removal withdrew trust:\n%s", r.stderr)
	}
	if r := exec(); strings.Contains(r.stderr, "removed") || strings.Contains(r.stderr, "trust") {
		t.Fatalf("second run still warns:\n%s", r.stderr)
	}
	if l := e.run(dir, "", "trust", "list"); l.code != 0 || !strings.Contains(l.stdout, dir+"\t") || !strings.Contains(l.stdout, "\ttrusted") {
		t.Fatalf("zero trust list: %d %q", l.code, l.stdout)
	}

	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"x": {"command": "x"}}}`), 0o644)
	if r := exec(); !strings.Contains(r.stderr, ".mcp.json changed since you trusted this folder") {
		t.Fatalf("a new .mcp.json after trust is not flagged:\n%s", r.stderr)
	}
	if l := e.run(dir, "", "trust", "list"); !strings.Contains(l.stdout, "changed since trusted: .mcp.json") {
		t.Fatalf("zero trust list: %q", l.stdout)
	}
}

// TestTrustListAndRemove: `zero trust list` shows every trusted folder
// (a deleted one as missing); `zero trust remove [PATH]` forgets one, even
// a folder that no longer exists, and says when PATH was not trusted.
func TestTrustListAndRemove(t *testing.T) {
	e := newEnv(t)
	if l := e.run(t.TempDir(), "", "trust", "list"); l.code != 0 || !strings.Contains(l.stdout, "no trusted folders") {
		t.Fatalf("empty list: %d %q", l.code, l.stdout)
	}
	here, _ := filepath.EvalSymlinks(t.TempDir())
	gone, _ := filepath.EvalSymlinks(t.TempDir())
	for _, d := range []string{here, gone} {
		if r := e.run(d, "", "trust"); r.code != 0 {
			t.Fatalf("zero trust: %d %s", r.code, r.stderr)
		}
	}
	os.RemoveAll(gone)
	l := e.run(here, "", "trust", "list")
	if l.code != 0 || !strings.Contains(l.stdout, here+"\t") || !strings.Contains(l.stdout, gone+"\t") || !strings.Contains(l.stdout, "folder missing") {
		t.Fatalf("zero trust list: %d %q", l.code, l.stdout)
	}
	if r := e.run(here, "", "trust", "remove", gone); r.code != 0 || !strings.Contains(r.stdout, "no longer trusted: "+gone) {
		t.Fatalf("remove a deleted folder: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(here, "", "trust", "remove"); r.code != 0 || !strings.Contains(r.stdout, "no longer trusted: "+here) {
		t.Fatalf("remove the current folder: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(here, "", "trust", "remove"); r.code != 2 || !strings.Contains(r.stderr, "is not trusted") {
		t.Fatalf("remove again: %d %q %s", r.code, r.stdout, r.stderr)
	}
	if l := e.run(here, "", "trust", "list"); !strings.Contains(l.stdout, "no trusted folders") {
		t.Fatalf("after removing both: %q", l.stdout)
	}
}
