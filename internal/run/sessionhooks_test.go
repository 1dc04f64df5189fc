package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/permission"
)

// writeUserSettings writes ~/.config/zero/settings.json (Zero's own
// settings file in Claude Code's shape; a user file needs no trust).
func writeUserSettings(t *testing.T, body string) {
	t.Helper()
	p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "zero", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSessionHooksFireWhereTheyHappen(t *testing.T) {
	srv := llmtest.NewServer(t)
	home := isolate(t)
	mark := filepath.Join(home, "notified.json")
	writeUserSettings(t, `{"hooks": {
	  "SessionStart": [{"matcher": "startup", "hooks": [{"command": "echo 'this project indents with tabs'"}]}],
	  "UserPromptSubmit": [{"hooks": [{"command": "grep -q deploy || exit 0; echo 'no deploys from here' >&2; exit 2"}]}],
	  "Notification": [{"hooks": [{"command": "cat > `+mark+`"}]}],
	  "Stop": [{"hooks": [{"command": "grep -q '\"stop_hook_active\":true' && exit 0; echo '{\"decision\": \"block\", \"reason\": \"run the tests first\"}'"}]}]
	}}`)
	rt, _ := openIsolated(t, srv, Options{})
	sess := openSession(t, rt, Which{})

	res := sess.Prompt(context.Background(), Turn{Prompt: "deploy now"})
	if res.Err == nil || !strings.Contains(res.Err.Error(), "no deploys from here") || len(completions(srv)) != 0 {
		t.Fatalf("UserPromptSubmit did not block: %+v, %d requests", res, len(completions(srv)))
	}

	srv.Script(
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"a.txt","content":"x\n"}`)),
		llmtest.Reply(llmtest.Text("done")),
		llmtest.Reply(llmtest.Text("tests ran: ok")),
	)
	res = sess.Prompt(context.Background(), Turn{Prompt: "write a.txt", Ask: func(context.Context, permission.Request) permission.Decision {
		return permission.Decision{Choice: permission.AllowOnce}
	}})
	if res.Err != nil || res.Final != "tests ran: ok" {
		t.Fatalf("Prompt = %+v", res)
	}
	reqs := completions(srv)
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (the Stop hook sends the model back once)", len(reqs))
	}
	if first := string(reqs[0].Body); !strings.Contains(first, "SessionStart hook context") || !strings.Contains(first, "this project indents with tabs") {
		t.Errorf("SessionStart context is not in the first prompt")
	}
	if last := string(reqs[2].Body); !strings.Contains(last, "run the tests first") {
		t.Errorf("the Stop hook's reason did not reach the model")
	}
	b, err := os.ReadFile(mark)
	if err != nil || !strings.Contains(string(b), `"hook_event_name":"Notification"`) || !strings.Contains(string(b), "permission to use Write") {
		t.Errorf("Notification did not fire when Zero asked: %s %v", b, err)
	}
}

func completions(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			out = append(out, r)
		}
	}
	return out
}
