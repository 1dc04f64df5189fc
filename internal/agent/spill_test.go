package agent

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/redact"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// A huge shell output through the real bash tool: the model gets a result
// within the cap, and the spill file its marker names holds every byte of
// the output, not the 1 MiB bash keeps in memory.
func TestSpillFileHoldsTheWholeHugeOutput(t *testing.T) {
	root, sess := t.TempDir(), t.TempDir()
	ws, err := workspace.New(root, sess)
	must(t, err)
	defer ws.Close()
	p := &scripted{turns: [][]llm.Event{turn(call(0, "b1", "bash", `{"command":"seq 1 1500000"}`)), {text("ok"), finish()}}}
	a := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(tools.Core(ws, tools.Options{})...), SessionDir: sess,
		Gate: GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })})
	if res := a.Run(context.Background(), "count"); res.StopReason != event.StopCompleted {
		t.Fatalf("run: %+v", res)
	}
	var want strings.Builder
	for i := 1; i <= 1_500_000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	sent := results(p)["b1"].Content
	if len(sent) > contextmgr.DefaultMaxToolOutput {
		t.Fatalf("sent %d bytes, cap %d", len(sent), contextmgr.DefaultMaxToolOutput)
	}
	m := regexp.MustCompile(`\[\.\.\. (\d+) bytes omitted; full output in (\S+), read it with read_file`).FindStringSubmatch(sent)
	if m == nil || m[2] != contextmgr.SpillPath(sess, "b1") {
		t.Fatalf("marker names no spill file in the session: %q", sent)
	}
	if omitted, _ := strconv.Atoi(m[1]); omitted < want.Len()-len(sent) || omitted > want.Len() {
		t.Errorf("marker says %d bytes omitted of %d", omitted, want.Len())
	}
	got, err := os.ReadFile(m[2])
	if err != nil || string(got) != want.String() {
		t.Fatalf("spill file holds %d bytes (%v), want the whole %d-byte output", len(got), err, want.Len())
	}
}

// Without a session directory there is nowhere to keep the output: bash
// writes no file and the marker only counts.
func TestNoSessionDirNoFullOutputFile(t *testing.T) {
	root := t.TempDir()
	ws, err := workspace.New(root)
	must(t, err)
	defer ws.Close()
	p := &scripted{turns: [][]llm.Event{turn(call(0, "b1", "bash", `{"command":"seq 1 300000"}`)), {text("ok"), finish()}}}
	a := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(tools.Core(ws, tools.Options{})...),
		Gate: GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })})
	a.Run(context.Background(), "count")
	sent := results(p)["b1"].Content
	if strings.Contains(sent, "full output in") || !strings.Contains(sent, "bytes omitted ...]") {
		t.Fatalf("result without a session dir: %q", sent)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Fatalf("files appeared in the workspace: %v", entries)
	}
}

// The spill file is redacted like what the model sees: a secret at the end
// of a huge output is masked in the file too (tools.Filtered, as the run
// layer wraps every tool).
func TestSpillFileOfAHugeOutputIsRedacted(t *testing.T) {
	root, sess := t.TempDir(), t.TempDir()
	ws, err := workspace.New(root, sess)
	must(t, err)
	defer ws.Close()
	secret := "ghp_" + strings.Repeat("Zx9Yw8", 6)
	mask := func(s string) string { out, _ := redact.String(s); return out }
	reg := tools.NewRegistry()
	for _, tl := range tools.Core(ws, tools.Options{}) {
		reg.Add(tools.Filtered(tl, mask))
	}
	p := &scripted{turns: [][]llm.Event{turn(call(0, "b1", "bash", `{"command":"seq 1 300000; echo token `+secret+`"}`)), {text("ok"), finish()}}}
	a := New(Options{Provider: p, Model: "m", Tools: reg, SessionDir: sess,
		Gate: GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })})
	a.Run(context.Background(), "count")
	got, err := os.ReadFile(contextmgr.SpillPath(sess, "b1"))
	if err != nil || len(got) < 1_900_000 {
		t.Fatalf("spill file: %d bytes, %v", len(got), err)
	}
	if strings.Contains(string(got), secret) || !strings.HasSuffix(string(got), "token "+redact.Mask("github-token")+"\n") {
		t.Fatalf("spill file not redacted: ends %q", got[len(got)-80:])
	}
	if strings.Contains(results(p)["b1"].Content, secret) {
		t.Fatal("secret sent to the model")
	}
}

// A user's `!cmd` output is capped by the same rule as a tool result and
// spilled whole; one that fits is unchanged.
func TestCapOutputFitsUserShellOutputLikeAToolResult(t *testing.T) {
	sess := t.TempDir()
	a := New(Options{Model: "m", SessionDir: sess, ContextWindow: 128 * 1024})
	big := strings.Repeat("0123456789abcdef\n", 4000) // 68 KB
	kept, err := a.CapOutput("user_shell_1", big)
	if err != nil || len(kept) > contextmgr.MaxScaledToolOutput || len(kept) < contextmgr.MaxScaledToolOutput*3/4 {
		t.Fatalf("kept %d bytes (%v), want the 128K window's %d-byte cap", len(kept), err, contextmgr.MaxScaledToolOutput)
	}
	path := contextmgr.SpillPath(sess, "user_shell_1")
	if b, _ := os.ReadFile(path); string(b) != big || !strings.Contains(kept, "full output in "+path) {
		t.Fatalf("spill %s not named or incomplete", path)
	}
	if kept, _ := a.CapOutput("user_shell_2", "ok\n"); kept != "ok\n" {
		t.Errorf("small output changed: %q", kept)
	}
}
