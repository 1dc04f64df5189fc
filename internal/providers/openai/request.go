package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/json"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
)

// Wire shapes of a Chat Completions request, per the OpenAI API reference
// (POST /v1/chat/completions) and the subset OpenAI-compatible servers
// accept.
type wireRequest struct {
	Model               string          `json:"model"`
	Messages            []wireMessage   `json:"messages"`
	Tools               []wireTool      `json:"tools,omitempty"`
	Stream              bool            `json:"stream"`
	StreamOptions       *streamOptions  `json:"stream_options,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	ReasoningEffort     string          `json:"reasoning_effort,omitempty"`
	ResponseFormat      *responseFormat `json:"response_format,omitempty"`
}

// responseFormat is OpenAI's structured output (response_format
// json_schema, https://platform.openai.com/docs/guides/structured-outputs).
// The schema is rewritten by schema.ForOutput: strict when the strict form
// keeps its meaning, non-strict otherwise; the answer is validated locally
// against the user's schema either way.
type responseFormat struct {
	Type       string         `json:"type"`
	JSONSchema responseSchema `json:"json_schema"`
}

type responseSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireMessage struct {
	Role string `json:"role"`
	// Content is a string, a []contentPart (user messages with images), or
	// absent.
	Content    any            `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name string `json:"name"`
	// Arguments is always a JSON string when sent (case B06: some servers
	// answer with an object, none accept one back).
	Arguments string `json:"arguments"`
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireToolSpec `json:"function"`
}

type wireToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// buildRequest renders req as a Chat Completions body. Reasoning parts are
// not sent back (OpenAI-compatible servers neither need nor accept them);
// tool-call arguments go out as a JSON string; each tool result becomes its
// own role=tool message; images become data URLs. req.Tools are sent as
// given (the caller has cleaned them, schema.PrepareTools); names, when not
// nil, maps the real tool names of calls in history to their wire names so
// the history matches the tool list (case B31).
func buildRequest(req llm.Request, model string, o *Options, names *schema.NameMap, stream bool) ([]byte, error) {
	w := wireRequest{Model: model, Stream: stream, Temperature: req.Temperature, ReasoningEffort: req.ReasoningEffort}
	if o.StructuredOutput && len(req.ResponseSchema) > 0 {
		if out := schema.ForOutput(schema.OpenAI, req.ResponseSchema); out.Schema != nil {
			w.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: responseSchema{Name: "answer", Schema: out.Schema, Strict: out.Strict}}
		}
	}
	if stream && !o.NoStreamOptions {
		w.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	if o.MaxCompletionTokens {
		w.MaxCompletionTokens = req.MaxTokens
	} else {
		w.MaxTokens = req.MaxTokens
	}
	id := func(s string) string {
		if o.MistralIDs {
			return mistralID(s)
		}
		return s
	}
	if req.System != "" {
		w.Messages = append(w.Messages, wireMessage{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case llm.RoleSystem:
			w.Messages = append(w.Messages, wireMessage{Role: "system", Content: m.Text()})
		case llm.RoleUser:
			w.Messages = append(w.Messages, userMessage(m))
		case llm.RoleAssistant:
			wm := wireMessage{Role: "assistant", Content: m.Text()}
			for _, c := range m.ToolCalls() {
				wm.ToolCalls = append(wm.ToolCalls, wireToolCall{
					ID: id(c.ID), Type: "function",
					Function: wireFunction{Name: wireName(names, c.Name), Arguments: argumentString(c.Arguments)},
				})
			}
			w.Messages = append(w.Messages, wm)
		case llm.RoleTool:
			for _, r := range m.ToolResults() {
				w.Messages = append(w.Messages, wireMessage{Role: "tool", ToolCallID: id(r.CallID), Content: r.Content})
			}
			if t := m.Text(); t != "" {
				w.Messages = append(w.Messages, wireMessage{Role: "user", Content: t})
			}
		}
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(bytes.TrimSpace(params)) == 0 || string(params) == "null" {
			params = emptySchema
		}
		w.Tools = append(w.Tools, wireTool{Type: "function", Function: wireToolSpec{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	return json.Marshal(w)
}

// wireName returns the name a call in history is sent under: its wire name
// in names (a tool no longer offered gets one too, so every name sent is
// legal), or the name itself when names is nil.
func wireName(names *schema.NameMap, name string) string {
	if names == nil {
		return name
	}
	return names.Add("", name)
}

// userMessage sends plain text as a string and text with images as parts.
func userMessage(m llm.Message) wireMessage {
	hasImage := false
	for _, p := range m.Parts {
		if p.Type == llm.PartImage && p.Image != nil {
			hasImage = true
		}
	}
	if !hasImage {
		return wireMessage{Role: "user", Content: m.Text()}
	}
	var parts []contentPart
	for _, p := range m.Parts {
		switch {
		case p.Type == llm.PartText:
			parts = append(parts, contentPart{Type: "text", Text: p.Text})
		case p.Type == llm.PartImage && p.Image != nil:
			url := "data:" + p.Image.MediaType + ";base64," + base64.StdEncoding.EncodeToString(p.Image.Data)
			parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{URL: url}})
		}
	}
	return wireMessage{Role: "user", Content: parts}
}

// argumentString returns the arguments as the JSON string servers expect:
// valid JSON compacted, empty as "{}". Arguments that are not valid JSON
// (a truncated call) are sent as "{}" because llama.cpp and vLLM templates
// parse them and fail the whole request otherwise; the tool result already
// told the model what went wrong.
func argumentString(args string) string {
	b := bytes.TrimSpace([]byte(args))
	if len(b) == 0 || !json.Valid(b) {
		return "{}"
	}
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return "{}"
	}
	return buf.String()
}
