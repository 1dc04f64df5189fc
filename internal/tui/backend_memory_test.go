package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	b := testBackendIn(t, srv, dir)
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
