package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

func TestToolHookContextAndReasonsReachTheModelAndTheLog(t *testing.T) {
	dir := t.TempDir()
	c, _, err := hooks.Parse([]byte(`{"hooks": {
	  "PreToolUse": [{"matcher": "Read", "hooks": [{"command": "echo '{\"hookSpecificOutput\": {\"additionalContext\": \"a.go is generated\"}, \"systemMessage\": \"checked\"}'"}]}],
	  "PostToolUse": [{"matcher": "Read", "hooks": [{"command": "cat > post.json; echo 'do not edit it' >&2; exit 2"}]}]}}`), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	var evs []event.Event
	h := &HookRunner{runner: &hooks.Runner{Config: c, Dir: dir}, audit: event.SinkFunc(func(e event.Event) { evs = append(evs, e) }), sessID: "s1"}
	call := llm.ToolCall{ID: "call_7", Name: "read_file", Arguments: `{"path":"a.go"}`}
	if v := h.PreToolUse(context.Background(), call); v.Decision != "" {
		t.Fatalf("PreToolUse = %+v", v)
	}
	note := h.PostTool(context.Background(), "read_file", json.RawMessage(call.Arguments), tools.Result{Content: "package a"})
	if !strings.Contains(note, "[PreToolUse hook context] a.go is generated") || !strings.Contains(note, "[PostToolUse hook] do not edit it") {
		t.Errorf("note for the model = %q", note)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "post.json"))
	var post map[string]any
	json.Unmarshal(b, &post)
	if post["tool_use_id"] != "call_7" || post["tool_name"] != "Read" || post["tool_response"].(map[string]any)["output"] != "package a" {
		t.Errorf("PostToolUse stdin = %s", b)
	}
	var decisions, warnings []string
	for _, e := range evs {
		switch e.Type {
		case event.Hook:
			decisions = append(decisions, e.HookRun.Event+":"+e.HookRun.Decision+":"+e.HookRun.Matcher)
		case event.Warning:
			warnings = append(warnings, e.Text)
		}
	}
	if strings.Join(decisions, " ") != "PreToolUse:context:Read PostToolUse:block:Read" || len(warnings) != 1 || !strings.Contains(warnings[0], "checked") {
		t.Errorf("audit: hooks %q, warnings %q", decisions, warnings)
	}
}

func TestToolHookContinueFalseHaltsTheRunOnce(t *testing.T) {
	c, _, err := hooks.Parse([]byte(`{"hooks": {"PostToolUse": [{"hooks": [{"command": "echo '{\"continue\": false, \"stopReason\": \"budget spent\"}'"}]}]}}`), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	h := &HookRunner{runner: &hooks.Runner{Config: c, Dir: t.TempDir()}}
	if h.Halted() != "" {
		t.Fatal("halted before any hook ran")
	}
	h.PostTool(context.Background(), "bash", json.RawMessage(`{"command":"ls"}`), tools.Result{Content: "a"})
	if why := h.Halted(); !strings.Contains(why, "PostToolUse hook stopped the run: budget spent") {
		t.Errorf("Halted = %q", why)
	}
	if h.Halted() != "" {
		t.Error("Halted answers twice")
	}
}

func TestAFailingHookIsSaidOnceNotSilently(t *testing.T) {
	c, _, err := hooks.Parse([]byte(`{"hooks": {"PreToolUse": [{"hooks": [{"command": "./missing-check.sh"}]}]}}`), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	h := &HookRunner{runner: &hooks.Runner{Config: c, Dir: t.TempDir()}, audit: event.SinkFunc(func(e event.Event) {
		if e.Type == event.Warning {
			warnings = append(warnings, e.Text)
		}
	})}
	for i := 0; i < 2; i++ {
		if v := h.PreToolUse(context.Background(), llm.ToolCall{Name: "bash", Arguments: `{"command":"ls"}`}); v.Decision != "" {
			t.Fatalf("a failing hook without onError decided %+v", v)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "command not found") || !strings.Contains(warnings[0], "onError") {
		t.Errorf("warnings = %q, want one naming the failure", warnings)
	}
}
