package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// A secret in a file the model reads never reaches the model, the screen
// or the session log.
func TestSecretsAreRedactedEverywhere(t *testing.T) {
	dir := t.TempDir()
	secret := "sk-proj-" + strings.Repeat("Ab3dE", 8)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("deploy key: "+secret+"\n"), 0o644)
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(tc("r1", "read_file", `{"path":"notes.txt"}`)), llmtest.Reply(llmtest.Text("done")))
	r := e.run(dir, "", "exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "read notes.txt")
	if r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, secret) || strings.Contains(r.stderr, secret) {
		t.Fatal("secret shown on screen")
	}
	for _, req := range srv.Requests() {
		if strings.Contains(string(req.Body), secret) {
			t.Fatal("secret sent to the model")
		}
	}
	logs, _ := filepath.Glob(filepath.Join(e.sessionDir, "*", "events.jsonl"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		if strings.Contains(string(b), secret) {
			t.Fatal("secret written to the session log")
		}
	}
	if !strings.Contains(r.stdout, "deploy key:") {
		t.Fatalf("the rest of the file should still be there: %s", r.stdout)
	}
}
