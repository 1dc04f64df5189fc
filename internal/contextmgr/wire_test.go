package contextmgr

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// The cases store histories in Anthropic Messages and OpenAI Chat shapes;
// these helpers translate them to and from llm.Message for the tests.

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Content   string          `json:"content,omitempty"`
}

type wireMsg struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	Event string `json:"event"`
}

// fromWire reads a JSON message array; entries carrying "event" (session
// events, not messages) are skipped.
func fromWire(t *testing.T, path string) []llm.Message {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in []wireMsg
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatal(err)
	}
	var out []llm.Message
	for _, w := range in {
		if w.Event != "" {
			continue
		}
		var text string
		var blocks []wireBlock
		if json.Unmarshal(w.Content, &text) != nil {
			if err := json.Unmarshal(w.Content, &blocks); err != nil {
				t.Fatalf("content %s: %v", w.Content, err)
			}
		}
		switch w.Role {
		case "tool":
			out = append(out, llm.ToolResultMessage(llm.ToolResult{CallID: w.ToolCallID, Content: text}))
		case "assistant":
			m := llm.Message{Role: llm.RoleAssistant}
			if text != "" {
				m.Parts = append(m.Parts, llm.Part{Type: llm.PartText, Text: text})
			}
			for _, bl := range blocks {
				switch bl.Type {
				case "text":
					m.Parts = append(m.Parts, llm.Part{Type: llm.PartText, Text: bl.Text})
				case "tool_use":
					var c bytes.Buffer
					_ = json.Compact(&c, bl.Input)
					m.Parts = append(m.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: bl.ID, Name: bl.Name, Arguments: c.String()}})
				}
			}
			for _, tc := range w.ToolCalls {
				m.Parts = append(m.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}})
			}
			out = append(out, m)
		default: // user, system
			role := llm.Role(w.Role)
			if blocks == nil {
				out = append(out, llm.TextMessage(role, text))
				continue
			}
			// Anthropic: tool_result blocks travel as a tool message,
			// text blocks as the user message after it.
			var results, texts []llm.Part
			for _, bl := range blocks {
				switch bl.Type {
				case "tool_result":
					r := llm.ToolResult{CallID: bl.ToolUseID, Content: bl.Content, IsError: bl.IsError}
					results = append(results, llm.Part{Type: llm.PartToolResult, ToolResult: &r})
				case "text":
					texts = append(texts, llm.Part{Type: llm.PartText, Text: bl.Text})
				}
			}
			if results != nil {
				out = append(out, llm.Message{Role: llm.RoleTool, Parts: results})
			}
			if texts != nil {
				out = append(out, llm.Message{Role: role, Parts: texts})
			}
		}
	}
	return out
}

// toAnthropic renders messages in the Anthropic shape the case files use:
// tool messages become user content blocks, merged with the user text that
// follows; a lone text part is a string content.
func toAnthropic(msgs []llm.Message) []any {
	var out []any
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case llm.RoleTool:
			var blocks []any
			for ; i < len(msgs) && msgs[i].Role == llm.RoleTool; i++ {
				for _, r := range msgs[i].ToolResults() {
					b := map[string]any{"type": "tool_result", "tool_use_id": r.CallID, "content": r.Content}
					if r.IsError {
						b["is_error"] = true
					}
					blocks = append(blocks, b)
				}
			}
			if i < len(msgs) && msgs[i].Role == llm.RoleUser {
				for _, p := range msgs[i].Parts {
					blocks = append(blocks, map[string]any{"type": "text", "text": p.Text})
				}
			} else {
				i--
			}
			out = append(out, map[string]any{"role": "user", "content": blocks})
		default:
			if len(m.Parts) == 1 && m.Parts[0].Type == llm.PartText && m.Role != llm.RoleAssistant {
				out = append(out, map[string]any{"role": string(m.Role), "content": m.Parts[0].Text})
				continue
			}
			var blocks []any
			for _, p := range m.Parts {
				switch p.Type {
				case llm.PartText:
					blocks = append(blocks, map[string]any{"type": "text", "text": p.Text})
				case llm.PartToolCall:
					var in any
					_ = json.Unmarshal([]byte(p.ToolCall.Arguments), &in)
					blocks = append(blocks, map[string]any{"type": "tool_use", "id": p.ToolCall.ID, "name": p.ToolCall.Name, "input": in})
				}
			}
			out = append(out, map[string]any{"role": string(m.Role), "content": blocks})
		}
	}
	return normalize(out)
}

// normalize round-trips v through JSON so values compare with decoded
// files.
func normalize(v any) []any {
	b, _ := json.Marshal(v)
	var out []any
	_ = json.Unmarshal(b, &out)
	return out
}

func readWireJSON(t *testing.T, path string) []any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
