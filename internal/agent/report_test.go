package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

// /context counts what every request carries besides the history: the
// system prompt and the schemas of the tools offered now, each on its own
// line, and the parts add up to the estimate of the next request.
func TestContextReportCountsSystemPromptAndToolSchemas(t *testing.T) {
	system := strings.Repeat("s", 4000)
	reg := tools.NewRegistry(echoTool("read_file", tools.SideRead), echoTool("bash", tools.SideShell))
	history := []llm.Message{llm.TextMessage(llm.RoleUser, strings.Repeat("u", 800)), llm.TextMessage(llm.RoleAssistant, strings.Repeat("a", 400))}
	a := New(Options{Model: "m", System: system, Tools: reg, History: history, ContextWindow: 10_000})

	r := a.ContextReport()
	schemas := 0
	for _, s := range reg.Specs(nil) {
		schemas += len(s.Name) + len(s.Description) + len(s.Parameters)
	}
	switch {
	case r.SystemBytes != len(system) || r.SystemTokens != 1000:
		t.Errorf("system prompt %d bytes ~%d tokens, want %d bytes 1000 tokens", r.SystemBytes, r.SystemTokens, len(system))
	case r.Tools != 2 || r.ToolsBytes < schemas || r.ToolsTokens != (r.ToolsBytes+3)/4:
		t.Errorf("tools %d, %d bytes ~%d tokens; want 2 schemas of at least %d bytes", r.Tools, r.ToolsBytes, r.ToolsTokens, schemas)
	case r.MessagesTokens < 300 || r.MessagesTokens > 320:
		t.Errorf("messages ~%d tokens, want the history's 1200 bytes and framing (~300)", r.MessagesTokens)
	case r.UsedTokens != r.SystemTokens+r.ToolsTokens+r.MessagesTokens:
		t.Errorf("used %d != system %d + tools %d + messages %d", r.UsedTokens, r.SystemTokens, r.ToolsTokens, r.MessagesTokens)
	case r.FreeTokens != 10_000-r.UsedTokens:
		t.Errorf("free %d, want %d", r.FreeTokens, 10_000-r.UsedTokens)
	}
	out := r.String()
	for _, line := range []string{"system prompt", "tool schemas (2)", "messages (2)", "free"} {
		if !strings.Contains(out, "\n  "+line+" ") {
			t.Errorf("no %q line in:\n%s", line, out)
		}
	}

	// Plan mode offers read-only tools only: the bash schema leaves the count.
	a.SetVisible(func(t tools.Tool) bool { return t.SideEffect() == tools.SideRead })
	if p := a.ContextReport(); p.Tools != 1 || p.ToolsBytes >= r.ToolsBytes || p.UsedTokens >= r.UsedTokens {
		t.Errorf("plan mode: %d tools, %d bytes, used %d; want 1 tool and less than %d bytes, %d tokens", p.Tools, p.ToolsBytes, p.UsedTokens, r.ToolsBytes, r.UsedTokens)
	}
}

// With the window unknown there is no free line and no share of it.
func TestContextReportUnknownWindow(t *testing.T) {
	a := New(Options{Model: "m", System: "be brief", Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	out := a.ContextReport().String()
	if !strings.Contains(out, "window size unknown") || strings.Contains(out, "\n  free") || strings.Contains(out, "%") {
		t.Errorf("report with an unknown window:\n%s", out)
	}
	if !strings.Contains(out, "\n  system prompt ") || !strings.Contains(out, "\n  tool schemas (1) ") {
		t.Errorf("system prompt or tools missing:\n%s", out)
	}
}

// Before any server count every token figure is an estimate at the
// default ratio, and /context says so; a server that counts tokens but
// reports no cache hits is shown as such, not as a 0% hit rate.
func TestContextReportSaysWhatIsEstimated(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{{text("hi"), usage(500, 3), finish()}}}
	a := New(Options{Provider: p, Model: "m", System: "be brief", ContextWindow: 8192})
	out := a.ContextReport().String()
	if !strings.Contains(out, "estimated: every figure marked ~, at 4.0 bytes/token (the default, not yet matched to a server count)") ||
		strings.Contains(out, "measured by the server") || strings.Contains(out, "prompt cache") {
		t.Errorf("report before any request:\n%s", out)
	}
	if res := a.Run(context.Background(), "hello"); res.StopReason != event.StopCompleted {
		t.Fatalf("run %+v", res)
	}
	out = a.ContextReport().String()
	for _, w := range []string{
		"measured by the server: last request 500 prompt tokens, 3 output tokens\n",
		"(as the server counted the last request)\n",
		"prompt cache: the server reported no cached prompt tokens in 1 request\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("report lacks %q:\n%s", w, out)
		}
	}
}
