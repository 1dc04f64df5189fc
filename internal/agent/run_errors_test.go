package agent

import (
	"fmt"

	"context"
	"encoding/json"
	"github.com/zero-agent/zero/internal/contextmgr"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

// objectGate allows a call only when its arguments parse as a JSON object,
// as the sandbox engine does before it matches a command.
func objectGate(seen *[]string) Gate {
	return GateFunc(func(_ context.Context, c llm.ToolCall, _ tools.Tool) Decision {
		*seen = append(*seen, c.Arguments)
		var v map[string]any
		if json.Unmarshal([]byte(c.Arguments), &v) != nil {
			return Decision{Reason: "the arguments are not a JSON object"}
		}
		return Decision{Allow: true}
	})
}

// TestRepairedArgumentsReachGateAndTool: native arguments repaired by
// textcalls.RepairArguments reach the gate and the tool repaired; the
// history keeps what the model sent.
func TestRepairedArgumentsReachGateAndTool(t *testing.T) {
	tests := []struct {
		name, raw string
	}{
		{"trailing comma", `{"command": "ls",}`},
		{"single quotes", `{'command': 'ls'}`},
		{"unquoted key", `{command: "ls"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(llmtest.Reply(llmtest.ToolCall("bash", tc.raw).WithID("c1")), llmtest.Reply(llmtest.Text("listed")))
			var got []string
			bash := &fakeTool{name: "bash", side: tools.SideShell, run: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
				got = append(got, string(args))
				return tools.Result{Content: "a.go"}, nil
			}}
			var gated []string
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(bash), Gate: objectGate(&gated), RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "list")
			if res.StopReason != event.StopCompleted {
				t.Fatalf("run %+v", res)
			}
			var v map[string]any
			if len(gated) != 1 || json.Unmarshal([]byte(gated[0]), &v) != nil || v["command"] != "ls" {
				t.Fatalf("gate saw %q", gated)
			}
			if len(got) != 1 || json.Unmarshal([]byte(got[0]), &v) != nil || v["command"] != "ls" {
				t.Fatalf("tool got %q", got)
			}
			msgs := wireMessages(t, srv.Requests()[1])
			for _, m := range msgs {
				if m["role"] == "tool" && strings.Contains(m["content"].(string), "permission denied") {
					t.Fatalf("denied: %v", m)
				}
			}
			hist := a.History()
			if calls := hist[1].ToolCalls(); len(calls) != 1 || calls[0].Arguments != tc.raw {
				t.Fatalf("history call %+v, want raw %q", calls, tc.raw)
			}
		})
	}
}

// TestCutOffReplyIsNotAnAnswer: a reply cut off by the output-token limit
// (finish_reason "length") is not a final answer. Without tool calls it is
// answered with a nudge, at most twice per run; a third one stops the run;
// the final answer is the cut parts and the continuation together. A cut
// tool call with invalid arguments gets an error naming the limit.
func TestCutOffReplyIsNotAnAnswer(t *testing.T) {
	cut := func(s string) llmtest.Turn { return llmtest.Reply(llmtest.Text(s), llmtest.Finish("length")) }
	done := llmtest.Reply(llmtest.Text("all done"))
	tests := []struct {
		name     string
		script   []llmtest.Turn
		stop     event.StopReason
		final    string
		requests int
		nudges   int // cut nudges in the last request
	}{
		{"one cut, then an answer", []llmtest.Turn{cut("The plan is "), done}, event.StopCompleted, "The plan is all done", 2, 1},
		{"two cuts, then an answer", []llmtest.Turn{cut("The plan is "), cut("first, "), done}, event.StopCompleted, "The plan is first, all done", 3, 2},
		{"cut, a tool call, then an answer", []llmtest.Turn{cut("The plan is "), llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.go"}`)), done}, event.StopCompleted, "all done", 3, 1},
		{"three cuts: stop", []llmtest.Turn{cut("The plan is"), cut("first"), cut("then"), done}, event.StopError, "", 3, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(tc.script...)
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "plan it")
			if res.StopReason != tc.stop || res.Final != tc.final {
				t.Fatalf("stop %s final %q err %v, want %s %q", res.StopReason, res.Final, res.Err, tc.stop, tc.final)
			}
			if tc.stop == event.StopError && (res.Err == nil || !strings.Contains(res.Err.Error(), "keep hitting the output limit")) {
				t.Fatalf("err %v", res.Err)
			}
			reqs := srv.Requests()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tc.requests)
			}
			nudges := 0
			for _, m := range wireMessages(t, reqs[len(reqs)-1]) {
				if c, _ := m["content"].(string); m["role"] == "user" && c == cutNudge {
					nudges++
				}
			}
			if nudges != tc.nudges {
				t.Fatalf("last request carries %d cut nudges, want %d", nudges, tc.nudges)
			}
			if w := rec.texts(event.Warning); !strings.Contains(w, "output token limit") {
				t.Fatalf("no warning: %q", w)
			}
		})
	}
}

// TestCutOffToolCallSaysWhy: a tool call cut off mid-arguments by the
// output limit is not repaired or run; its error result says the limit cut
// it off.
func TestCutOffToolCallSaysWhy(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"a.go","content":"package a\n\nfunc`).WithID("w1"), llmtest.Finish("length")),
		llmtest.Reply(llmtest.Text("I will write it in parts.")))
	ran := 0
	write := &fakeTool{name: "write_file", side: tools.SideWrite, run: func(context.Context, json.RawMessage) (tools.Result, error) {
		ran++
		return tools.Result{Content: "written"}, nil
	}}
	allow := GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} })
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(write), Gate: allow, RetryBase: time.Millisecond})
	res := a.Run(context.Background(), "write a.go")
	if res.StopReason != event.StopCompleted || ran != 0 {
		t.Fatalf("stop %s ran %d err %v", res.StopReason, ran, res.Err)
	}
	var got string
	for _, m := range wireMessages(t, srv.Requests()[1]) {
		if m["role"] == "tool" {
			got, _ = m["content"].(string)
		}
	}
	if !strings.Contains(got, "cut off by the output token limit") || !strings.Contains(got, "write the file in parts") {
		t.Fatalf("result %q", got)
	}
}

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

// TestCompactionKeepsTheUsersTask: a summary that leaves out the user's
// task does not lose it: the run's prompt (and the most recent user
// message) are kept verbatim right after the summary, both by /compact and
// by a compaction inside a run.
func TestCompactionKeepsTheUsersTask(t *testing.T) {
	const task = "TASK-7: rename Foo to Bar in every file under pkg/, keep the tests green."
	note := strings.Repeat("notes on what I read. ", 20)
	bulky := &fakeTool{name: "read_file", side: tools.SideRead, run: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
		return tools.Result{Content: strings.Repeat("func Foo() {} // "+string(args)+"\n", 20)}, nil
	}}
	script := func(n int) []llmtest.Turn {
		var turns []llmtest.Turn
		for i := 0; i < n; i++ {
			turns = append(turns, llmtest.Reply(llmtest.Text(note), llmtest.ToolCall("read_file", fmt.Sprintf(`{"path":"f%d.go"}`, i))))
		}
		return append(turns, llmtest.Reply(llmtest.Text("Renamed.")))
	}
	pinned := summaryText("Some files were read.") + "\n\n" + contextmgr.PinnedLabel + "\n\n" + task
	t.Run("manual compact after the run", func(t *testing.T) {
		s := newSmallServer(t, 1<<20)
		s.main.Script(script(10)...)
		s.sum.Script(llmtest.Reply(llmtest.Text("Some files were read.")))
		rec := &recorder{}
		a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, Tools: tools.NewRegistry(bulky), RetryBase: time.Millisecond})
		if res := a.Run(context.Background(), task); res.StopReason != event.StopCompleted {
			t.Fatalf("run %+v", res)
		}
		if _, err := a.Compact(context.Background()); err != nil {
			t.Fatal(err)
		}
		h := a.History()
		if h[0].Text() != pinned {
			t.Fatalf("compacted head %q, want %q", h[0].Text(), pinned)
		}
		if strings.Contains(rec.texts(event.Warning), "merged two consecutive user messages") {
			t.Fatalf("repair warned: %s", rec.texts(event.Warning))
		}
	})
	t.Run("resumed session: first and latest user message", func(t *testing.T) {
		s := newSmallServer(t, 1<<20)
		s.sum.Script(llmtest.Reply(llmtest.Text("Some files were read.")))
		hist := []llm.Message{llm.TextMessage(llm.RoleUser, task)}
		for i := 0; i < 12; i++ {
			user := emptyTurnNudge
			if i == 6 {
				user = "Also rename Baz to Qux."
			}
			hist = append(hist, llm.TextMessage(llm.RoleAssistant, note), llm.TextMessage(llm.RoleUser, user))
		}
		hist = append(hist, llm.TextMessage(llm.RoleAssistant, note))
		a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", History: hist, Tools: tools.NewRegistry(bulky)})
		a.nudges = map[string]bool{emptyTurnNudge: true}
		if _, err := a.Compact(context.Background()); err != nil {
			t.Fatal(err)
		}
		want := pinned + "\n\n" + contextmgr.PinnedLabel + "\n\nAlso rename Baz to Qux."
		// The kept suffix may open with a user message, which Repair
		// merges into the summary message after the pins.
		if h := a.History(); !strings.HasPrefix(h[0].Text(), want) || strings.Count(h[0].Text(), contextmgr.PinnedLabel) != 2 {
			t.Fatalf("compacted head %q, want %q", h[0].Text(), want)
		}
	})
	t.Run("compaction inside the run", func(t *testing.T) {
		s := newSmallServer(t, 1<<20)
		s.main.Script(script(14)...)
		s.sum.Script(llmtest.Reply(llmtest.Text("Some files were read.")), llmtest.Reply(llmtest.Text("More files were read.")))
		a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Tools: tools.NewRegistry(bulky), ContextWindow: 4000, RetryBase: time.Millisecond})
		if res := a.Run(context.Background(), task); res.StopReason != event.StopCompleted {
			t.Fatalf("run %+v", res)
		}
		if len(s.sum.Requests()) == 0 {
			t.Fatal("no compaction happened")
		}
		// Every request after the first summary still carries the task.
		reqs := s.main.Requests()
		for i, r := range reqs {
			if !strings.Contains(string(r.Body), strings.TrimSuffix(task, ".")) {
				t.Fatalf("request %d of %d lost the task", i, len(reqs))
			}
		}
	})
}

// summaryText is the text of a summary message with no pins.
func summaryText(s string) string { return contextmgr.SummaryPrefix + s + "]" }

// TestRetryAfterIsCapped: a Retry-After over maxRetryWait stops the run
// with a provider error naming the wait; a shorter one is waited exactly,
// without jitter on top.
func TestRetryAfterIsCapped(t *testing.T) {
	limited := func(header, value string) llmtest.Turn {
		return llmtest.Reply(llmtest.Error(429, `{"error":{"message":"Rate limit reached","type":"rate_limit"}}`).WithHeader(header, value))
	}
	tests := []struct {
		name     string
		header   string
		value    string
		stop     event.StopReason
		requests int
		errHas   string
		waited   string // the wait the warning names
	}{
		{"an hour", "Retry-After", "3600", event.StopProviderError, 1, "asked to wait 1h0m0s", ""},
		{"61 seconds", "Retry-After", "61", event.StopProviderError, 1, "asked to wait 1m1s", ""},
		{"30 ms, exactly", "retry-after-ms", "30", event.StopCompleted, 2, "", "retrying in 30ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(limited(tc.header, tc.value), llmtest.Reply(llmtest.Text("hello")))
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "hi")
			if res.StopReason != tc.stop || len(srv.Requests()) != tc.requests {
				t.Fatalf("stop %s after %d requests (err %v), want %s after %d", res.StopReason, len(srv.Requests()), res.Err, tc.stop, tc.requests)
			}
			if tc.errHas != "" && (res.Err == nil || !strings.Contains(res.Err.Error(), tc.errHas) || llm.KindOf(res.Err) != llm.ErrRateLimit) {
				t.Fatalf("err %v (kind %s), want %q", res.Err, llm.KindOf(res.Err), tc.errHas)
			}
			if tc.waited != "" && !strings.Contains(rec.texts(event.Warning), tc.waited) {
				t.Fatalf("warnings %q, want %q", rec.texts(event.Warning), tc.waited)
			}
		})
	}
}

func TestRetryDelay(t *testing.T) {
	tests := []struct {
		name     string
		base     time.Duration
		attempt  int
		asked    time.Duration
		min, max time.Duration
	}{
		{"own backoff jittered", time.Second, 1, 0, 2 * time.Second, 2500 * time.Millisecond},
		{"server longer: exact", time.Second, 0, 7 * time.Second, 7 * time.Second, 7 * time.Second},
		{"own longer than server", 4 * time.Second, 0, time.Second, 4 * time.Second, 5 * time.Second},
		{"own backoff capped", time.Second, 10, 0, maxRetryWait, maxRetryWait},
		{"huge attempt capped", time.Second, 80, 0, maxRetryWait, maxRetryWait},
	}
	for _, tc := range tests {
		for range 50 {
			if got := retryDelay(tc.base, tc.attempt, tc.asked); got < tc.min || got > tc.max {
				t.Fatalf("%s: %s not in [%s, %s]", tc.name, got, tc.min, tc.max)
			}
		}
	}
}

// TestStopErrorKinds: the error event that ends a run carries a meaningful
// kind: a prompt that does not fit even after compaction is
// context_overflow, a provider error keeps its kind, and the loop's own
// stops (two empty replies, max_turns) carry none rather than "unknown". An
// empty reply is recorded, so the nudge after it is not merged into the
// prompt.
func TestStopErrorKinds(t *testing.T) {
	huge := strings.Repeat("x", 40000)
	loop := llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.go"}`))
	tests := []struct {
		name    string
		window  int // the agent's ContextWindow; 0 unknown
		server  int // the fake server's window in tokens
		prompt  string
		script  []llmtest.Turn
		maxTurn int
		stop    event.StopReason
		kind    llm.ErrorKind
	}{
		{"too big for the known window", 500, 1 << 20, huge, nil, 0, event.StopError, llm.ErrContextOverflow},
		{"server overflow, compaction cannot help", 0, 1000, huge, nil, 0, event.StopError, llm.ErrContextOverflow},
		{"two empty replies", 0, 1 << 20, "go", []llmtest.Turn{llmtest.Reply(), llmtest.Reply()}, 0, event.StopError, ""},
		{"max turns", 0, 1 << 20, "go", []llmtest.Turn{loop, loop, loop}, 2, event.StopMaxTurns, ""},
		{"provider auth error", 0, 1 << 20, "go", []llmtest.Turn{llmtest.Reply(llmtest.Error(401, `{"error":{"message":"bad key","type":"invalid_request_error"}}`))}, 0, event.StopProviderError, llm.ErrAuth},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSmallServer(t, tc.server)
			s.main.Script(tc.script...)
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, ContextWindow: tc.window, MaxTurns: tc.maxTurn,
				Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead)), RetryBase: time.Millisecond, Retries: -1})
			res := a.Run(context.Background(), tc.prompt)
			if res.StopReason != tc.stop {
				t.Fatalf("stop %s (err %v), want %s", res.StopReason, res.Err, tc.stop)
			}
			var errs []event.Event
			for _, e := range rec.evs {
				if e.Type == event.Error {
					errs = append(errs, e)
				}
			}
			if len(errs) != 1 || errs[0].ErrorKind != tc.kind {
				t.Fatalf("error events %+v, want one of kind %q", errs, tc.kind)
			}
			if w := rec.texts(event.Warning); strings.Contains(w, "merged two consecutive user messages") {
				t.Fatalf("repair warned: %s", w)
			}
		})
	}
}

// TestDuplicateCallsInOneReplyCountOnce: two identical calls in one reply
// are one duplicate request for stuck detection, not a loop: the run is not
// nudged after the first reply, and not stopped as stuck after two.
func TestDuplicateCallsInOneReplyCountOnce(t *testing.T) {
	readA := func() llmtest.Step { return llmtest.ToolCall("read_file", `{"path":"a.go"}`) }
	readB := llmtest.ToolCall("read_file", `{"path":"b.go"}`)
	done := llmtest.Reply(llmtest.Text("Both files are empty."))
	tests := []struct {
		name   string
		script []llmtest.Turn
		nudges int
	}{
		{"duplicate, then progress", []llmtest.Turn{llmtest.Reply(readA(), readA()), llmtest.Reply(readB), done}, 0},
		{"duplicate twice: one nudge, no stop", []llmtest.Turn{llmtest.Reply(readA(), readA()), llmtest.Reply(readA(), readA()), done}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(tc.script...)
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", RetryBase: time.Millisecond,
				Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
			res := a.Run(context.Background(), "read a.go and b.go")
			if res.StopReason != event.StopCompleted {
				t.Fatalf("stop %s (err %v), want completed", res.StopReason, res.Err)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			nudges := strings.Count(string(reqs[2].Body), "You are repeating the same tool call")
			if nudges != tc.nudges {
				t.Fatalf("%d stuck nudges sent, want %d", nudges, tc.nudges)
			}
		})
	}
}
