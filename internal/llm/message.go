package llm

import (
	"encoding/json"
	"strings"
)

// Role is who authored a message. Tool results travel in RoleTool messages;
// providers whose wire format puts them elsewhere (Anthropic: user content
// blocks) translate on the way out.
type Role string

// Roles of a conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// PartType names the kind of one message part.
type PartType string

// Part types.
const (
	PartText       PartType = "text"
	PartImage      PartType = "image"
	PartReasoning  PartType = "reasoning"
	PartToolCall   PartType = "tool_call"
	PartToolResult PartType = "tool_result"
)

// Message is one conversation entry: a role and an ordered list of parts.
// The zero value is an empty message with no role.
type Message struct {
	Role  Role   `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one piece of a message. Exactly one of the payload fields is used,
// chosen by Type: Text for text and reasoning, Image, ToolCall or ToolResult.
type Part struct {
	Type PartType `json:"type"`
	// Text holds the text of a text or reasoning part.
	Text string `json:"text,omitempty"`
	// Signature is the opaque signature of a reasoning part (Anthropic
	// thinking "signature", Gemini "thoughtSignature"); providers that
	// require it get it replayed verbatim on later turns.
	Signature string `json:"signature,omitempty"`
	// Redacted marks an Anthropic redacted_thinking block; Text then holds
	// its opaque data.
	Redacted   bool        `json:"redacted,omitempty"`
	Image      *Image      `json:"image,omitempty"`
	ToolCall   *ToolCall   `json:"toolCall,omitempty"`
	ToolResult *ToolResult `json:"toolResult,omitempty"`
}

// Image is inline image data (e.g. a screenshot pasted by the user).
type Image struct {
	// MediaType is the MIME type, e.g. "image/png".
	MediaType string `json:"mediaType"`
	// Data is the raw image bytes (base64 in JSON).
	Data []byte `json:"data"`
}

// ToolCall is a model's request to run one tool.
type ToolCall struct {
	// ID is unique within a session. Providers generate one when the
	// server sends none (case B06); it is never empty once a call leaves
	// a provider.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the raw argument text as the model produced it,
	// normally a JSON object. It is kept byte for byte for the session log;
	// use ArgumentsJSON for a canonical object.
	Arguments string `json:"arguments"`
	// Signature is a provider's opaque signature attached to the call
	// (Gemini thoughtSignature on a functionCall part).
	Signature string `json:"signature,omitempty"`
	// Recovered marks a call recovered from text the model wrote (Hermes
	// <tool_call>, Mistral [TOOL_CALLS], ...) rather than a structured call.
	Recovered bool `json:"recovered,omitempty"`
}

// ToolResult is the outcome of one tool call, sent back to the model.
type ToolResult struct {
	// CallID is the ToolCall.ID this answers.
	CallID string `json:"callId"`
	// Name is the tool's name (Gemini's functionResponse needs it).
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
	// Images are images the tool returned (an MCP tool's image content),
	// sent as image parts where the provider takes them in a tool result
	// (Anthropic, Gemini); Content describes them for the others.
	Images []Image `json:"images,omitempty"`
}

// ArgumentsJSON returns the call's arguments as a JSON object. Empty
// arguments and a bare null become "{}"; anything else that is not an
// object (an array, a string, broken JSON) is an error. It does not repair
// sloppy JSON; that is the job of the text-call recovery layer.
func (c ToolCall) ArgumentsJSON() (json.RawMessage, error) {
	s := strings.TrimSpace(c.Arguments)
	if s == "" {
		return json.RawMessage("{}"), nil
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	if v == nil { // "null" unmarshals into a nil map without an error
		return json.RawMessage("{}"), nil
	}
	return json.RawMessage(s), nil
}

// InvalidArgumentsKey is the one member of the object ArgumentsObject
// returns for arguments that are not a JSON object; its value is the raw
// text the model wrote.
const InvalidArgumentsKey = "_invalid_arguments"

// ArgumentsObject returns the call's arguments as a JSON object, for wires
// that require one: Anthropic's tool_use.input and Gemini's
// functionCall.args must be objects, so a call whose arguments were
// broken JSON (or an array, a string, a number) cannot be replayed verbatim as
// the OpenAI wire does with its arguments string. Such arguments become
// {"_invalid_arguments": "<raw text>"} so the model still sees what it
// wrote next to the error result that answered it, instead of "{}".
// Empty arguments become "{}"; a valid object comes back as written.
func (c ToolCall) ArgumentsObject() json.RawMessage {
	if args, err := c.ArgumentsJSON(); err == nil && len(args) > 0 && args[0] == '{' {
		return args
	}
	b, _ := json.Marshal(map[string]string{InvalidArgumentsKey: c.Arguments})
	return b
}

// TextMessage returns a message with a single text part.
func TextMessage(role Role, text string) Message {
	return Message{Role: role, Parts: []Part{{Type: PartText, Text: text}}}
}

// ToolResultMessage returns a RoleTool message carrying one result.
func ToolResultMessage(r ToolResult) Message {
	return Message{Role: RoleTool, Parts: []Part{{Type: PartToolResult, ToolResult: &r}}}
}

// Text returns the concatenation of the message's text parts (reasoning
// excluded).
func (m Message) Text() string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Type == PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// Reasoning returns the concatenation of the message's reasoning parts.
func (m Message) Reasoning() string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Type == PartReasoning && !p.Redacted {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// ToolCalls returns the message's tool calls in order.
func (m Message) ToolCalls() []ToolCall {
	var out []ToolCall
	for _, p := range m.Parts {
		if p.Type == PartToolCall && p.ToolCall != nil {
			out = append(out, *p.ToolCall)
		}
	}
	return out
}

// ToolResults returns the message's tool results in order.
func (m Message) ToolResults() []ToolResult {
	var out []ToolResult
	for _, p := range m.Parts {
		if p.Type == PartToolResult && p.ToolResult != nil {
			out = append(out, *p.ToolResult)
		}
	}
	return out
}

// ToolSpec describes one tool offered to the model.
type ToolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is a JSON Schema object (draft 2020-12 subset) for the
	// arguments. Providers clean it into the dialect they accept.
	Parameters json.RawMessage `json:"parameters"`
}

// Request is one completion request in neutral form.
type Request struct {
	// Model is the provider's model id, e.g. "gpt-4.1" or "qwen2.5-coder:7b".
	Model    string
	System   string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens caps the output tokens; 0 leaves the server default.
	MaxTokens int
	// Temperature is optional; nil leaves the server default.
	Temperature *float64
	// ReasoningEffort is "low", "medium" or "high"; empty for none.
	ReasoningEffort string
	// ResponseSchema, when set, is a JSON Schema the final text answer
	// must match (zero exec --output-schema). A provider with structured
	// output sends it rewritten by schema.ForOutput (OpenAI's
	// response_format, Anthropic's output_config.format, Gemini's
	// responseSchema); others ignore it, and the prompt says it anyway.
	ResponseSchema json.RawMessage
}
