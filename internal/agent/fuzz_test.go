package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

// FuzzTextTurn feeds one assistant reply, split into stream chunks at an
// arbitrary point, through the loop with text tool calls on. Whatever the
// text, the loop must not panic, the run must end, and the history must
// satisfy the tool-call invariant (every recovered call, valid or not, has
// exactly one result), with ids unique.
func FuzzTextTurn(f *testing.F) {
	seeds := []string{
		"<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>",
		"<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>",
		"[TOOL_CALLS]read_file[ARGS]{\"path\": \"a.go\"}",
		"[TOOL_CALLS][{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}, {\"name\": \"read_file\", \"arguments\": {\"path\": \"b.go\"}}]",
		"Use `<tool_call>{\"name\": \"read_file\"}</tool_call>` for example.",
		"<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go",
		"```json\n{\"name\": \"read_file\", \"arguments\": {'path': 'a.go',}}\n```",
		"{\"name\": \"nope\", \"arguments\": {}}",
		"plain answer with </thi",
	}
	for i, s := range seeds {
		f.Add(s, i*7)
	}
	f.Fuzz(func(t *testing.T, reply string, cut int) {
		var first []llm.Event
		if len(reply) > 0 {
			k := cut % (len(reply) + 1)
			if k < 0 {
				k = -k
			}
			first = append(first, text(reply[:k]), text(reply[k:]))
		}
		p := &scripted{turns: [][]llm.Event{append(first, finish()), {text("ok"), finish()}, {text("ok"), finish()}}}
		a := New(Options{Provider: p, Model: "m", Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
		res := a.Run(context.Background(), "go")
		if res.StopReason != event.StopCompleted && res.StopReason != event.StopError && res.StopReason != event.StopStuck {
			t.Fatalf("stop %s: %v", res.StopReason, res.Err)
		}
		h := a.History()
		if _, log := contextmgr.Repair(h); len(log) > 0 {
			t.Fatalf("history broke the invariant: %v", log)
		}
		seen := map[string]bool{}
		for _, m := range h {
			for _, c := range m.ToolCalls() {
				if c.ID == "" || seen[c.ID] {
					t.Fatalf("call id %q empty or repeated", c.ID)
				}
				seen[c.ID] = true
			}
		}
	})
}

// FuzzIsVerifyCommand: any command line classifies without panicking, the
// same way twice, and quoting a verifying command as echo's data never
// verifies.
func FuzzIsVerifyCommand(f *testing.F) {
	for _, s := range []string{"go test ./...", "cd x && npm run test:unit | tail", "bash -c 'pytest -q'", "make", "echo 'go test'", "CI=1 cargo +nightly test", "python3 -m pytest", "(", "a='"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		got := isVerifyCommand(command)
		if isVerifyCommand(command) != got {
			t.Fatalf("%q: not deterministic", command)
		}
		if !strings.ContainsAny(command, "'\\\n\x00") && isVerifyCommand("echo '"+command+"'") {
			t.Fatalf("echo of %q verifies", command)
		}
	})
}
