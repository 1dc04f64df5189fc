package agent

import (
	"bytes"
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

// Loop-level tests against the real Anthropic and Gemini adapters on the
// llmtest fake servers: what an adapter reports reaches the loop's
// decisions and the next request's bytes.

// redactedOpaque is a redacted_thinking block's data: opaque to Zero.
const redactedOpaque = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj"

// redactedTurn is an Anthropic stream whose reply holds a redacted
// thinking block, a signed thinking block and a tool call, framed as
// api.anthropic.com sends it ("Streaming Messages", extended thinking).
const redactedTurn = "event: message_start\n" +
	`data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":20,"output_tokens":1}}}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"` + redactedOpaque + `"}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":0}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":1,"content_block":{"type":"thinking","thinking":"","signature":""}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"I should read a.go."}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":1,"delta":{"type":"signature_delta","signature":"c2lnLTE="}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":1}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"path\":\"a.go\"}"}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":2}` + "\n\n" +
	"event: message_delta\n" +
	`data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":12}}` + "\n\n" +
	"event: message_stop\n" +
	`data: {"type":"message_stop"}` + "\n\n"

// TestRedactedThinkingReplayedNeverShown: the redacted block goes back on
// the next request verbatim, ahead of the signed thinking block and the
// tool call, and no byte of it reaches an event.Reasoning.
func TestRedactedThinkingReplayedNeverShown(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Raw(redactedTurn)), llmtest.Reply(llmtest.Text("a.go is empty.")))
	rec := &recorder{}
	p := anthropic.New(anthropic.Options{BaseURL: srv.URL(), APIKey: "sk-fake", Model: "claude-test", IdleTimeout: -1})
	a := New(Options{Provider: p, Model: "claude-test", Sink: rec, Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	res := a.Run(context.Background(), "read a.go")
	if res.StopReason != event.StopCompleted || res.Final != "a.go is empty." {
		t.Fatalf("got %+v", res)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	want := `{"content":[{"data":"` + redactedOpaque + `","type":"redacted_thinking"},` +
		`{"signature":"c2lnLTE=","thinking":"I should read a.go.","type":"thinking"},`
	if !bytes.Contains(reqs[1].Body, []byte(want)) {
		t.Errorf("second request does not replay the blocks verbatim; want %s in\n%s", want, reqs[1].Body)
	}
	if got := rec.texts(event.Reasoning); got != "I should read a.go." {
		t.Errorf("reasoning shown %q, want only the readable thinking", got)
	}
	for _, e := range rec.evs {
		if e.Type != event.Message && strings.Contains(e.Text, redactedOpaque[:16]) {
			t.Errorf("redacted data reached a %s event: %q", e.Type, e.Text)
		}
	}
}

// TestMalformedToolCallNudged: Gemini ends a turn with finishReason
// MALFORMED_FUNCTION_CALL (the fake sends it for a call whose arguments
// are not a JSON object). The loop answers with a nudge naming what went
// wrong, at most twice per run; a third one stops the run with a
// provider error of kind malformed_tool_call.
func TestMalformedToolCallNudged(t *testing.T) {
	bad := func() llmtest.Turn { return llmtest.Reply(llmtest.ToolCall("read_file", `{"path": "a`)) }
	good := llmtest.Reply(llmtest.ToolCall("read_file", `{"path":"a.go"}`))
	done := llmtest.Reply(llmtest.Text("a.go is read."))
	tests := []struct {
		name     string
		script   []llmtest.Turn
		stop     event.StopReason
		requests int // requests made: nothing is retried as is
		ran      int // read_file runs
		lastReq  int // the request after the last malformed call
		nudges   int // nudges it carries
	}{
		{"once, then a valid call", []llmtest.Turn{bad(), good, done}, event.StopCompleted, 3, 1, 1, 1},
		{"twice, then a valid call", []llmtest.Turn{bad(), bad(), good, done}, event.StopCompleted, 4, 1, 2, 2},
		{"three times: stop", []llmtest.Turn{bad(), bad(), bad(), done}, event.StopProviderError, 3, 0, 2, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(tc.script...)
			ran := 0
			read := &fakeTool{name: "read_file", side: tools.SideRead, run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
				ran++
				return tools.Result{Content: "package a"}, nil
			}}
			p := gemini.New(gemini.Options{BaseURL: srv.URL(), APIKey: "g-fake", Model: "gemini-test", IdleTimeout: -1})
			a := New(Options{Provider: p, Model: "gemini-test", Tools: tools.NewRegistry(read), RetryBase: time.Millisecond})
			res := a.Run(context.Background(), "read a.go")
			if res.StopReason != tc.stop || ran != tc.ran {
				t.Fatalf("stop %s ran %d (err %v), want %s ran %d", res.StopReason, ran, res.Err, tc.stop, tc.ran)
			}
			reqs := srv.Requests()
			if len(reqs) != tc.requests {
				t.Fatalf("%d requests, want %d", len(reqs), tc.requests)
			}
			if tc.stop == event.StopProviderError &&
				(!errors.Is(res.Err, gemini.ErrMalformedFunctionCall) || llm.KindOf(res.Err) != llm.ErrMalformedToolCall) {
				t.Errorf("stopped with %v, want a malformed_tool_call error", res.Err)
			}
			nudge := "Your last tool call was malformed: the model produced a malformed function call (MALFORMED_FUNCTION_CALL): Malformed function call. " +
				"Call the tool again with a valid JSON object of arguments."
			body := string(reqs[tc.lastReq].Body)
			// The nudge follows the prompt as a user message; Repair merges
			// the two (roles must alternate), so count the escaped text.
			quoted, _ := json.Marshal(nudge)
			if got := strings.Count(body, string(quoted[1:len(quoted)-1])); got != tc.nudges {
				t.Errorf("request %d carries %d nudges, want %d:\n%s", tc.lastReq, got, tc.nudges, body)
			}
			if strings.Contains(string(reqs[0].Body), "malformed") {
				t.Errorf("first request already nudged: %s", reqs[0].Body)
			}
		})
	}
}
