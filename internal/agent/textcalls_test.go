package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/providers/openai"
	"github.com/zero-agent/zero/internal/tools"
)

// newOpenAI returns the real OpenAI-compatible provider pointed at srv.
func newOpenAI(t testing.TB, url string) *openai.Provider {
	t.Helper()
	p, err := openai.New(openai.Options{Name: "local", BaseURL: url, RetryBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// wireMessages returns the "messages" array of a recorded request.
func wireMessages(t *testing.T, r llmtest.Request) []map[string]any {
	t.Helper()
	raw, _ := r.Map()["messages"].([]any)
	var out []map[string]any
	for _, m := range raw {
		out = append(out, m.(map[string]any))
	}
	return out
}

// checkWireInvariant asserts an OpenAI request history is valid: every
// assistant tool call is answered by exactly one following tool message,
// and every tool message answers a call of the assistant message before.
func checkWireInvariant(t *testing.T, msgs []map[string]any) {
	t.Helper()
	open := map[string]bool{}
	for i, m := range msgs {
		switch m["role"] {
		case "tool":
			id, _ := m["tool_call_id"].(string)
			if !open[id] {
				t.Fatalf("message %d: tool result %q answers no open call: %v", i, id, msgs)
			}
			delete(open, id)
		default:
			if len(open) > 0 {
				t.Fatalf("message %d (%v): calls %v have no result", i, m["role"], open)
			}
			calls, _ := m["tool_calls"].([]any)
			for _, c := range calls {
				open[c.(map[string]any)["id"].(string)] = true
			}
		}
	}
	if len(open) > 0 {
		t.Fatalf("calls %v have no result at the end", open)
	}
}

// markup is what must never reach a surface as answer text.
var markup = []string{"<tool_call", "</tool_call", "<function=", "<parameter=", "[TOOL_CALLS]", "[ARGS]", `"arguments"`}

func TestTextToolCallsThroughOpenAIWire(t *testing.T) {
	cases := []struct {
		name, text string
		chunks     int
		shown      string // prose that must be shown
	}{
		{"hermes", "Let me look.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\",}}\n</tool_call>", 9, "Let me look."},
		{"qwen3-coder", "<tool_call>\n<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>\n</tool_call>", 11, ""},
		{"mistral", "[TOOL_CALLS]read_file[ARGS]{\"path\": \"a.go\"}", 6, ""},
		// The stream filter holds a fenced block after a lead-in while it
		// may be a call (textcalls.StreamFilter).
		{"fenced json", "Reading the file.\n```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n```", 5, "Reading the file."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(
				llmtest.Reply(llmtest.Text(tc.text).Split(tc.chunks)),
				llmtest.Reply(llmtest.Text("The file holds package a.")),
			)
			var mu sync.Mutex
			var ranWith []string
			read := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
				mu.Lock()
				ranWith = append(ranWith, string(args))
				mu.Unlock()
				return tools.Result{Content: "package a"}, nil
			}}
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, Tools: tools.NewRegistry(read)})
			res := a.Run(context.Background(), "what is in a.go?")
			if res.StopReason != event.StopCompleted || res.Final != "The file holds package a." {
				t.Fatalf("got %+v", res)
			}
			if len(ranWith) != 1 || !strings.Contains(ranWith[0], `"a.go"`) {
				t.Fatalf("tool ran with %v", ranWith)
			}
			shown := rec.texts(event.Text)
			for _, m := range markup {
				if strings.Contains(shown, m) {
					t.Fatalf("markup %q reached the surface: %q", m, shown)
				}
			}
			if !strings.Contains(shown, tc.shown) {
				t.Fatalf("prose %q not shown: %q", tc.shown, shown)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			msgs := wireMessages(t, reqs[1])
			checkWireInvariant(t, msgs)
			asst := msgs[len(msgs)-2]
			calls, _ := asst["tool_calls"].([]any)
			if asst["role"] != "assistant" || len(calls) != 1 {
				t.Fatalf("assistant message on the wire: %v", asst)
			}
			fn := calls[0].(map[string]any)["function"].(map[string]any)
			if fn["name"] != "read_file" || !json.Valid([]byte(fn["arguments"].(string))) {
				t.Fatalf("replayed call %v", fn)
			}
			if c, _ := asst["content"].(string); strings.Contains(c, "read_file") {
				t.Fatalf("call markup kept in the replayed text: %q", c)
			}
		})
	}
}

func TestRecoveredIDsUniqueAcrossRuns(t *testing.T) {
	srv := llmtest.NewServer(t)
	var turns []llmtest.Turn
	for i := 0; i < 3; i++ {
		turns = append(turns,
			llmtest.Reply(llmtest.Text(`<tool_call>{"name":"read_file","arguments":{"path":"a.go"}}</tool_call><tool_call>{"name":"read_file","arguments":{"path":"b.go"}}</tool_call>`)),
			llmtest.Reply(llmtest.Text("done")))
	}
	srv.Script(turns...)
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	for i := 0; i < 3; i++ {
		if res := a.Run(context.Background(), "again"); res.StopReason != event.StopCompleted {
			t.Fatalf("run %d: %+v", i, res)
		}
	}
	seen := map[string]bool{}
	n := 0
	for _, m := range a.History() {
		for _, c := range m.ToolCalls() {
			n++
			if c.ID == "" || seen[c.ID] || !c.Recovered {
				t.Fatalf("call id %q repeated, empty or not marked recovered", c.ID)
			}
			seen[c.ID] = true
		}
	}
	if n != 6 {
		t.Fatalf("%d calls recovered, want 6", n)
	}
	checkWireInvariant(t, wireMessages(t, srv.Requests()[5]))
}

func TestInvalidTextCallAnsweredWithError(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		// arguments cut off inside a string (B04 case 5): never run
		llmtest.Reply(llmtest.Text(`<tool_call>{"name": "read_file", "arguments": {"path": "a.go`)),
		llmtest.Reply(llmtest.Text("I could not read it.")),
	)
	ran := false
	read := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		ran = true
		return tools.Result{Content: "x"}, nil
	}}
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Tools: tools.NewRegistry(read)})
	res := a.Run(context.Background(), "read a.go")
	if res.StopReason != event.StopCompleted || ran {
		t.Fatalf("got %+v ran=%v", res, ran)
	}
	msgs := wireMessages(t, srv.Requests()[1])
	checkWireInvariant(t, msgs)
	last := msgs[len(msgs)-1]
	if c, _ := last["content"].(string); last["role"] != "tool" || !strings.Contains(c, "tool not executed") {
		t.Fatalf("invalid call's result: %v", last)
	}
}

func TestTextToolCallsCanBeSwitchedOff(t *testing.T) {
	srv := llmtest.NewServer(t)
	text := `<tool_call>{"name": "read_file", "arguments": {"path": "a.go"}}</tool_call>`
	srv.Script(llmtest.Reply(llmtest.Text(text).Split(4)))
	rec := &recorder{}
	ran := false
	read := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		ran = true
		return tools.Result{}, nil
	}}
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, Tools: tools.NewRegistry(read), DisableTextToolCalls: true})
	res := a.Run(context.Background(), "go")
	if res.StopReason != event.StopCompleted || ran || res.Final != text || rec.texts(event.Text) != text {
		t.Fatalf("with recovery off the text is the answer: %+v ran=%v shown=%q", res, ran, rec.texts(event.Text))
	}
}
