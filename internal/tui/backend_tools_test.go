package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// /tools lists what the model is offered now: one edit tool for this
// model (edit_file, not apply_patch), in aligned columns.
func TestToolsReportListsTheOfferedTools(t *testing.T) {
	b, _ := testBackend(t, llmtest.NewServer(t))
	out, err := b.Report(context.Background(), ReportTools)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Split(l, "\t"); len(f) != 3 || f[0] == "apply_patch" {
			t.Fatalf("not name, side effect, description (or apply_patch, which this model is not offered):\n%s", out)
		}
	}
	// Shown at 60 columns, the descriptions start in one column and wrap
	// under it.
	col := -1
	for _, l := range reportLines(out, 60) {
		i := strings.LastIndex(l, "  ") + 2
		if strings.HasPrefix(l, " ") { // a wrapped row: all indent
			i = len(l) - len(strings.TrimLeft(l, " "))
		}
		if col >= 0 && i != col {
			t.Fatalf("columns do not line up:\n%s", strings.Join(reportLines(out, 60), "\n"))
		}
		col = i
	}
	if !strings.Contains(out, "edit_file") || !strings.Contains(out, "web_fetch") {
		t.Fatalf("/tools:\n%s", out)
	}
}
