package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/providers/anthropic"
	"github.com/zero-agent/zero/internal/providers/gemini"
	"github.com/zero-agent/zero/internal/tools"
)

// maxTokensOf returns the max_tokens a recorded OpenAI request asked for
// (0 when absent).
func maxTokensOf(r llmtest.Request) int {
	n, _ := r.Map()["max_tokens"].(float64)
	return int(n)
}

// budgetHistory is a resumed conversation of about 16 KB that compaction
// can shrink (eight old exchanges, then the recent ones).
func budgetHistory() []llm.Message {
	note := strings.Repeat("notes on what I read in the parser. ", 55) // ~2 KB
	h := []llm.Message{llm.TextMessage(llm.RoleUser, "refactor the parser")}
	for range 8 {
		h = append(h, llm.TextMessage(llm.RoleAssistant, note), llm.TextMessage(llm.RoleUser, "go on"))
	}
	return h
}

func errorEvents(rec *recorder) []event.Event {
	var out []event.Event
	for _, e := range rec.evs {
		if e.Type == event.Error {
			out = append(out, e)
		}
	}
	return out
}

// TestEveryRequestCarriesMaxTokens: with no window known a request asks
// for the configured cap (DefaultMaxOutputTokens when none); with a window
// it asks for no more than a third of it (the room proactive compaction
// always leaves) or, for a prompt past 2/3 of it, the room the estimated
// prompt leaves.
func TestEveryRequestCarriesMaxTokens(t *testing.T) {
	tests := []struct {
		name   string
		cap    int
		window int
		min    int
		max    int
	}{
		{"default cap, unknown window", 0, 0, DefaultMaxOutputTokens, DefaultMaxOutputTokens},
		{"configured cap", 2000, 0, 2000, 2000},
		{"large window: the cap", 0, 1 << 20, DefaultMaxOutputTokens, DefaultMaxOutputTokens},
		{"8K window: a third of it", 0, 8192, 8192 - 8192*2/3, 8192 - 8192*2/3},
		// ~16 KB of history is ~4,100 tokens at 4 bytes a token, past
		// 2/3 of a 6,144 window: it leaves under 2,048.
		{"small window: the room left", 0, 6144, minReplyTokens, 2048},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(llmtest.Reply(llmtest.Text("done")))
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", History: budgetHistory(), MaxOutputTokens: tc.cap, ContextWindow: tc.window})
			if res := a.Run(context.Background(), "next"); res.StopReason != event.StopCompleted {
				t.Fatalf("run %+v", res)
			}
			got := maxTokensOf(srv.Requests()[0])
			if got < tc.min || got > tc.max {
				t.Fatalf("max_tokens %d, want %d..%d", got, tc.min, tc.max)
			}
		})
	}
}

// TestFullWindowIsAnOverflowNotAnOutputLimit: a reply cut with finish
// "length" where prompt plus reply reached the window (llama-server stops
// a slot at n_ctx with STOP_TYPE_LIMIT and reports "length") is not
// continued: the reply is dropped, the history compacted once and the
// request asked again, with no "continue" nudge and no talk of the output
// token limit.
// TestMaxTokensStableWhileTheHistoryGrows: while compaction keeps the
// prompt under 2/3 of the window, every request of a conversation asks
// for the same max_tokens, so each request is the previous one plus new
// messages, byte for byte.
func TestMaxTokensStableWhileTheHistoryGrows(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.go"}`)),
		llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"b.go"}`)),
		llmtest.Reply(llmtest.Text("done")),
	)
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", ContextWindow: 16384,
		Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead)), RetryBase: time.Millisecond})
	if res := a.Run(context.Background(), "read both"); res.StopReason != event.StopCompleted {
		t.Fatalf("run %+v", res)
	}
	for i, r := range srv.Requests() {
		if got := maxTokensOf(r); got != 16384-16384*2/3 {
			t.Fatalf("request %d asks for %d output tokens, want %d on each", i, got, 16384-16384*2/3)
		}
	}
}

func TestFullWindowIsAnOverflowNotAnOutputLimit(t *testing.T) {
	s := newSmallServer(t, 1<<20)
	const window = 16384
	s.main.Script(
		llmtest.Reply(llmtest.Text("rambling on and on"), llmtest.Usage(15000, 1380), llmtest.Finish("length")),
		llmtest.Reply(llmtest.Text("done")),
	)
	s.sum.Script(llmtest.Reply(llmtest.Text("The parser was read.")))
	rec := &recorder{}
	a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, History: budgetHistory(), ContextWindow: window,
		Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead)), RetryBase: time.Millisecond})
	res := a.Run(context.Background(), "next")
	if res.StopReason != event.StopCompleted || res.Final != "done" {
		t.Fatalf("stop %s final %q err %v", res.StopReason, res.Final, res.Err)
	}
	reqs := s.main.Requests()
	if len(reqs) != 2 || len(s.sum.Requests()) != 1 {
		t.Fatalf("%d requests and %d summaries, want 2 and 1", len(reqs), len(s.sum.Requests()))
	}
	if b := string(reqs[1].Body); strings.Contains(b, "rambling") || strings.Contains(b, "cut off") {
		t.Fatalf("the retry carries the dropped reply or a continue nudge: %s", b)
	}
	if len(reqs[1].Body) >= len(reqs[0].Body) {
		t.Fatalf("the retry (%d bytes) is not smaller than the request that filled the window (%d)", len(reqs[1].Body), len(reqs[0].Body))
	}
	w := rec.texts(event.Warning)
	if !strings.Contains(w, "filled the 16384-token context window (prompt 15000 + reply 1380 tokens)") || strings.Contains(w, "output token limit") {
		t.Fatalf("warnings %q", w)
	}
}

// TestFullWindowTwiceStopsWithOneMessage: a reply that fills the window
// again after the one compaction ends the run with one error event of
// kind context_overflow saying what to do.
func TestFullWindowTwiceStopsWithOneMessage(t *testing.T) {
	s := newSmallServer(t, 1<<20)
	full := llmtest.Reply(llmtest.Text("rambling"), llmtest.Usage(15000, 1380), llmtest.Finish("length"))
	s.main.Script(full, full, llmtest.Reply(llmtest.Text("never asked")))
	s.sum.Script(llmtest.Reply(llmtest.Text("The parser was read.")))
	rec := &recorder{}
	a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, History: budgetHistory(), ContextWindow: 16384,
		Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead)), RetryBase: time.Millisecond})
	res := a.Run(context.Background(), "next")
	if res.StopReason != event.StopError || !errors.Is(res.Err, ErrWindowFull) {
		t.Fatalf("stop %s err %v, want error/ErrWindowFull", res.StopReason, res.Err)
	}
	if n := len(s.main.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
	errs := errorEvents(rec)
	if len(errs) != 1 || errs[0].ErrorKind != llm.ErrContextOverflow || !strings.Contains(errs[0].Text, "llama-server -c") || !strings.Contains(errs[0].Text, "maxOutputTokens") {
		t.Fatalf("error events %+v, want one context_overflow saying what to do", errs)
	}
}

// TestCutReplyContinuesOnlyWhenTheContinuationFits: a reply cut at its
// output budget is continued (the nudge is sent); when the server's counts
// say the prompt plus the cut reply leave under minReplyTokens of the
// window, the history is compacted before the continuation is asked for.
func TestCutReplyContinuesOnlyWhenTheContinuationFits(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in, out int
		compact bool
	}{
		{"room left: continued as is", 4000, 1000, false},
		{"no room: compacted first", 12000, 4000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSmallServer(t, 1<<20)
			s.main.Script(
				llmtest.Reply(llmtest.Text("The plan is "), llmtest.Usage(tc.in, tc.out), llmtest.Finish("length")),
				llmtest.Reply(llmtest.Text("to split the parser.")),
			)
			s.sum.Script(llmtest.Reply(llmtest.Text("The parser was read.")))
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, History: budgetHistory(), ContextWindow: 16384,
				Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead)), RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "plan it")
			if res.StopReason != event.StopCompleted || res.Final != "The plan is to split the parser." {
				t.Fatalf("stop %s final %q err %v", res.StopReason, res.Final, res.Err)
			}
			reqs := s.main.Requests()
			if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), cutNudge) {
				t.Fatalf("%d requests; the continuation must carry the nudge", len(reqs))
			}
			compacted := len(s.sum.Requests()) > 0
			if compacted != tc.compact {
				t.Fatalf("compacted %v, want %v (warnings %q)", compacted, tc.compact, rec.texts(event.Warning))
			}
			if tc.compact && !strings.Contains(rec.texts(event.Warning), "continuing the cut reply would leave under") {
				t.Fatalf("warnings %q", rec.texts(event.Warning))
			}
		})
	}
}

// TestOutputBudgetOverflowLowersMaxTokens: vLLM rejects prompt +
// max_tokens over max_model_len with HTTP 400 (the body of
// vllm/entrypoints/openai/serving_engine.py _validate_input); the prompt
// fits, so the request is sent again at once with max_tokens lowered to
// the room the server's count leaves, without compaction, and the window
// is learned.
func TestOutputBudgetOverflowLowersMaxTokens(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.Error(400, `{"error":{"message":"'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is 4096 tokens and your request has 2778 input tokens (8192 > 4096 - 2778). None","type":"BadRequestError","param":null,"code":400}}`)),
		llmtest.Reply(llmtest.Text("done")),
	)
	rec := &recorder{}
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, RetryBase: time.Millisecond})
	res := a.Run(context.Background(), "hi")
	if res.StopReason != event.StopCompleted {
		t.Fatalf("run %+v", res)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || maxTokensOf(reqs[0]) != DefaultMaxOutputTokens {
		t.Fatalf("%d requests, first max_tokens %d", len(reqs), maxTokensOf(reqs[0]))
	}
	if got := maxTokensOf(reqs[1]); got <= 0 || got > 4096-2778 {
		t.Fatalf("retry max_tokens %d, want 1..%d", got, 4096-2778)
	}
	if a.opts.ContextWindow != 4096 {
		t.Fatalf("window %d, want 4096 learned", a.opts.ContextWindow)
	}
	if w := rec.texts(event.Warning); strings.Contains(w, "compact") || !strings.Contains(w, "output budget did not") {
		t.Fatalf("warnings %q", w)
	}
}

// TestPermanentErrorsAreNotRetried: a server that refuses what was asked
// is answered once, with one error event saying what to do, and no
// "retrying" warning. The bodies are the servers' own: llama-server
// started without --jinja (oaicompat_chat_params_parse in
// ggml-org/llama.cpp tools/server/utils.hpp throws "tools param requires
// --jinja flag"; the server renders it as HTTP 500, type server_error),
// Ollama's unknown model, and a plain bad request.
func TestPermanentErrorsAreNotRetried(t *testing.T) {
	for _, tc := range []struct {
		name, body, hint string
		status           int
	}{
		{"llama-server without --jinja", `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`, "restart it with --jinja", 500},
		{"unknown model", `{"error":"model \"qwen9\" not found, try pulling it first"}`, llm.PickModel, 404},
		{"bad request", `{"error":{"code":400,"message":"Invalid 'messages' type: expected array","type":"invalid_request_error"}}`, "rejected", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(llmtest.Reply(llmtest.Error(tc.status, tc.body)), llmtest.Reply(llmtest.Text("never")))
			rec := &recorder{}
			// Native: under auto the refusal of tools switches to the
			// prompted protocol (toolprotocol_test.go).
			a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: rec, Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead)), RetryBase: time.Millisecond, ToolProtocol: ToolProtocolNative})
			res := a.Run(context.Background(), "hi")
			if res.StopReason != event.StopProviderError || llm.KindOf(res.Err) != llm.ErrBadRequest {
				t.Fatalf("stop %s err %v, want provider_error/bad_request", res.StopReason, res.Err)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Fatalf("%d requests, want 1 (not retried)", n)
			}
			if w := rec.texts(event.Warning); w != "" {
				t.Fatalf("warnings %q, want none", w)
			}
			errs := errorEvents(rec)
			if len(errs) != 1 || !strings.Contains(errs[0].Text, tc.hint) {
				t.Fatalf("error events %+v, want one saying %q", errs, tc.hint)
			}
		})
	}
}

// TestSetMaxOutputTokensChangesLaterRequests: a model switch's new cap
// applies from the next request.
func TestSetMaxOutputTokensChangesLaterRequests(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("one")), llmtest.Reply(llmtest.Text("two")))
	a := New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m"})
	a.Run(context.Background(), "first")
	a.SetMaxOutputTokens(32768)
	a.Run(context.Background(), "second")
	reqs := srv.Requests()
	if len(reqs) != 2 || maxTokensOf(reqs[0]) != DefaultMaxOutputTokens || maxTokensOf(reqs[1]) != 32768 {
		t.Fatalf("max_tokens of the two requests: %d, %d", maxTokensOf(reqs[0]), maxTokensOf(reqs[1]))
	}
}

// TestFullWindowAfterProgressIsCompactedAgain: the one compaction per
// full window is counted from the last tool call, so a long run that
// fills the window again after making progress is compacted again
// instead of stopped.
func TestFullWindowAfterProgressIsCompactedAgain(t *testing.T) {
	s := newSmallServer(t, 1<<20)
	full := llmtest.Reply(llmtest.Text("rambling"), llmtest.Usage(15000, 1380), llmtest.Finish("length"))
	s.main.Script(full, llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.go"}`)), full, llmtest.Reply(llmtest.Text("done")))
	s.sum.Script(llmtest.Reply(llmtest.Text("The parser was read.")), llmtest.Reply(llmtest.Text("a.go was read too.")))
	bulky := &fakeTool{name: "read_file", side: tools.SideRead, run: func(context.Context, json.RawMessage) (tools.Result, error) {
		return tools.Result{Content: strings.Repeat("func parse() {} // the parser\n", 300)}, nil
	}}
	rec := &recorder{}
	a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, History: budgetHistory(), ContextWindow: 16384,
		Tools: tools.NewRegistry(bulky), RetryBase: time.Millisecond})
	res := a.Run(context.Background(), "next")
	if res.StopReason != event.StopCompleted || res.Final != "done" {
		t.Fatalf("stop %s final %q err %v", res.StopReason, res.Final, res.Err)
	}
	compactions := 0
	for _, e := range rec.evs {
		if e.Type == event.Compaction {
			compactions++
		}
	}
	if compactions != 2 {
		t.Fatalf("%d compactions, want 2", compactions)
	}
	if n := len(s.main.Requests()); n != 4 {
		t.Fatalf("%d requests, want 4", n)
	}
}

// TestOutputBudgetOnEveryWire: the budget reaches each adapter's own
// field on the fake servers: Anthropic's max_tokens and Gemini's
// generationConfig.maxOutputTokens (the OpenAI wire is covered above).
func TestOutputBudgetOnEveryWire(t *testing.T) {
	const window = 12000
	want := window - window*2/3
	t.Run("anthropic max_tokens", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.Script(llmtest.Reply(llmtest.Text("done")))
		p := anthropic.New(anthropic.Options{BaseURL: srv.URL(), APIKey: "sk-fake", Model: "claude-test", IdleTimeout: -1})
		if res := New(Options{Provider: p, Model: "claude-test", ContextWindow: window}).Run(context.Background(), "hi"); res.StopReason != event.StopCompleted {
			t.Fatalf("run %+v", res)
		}
		if got, _ := srv.Requests()[0].Map()["max_tokens"].(float64); int(got) != want {
			t.Fatalf("max_tokens %v, want %d", got, want)
		}
	})
	t.Run("gemini maxOutputTokens", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		srv.Script(llmtest.Reply(llmtest.Text("done")))
		p := gemini.New(gemini.Options{BaseURL: srv.URL(), APIKey: "g-fake", Model: "gemini-test", IdleTimeout: -1})
		if res := New(Options{Provider: p, Model: "gemini-test", ContextWindow: window}).Run(context.Background(), "hi"); res.StopReason != event.StopCompleted {
			t.Fatalf("run %+v", res)
		}
		gc, _ := srv.Requests()[0].Map()["generationConfig"].(map[string]any)
		if got, _ := gc["maxOutputTokens"].(float64); int(got) != want {
			t.Fatalf("generationConfig %v, want maxOutputTokens %d", gc, want)
		}
	})
}

// counting is a fake provider that reports each request's prompt as the
// server would count it: requestBytes at the next of its bytes-per-token
// ratios. Summaries (the compaction request) are answered with a summary;
// the others follow turns.
type counting struct {
	turns  [][]llm.Event
	ratios []float64
	reqs   []llm.Request
}

func (c *counting) Name() string { return "counting" }

func (c *counting) Stream(_ context.Context, req llm.Request) (<-chan llm.Event, error) {
	c.reqs = append(c.reqs, req)
	evs := []llm.Event{text("Summary: read six files; the task goes on."), finish()}
	if req.System != summaryPrompt {
		evs, c.turns = c.turns[0], c.turns[1:]
		tokens := int(float64(requestBytes(req)) / c.ratios[0])
		c.ratios = c.ratios[1:]
		evs = append([]llm.Event{usage(tokens, 5)}, evs...)
	}
	ch := make(chan llm.Event, len(evs))
	for _, e := range evs {
		ch <- e
	}
	close(ch)
	return ch, nil
}

// The estimate follows the server's last count, not an average of all:
// the first request counts at 4 bytes a token, the second at 2, and the
// history is compacted before the third because at 2 bytes a token it
// passes 2/3 of the window (~9.3K of 12K tokens; at the average, 3, it is
// ~6.2K and would not be).
func TestCompactionFollowsLastServerCount(t *testing.T) {
	p := &counting{ratios: []float64{4, 2, 2}, turns: [][]llm.Event{
		{call(0, "a", "read_file", `{"path":"x"}`), finish()},
		{call(0, "b", "read_file", `{"path":"y"}`), finish()},
		{text("done"), finish()},
	}}
	a := New(Options{Provider: p, Model: "m", History: oldTurns(6, 3000), ContextWindow: 12_000,
		Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	if res := a.Run(context.Background(), "go"); res.StopReason != event.StopCompleted {
		t.Fatalf("run %+v", res)
	}
	var main []llm.Request
	for _, r := range p.reqs {
		if r.System != summaryPrompt {
			main = append(main, r)
		}
	}
	if len(main) != 3 || requestBytes(main[2]) > requestBytes(main[1])/2 {
		t.Fatalf("the third request was not compacted: %d requests, the last two %d and %d bytes", len(main), requestBytes(main[1]), requestBytes(main[len(main)-1]))
	}
	second := main[1]
	if r := a.ContextReport(); r.Compactions != 1 || a.est.Tokens(requestBytes(second)) > requestBytes(second)/2+1 {
		t.Errorf("compactions %d; the second request re-estimated is %d tokens, the server counted %d",
			r.Compactions, a.est.Tokens(requestBytes(second)), requestBytes(second)/2)
	}
}
