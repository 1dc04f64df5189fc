package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// /context says how much of the system prompt is instruction files, and
// of what budget.
func TestContextShowsTheInstructionBudget(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	dir := CanonicalDir(t.TempDir())
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(strings.Repeat("Run go test before you answer.\n", 40)), 0o644)
	rt, _ := openIsolated(t, srv, Options{Workdir: dir})
	s := openSession(t, rt, Which{})
	out := s.ContextReport().String()
	if !strings.Contains(out, "of which instruction files 1.2 KB of their 16.0 KB budget") {
		t.Fatalf("/context:\n%s", out)
	}
}
