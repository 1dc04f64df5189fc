package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestMemoryReportListsTheInstructionFiles: /memory through the run
// layer lists each instruction file the session loaded, with its origin
// and importer.
func TestMemoryReportListsTheInstructionFiles(t *testing.T) {
	srv := llmtest.NewServer(t)
	testbin.Isolate(t)
	dir := run.CanonicalDir(t.TempDir())
	os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("See @style.md\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "style.md"), []byte("Tabs.\n"), 0o644)
	var stderr bytes.Buffer
	rt, err := run.Open(run.Options{Workdir: dir, Overrides: config.Overrides{BaseURL: srv.URL() + "/v1", Model: "m"}, Stderr: &stderr})
	if err != nil {
		t.Fatalf("runtime: %v (%s)", err, stderr.String())
	}
	t.Cleanup(rt.Close)
	sess, err := rt.OpenSession(run.Which{})
	if err != nil {
		t.Fatal(err)
	}
	b := NewRunBackend(rt, sess)
	t.Cleanup(b.Close)
	got, err := b.Report(context.Background(), ReportMemory)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"project  CLAUDE.md  13 bytes", "import   style.md  5 bytes  (imported by CLAUDE.md)"} {
		if !strings.Contains(got, want) {
			t.Fatalf("/memory lacks %q:\n%s", want, got)
		}
	}
}
