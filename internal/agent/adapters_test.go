package agent

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/providers/anthropic"
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
