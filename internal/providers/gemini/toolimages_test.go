package gemini

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// TestToolResultImagesAreInlineDataBesideTheResponse: Gemini gets a
// tool's images as inlineData parts right after its functionResponse.
func TestToolResultImagesAreInlineDataBesideTheResponse(t *testing.T) {
	r := newReplay(t, answer{body: chunks(`{"candidates": [{"content": {"parts": [{"text": "ok"}],"role": "model"},"finishReason": "STOP","index": 0}]}`)})
	req := llm.Request{Messages: []llm.Message{
		llm.TextMessage(llm.RoleUser, "take a screenshot"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "c1", Name: "shot", Arguments: `{}`}}}},
		llm.ToolResultMessage(llm.ToolResult{CallID: "c1", Name: "shot", Content: "[image: image/png, 4 bytes]",
			Images: []llm.Image{{MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}}}),
	}, MaxTokens: 100}
	ch, err := testProvider(r).Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	collect(ch)
	var got struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(r.bodies[0], &got); err != nil {
		t.Fatal(err)
	}
	want := `{"role":"user","parts":[{"functionResponse":{"name":"shot","response":{"output":"[image: image/png, 4 bytes]"}}},{"inlineData":{"mimeType":"image/png","data":"iVBORw=="}}]}`
	if len(got.Contents) != 3 || string(got.Contents[2]) != want {
		t.Fatalf("tool result content =\n%s\nwant\n%s", got.Contents[len(got.Contents)-1], want)
	}
}
