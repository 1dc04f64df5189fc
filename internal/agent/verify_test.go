package agent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

// TestTestsPassClaimNeedsATestCommand: a "tests pass" claim needs a test or
// build command that exited 0 in this run; `ls` exiting 0 is not enough.
func TestTestsPassClaimNeedsATestCommand(t *testing.T) {
	tests := []struct {
		name    string
		command string
		exit    int
		nudged  bool
	}{
		{"ls", "ls -la", 0, true},
		{"cat then echo", "cat go.mod && echo ok", 0, true},
		{"go test", "go test ./...", 0, false},
		{"cd and go test", "cd sub && go test -run TestX ./...", 0, false},
		{"failing go test", "go test ./...", 1, true},
		{"pytest", "python3 -m pytest -q", 0, false},
		{"npm test behind env", "CI=1 npm test", 0, false},
		{"cargo build", "cargo build --release", 0, false},
		{"make check", "make -j4 check", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			args, _ := json.Marshal(map[string]string{"command": tc.command})
			srv.Script(
				llmtest.Reply(llmtest.ToolCall("bash", string(args)).WithID("b1")),
				llmtest.Reply(llmtest.Text("Fixed it; all tests pass.")),
				llmtest.Reply(llmtest.Text("Ran the tests: they pass.")))
			exit := tc.exit
			bash := &fakeTool{name: "bash", side: tools.SideShell, run: func(context.Context, json.RawMessage) (tools.Result, error) {
				return tools.Result{Content: "output", ExitCode: &exit}, nil
			}}
			allow := GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(bash), Gate: allow, CompletionCheck: true, RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "fix it")
			if res.StopReason != event.StopCompleted {
				t.Fatalf("run %+v", res)
			}
			reqs := srv.Requests()
			if nudged := len(reqs) == 3; nudged != tc.nudged {
				t.Fatalf("nudged %v (%d requests), want %v", nudged, len(reqs), tc.nudged)
			}
			if tc.nudged {
				msgs := wireMessages(t, reqs[2])
				if c, _ := msgs[len(msgs)-1]["content"].(string); c != unverifiedNudge {
					t.Fatalf("last message %q", c)
				}
			}
		})
	}
}

func TestIsVerifyCommand(t *testing.T) {
	tests := []struct {
		command string
		want    bool
	}{
		{"go test ./...", true},
		{"go build ./cmd/zero", true},
		{"go vet ./...", true},
		{"go run .", false},
		{"pytest -x tests/", true},
		{"python -m pytest", true},
		{"python3.12 -m unittest discover", true},
		{"python script.py", false},
		{"npm test", true},
		{"npm run test:unit", true},
		{"npm run dev", false},
		{"npm install", false},
		{"pnpm test", true},
		{"yarn test", true},
		{"npx jest src", true},
		{"npx vitest run", true},
		{"npx prettier --write .", false},
		{"cargo test", true},
		{"cargo +nightly build", true},
		{"cargo fmt", false},
		{"make test", true},
		{"make", true},
		{"make clean", false},
		{"mvn -q test", true},
		{"./gradlew test", true},
		{"ctest --output-on-failure", true},
		{"dotnet test", true},
		{"bun test", true},
		{"deno test -A", true},
		{"ls -la", false},
		{"echo go test", false},
		{"grep -r 'go test' .", false},
		{"cd x && go test ./... | tail -20", true},
		{"timeout 60 go test ./...", true},
		{"bash -c 'pytest -q'", true},
		{"", false},
	}
	for _, tc := range tests {
		if got := isVerifyCommand(tc.command); got != tc.want {
			t.Errorf("isVerifyCommand(%q) = %v, want %v", tc.command, got, tc.want)
		}
	}
}
