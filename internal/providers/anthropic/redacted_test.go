package anthropic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// redactedStream holds two redacted_thinking blocks (Anthropic sends each
// whole in content_block_start, "data" opaque) before a text block.
const redactedStream = "event: message_start\n" +
	`data: {"type":"message_start","message":{"id":"msg_r","type":"message","role":"assistant","content":[],"model":"claude-test","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3p+one=="}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":0}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3p/two=="}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":1}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Done."}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":2}` + "\n\n" +
	"event: message_delta\n" +
	`data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}` + "\n\n" +
	"event: message_stop\n" +
	`data: {"type":"message_stop"}` + "\n\n"

// TestRedactedThinking: each redacted_thinking block becomes a redacted
// reasoning delta carrying its data (no warning, nothing readable), the
// assembled message keeps them as separate redacted parts, and the next
// request sends them back byte for byte, in order, before the text.
func TestRedactedThinking(t *testing.T) {
	r := newReplay(t, answer{status: 200, body: redactedStream})
	ch, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	var a llm.Assembler
	var redacted []string
	for _, ev := range collect(t, ch) {
		a.Add(ev)
		if ev.Type == llm.EventReasoningDelta && ev.Redacted {
			redacted = append(redacted, ev.Text)
		}
	}
	if a.Err != nil || len(a.Warnings) != 0 {
		t.Fatalf("err %v warnings %q", a.Err, a.Warnings)
	}
	if strings.Join(redacted, "|") != "EmwKAhgBEgy3va3p+one==|EmwKAhgBEgy3va3p/two==" {
		t.Errorf("redacted deltas %q", redacted)
	}
	m := a.Message()
	if len(m.Parts) != 3 || !m.Parts[0].Redacted || !m.Parts[1].Redacted || m.Reasoning() != "" || m.Text() != "Done." {
		t.Fatalf("message parts %+v", m.Parts)
	}

	r2 := newReplay(t, answer{status: 200, body: textStream("ok")})
	history := []llm.Message{llm.TextMessage(llm.RoleUser, "hi"), m, llm.TextMessage(llm.RoleUser, "again")}
	ch, err = testProvider(r2).Stream(context.Background(), llm.Request{Messages: history})
	if err != nil {
		t.Fatal(err)
	}
	collect(t, ch)
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(r2.body(0), &body); err != nil || len(body.Messages) != 3 {
		t.Fatalf("messages %s (%v)", body.Messages, err)
	}
	want := `{"content":[{"data":"EmwKAhgBEgy3va3p+one==","type":"redacted_thinking"},{"data":"EmwKAhgBEgy3va3p/two==","type":"redacted_thinking"},{"text":"Done.","type":"text"}],"role":"assistant"}`
	if got := string(body.Messages[1]); got != want {
		t.Errorf("assistant turn =\n%s\nwant\n%s", got, want)
	}
}
