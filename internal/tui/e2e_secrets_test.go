package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestEndToEndScreenShowsNoCorpusSecret: the real binary in tmux. The
// fake-secret corpus (internal/redact/testdata/secrets.txt) is read by
// the model's read_file and bash and by the user's own `!cat`; the pane's
// whole history holds the text around each secret and no secret.
func TestEndToEndScreenShowsNoCorpusSecret(t *testing.T) {
	bin := buildZero(t)
	corpus := testbin.SecretCorpus(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"secrets.txt"}`)),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"cat secrets.txt"}`)),
		llmtest.Reply(llmtest.Text("read the corpus twice")),
	)
	home, work := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "secrets.txt"), []byte(testbin.SecretText(corpus)), 0o644); err != nil {
		t.Fatal(err)
	}
	x, _ := startAppIn(t, bin, home, work, "--base-url", srv.URL(), "--model", "e2e-model", "--permission-mode", "auto-accept")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") })
	x.typeLine("!cat secrets.txt")
	x.waitFor("the shell output", func(l []string) bool { return contains(l, "EndpointSuffix=core.windows.net") })
	x.typeLine("read secrets.txt")
	x.waitFor("the final reply", func(l []string) bool { return contains(l, "read the corpus twice") && contains(l, "ask anything") })
	screen := strings.Join(x.screen(), "\n")
	if leaked := testbin.Leaks(corpus, screen); len(leaked) > 0 {
		t.Errorf("%d secrets on screen: %v\n%s", len(leaked), leaked, screen)
	}
	if !strings.Contains(screen, "[REDACTED:") {
		t.Errorf("no masked secret on screen:\n%s", screen)
	}
	x.exit()
}
