package anthropic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// toolImageHistory is a call whose result carries an image (an MCP
// tool's screenshot).
func toolImageHistory() []llm.Message {
	return []llm.Message{
		llm.TextMessage(llm.RoleUser, "take a screenshot"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "c1", Name: "mcp__shot__take", Arguments: `{}`}}}},
		llm.ToolResultMessage(llm.ToolResult{CallID: "c1", Name: "mcp__shot__take", Content: "[image: image/png, 4 bytes]",
			Images: []llm.Image{{MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}}}),
	}
}

// TestToolResultImagesAreImageBlocksInsideToolResult: Anthropic takes
// images inside a tool_result's content, after its text.
func TestToolResultImagesAreImageBlocksInsideToolResult(t *testing.T) {
	r := newReplay(t, answer{status: 200, body: textStream("ok")})
	ch, err := testProvider(r).Stream(context.Background(), llm.Request{Messages: toolImageHistory(), MaxTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	collect(t, ch)
	var got struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(r.body(0), &got); err != nil {
		t.Fatal(err)
	}
	want := `{"content":[{"tool_use_id":"c1","cache_control":{"type":"ephemeral"},"content":[{"text":"[image: image/png, 4 bytes]","type":"text"},` +
		`{"source":{"data":"iVBORw==","media_type":"image/png","type":"base64"},"type":"image"}],"type":"tool_result"}],"role":"user"}`
	if len(got.Messages) != 3 || string(got.Messages[2]) != want {
		t.Fatalf("tool result message =\n%s\nwant\n%s", got.Messages[len(got.Messages)-1], want)
	}
}
