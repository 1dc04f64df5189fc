package agent

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/tools"
)

// A prompt the server's tokenizer counted at session start sets the ratio
// before any request: the fixed part then estimates at the counted figure
// (give or take the one-byte turn), and /context says it was counted.
func TestCountedFixedPromptCalibratesBeforeTheFirstRequest(t *testing.T) {
	reg := tools.NewRegistry(echoTool("read_file", tools.SideRead), echoTool("bash", tools.SideShell))
	a := New(Options{Model: "m", System: strings.Repeat("word ", 800), Tools: reg, ContextWindow: 8192})
	before := a.ContextReport()
	req := a.FixedRequest()
	if req.System == "" || len(req.Tools) != 2 || len(req.Messages) != 1 {
		t.Fatalf("fixed request %+v", req)
	}
	a.MeasureFixed(req, 2000) // the server counts more than bytes/4 says
	r := a.ContextReport()
	if got := r.SystemTokens + r.ToolsTokens; got < 1990 || got > 2000 || got <= before.SystemTokens+before.ToolsTokens {
		t.Fatalf("fixed part now ~%d tokens (before ~%d), want the counted 2000", got, before.SystemTokens+before.ToolsTokens)
	}
	out := r.String()
	if !strings.Contains(out, "counted by the server's tokenizer: system prompt and tool schemas 2000 tokens") ||
		!strings.Contains(out, "as the server's tokenizer counted the system prompt and tools") {
		t.Fatalf("report:\n%s", out)
	}
}
