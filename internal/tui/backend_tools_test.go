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
	lines := strings.Split(out, "\n")
	col := -1
	for _, l := range lines {
		name, _, _ := strings.Cut(l, " ")
		if name == "apply_patch" {
			t.Fatalf("apply_patch is listed for a model that is not offered it:\n%s", out)
		}
		i := strings.Index(l, "  ") + 2
		for i < len(l) && l[i] == ' ' {
			i++
		}
		if col >= 0 && i != col {
			t.Fatalf("columns do not line up:\n%s", out)
		}
		col = i
	}
	if !strings.Contains(out, "edit_file") || !strings.Contains(out, "web_fetch") {
		t.Fatalf("/tools:\n%s", out)
	}
}
