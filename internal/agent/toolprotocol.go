package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	jsonschema "github.com/zero-agent/zero/internal/llm/schema"
)

// ToolProtocol is how tools reach the model (config toolProtocol).
//
// Native sends the tool schemas in the request's tools field and reads
// structured calls. Prompted is for a server that refuses tools
// (llama-server without --jinja answers HTTP 500 "tools param requires
// --jinja flag"; Ollama answers 400 "<model> does not support tools"): the
// tools are listed compactly in the system prompt, the request has no
// tools field, the model writes Hermes <tool_call> blocks that the text
// tool-call recovery parses, and the history goes out as plain text (calls
// as <tool_call> blocks, results as <tool_response> blocks in user
// messages), since such a server has no tool role either. Auto (the zero
// value) is native until the server refuses tools, then prompted.
type ToolProtocol string

// Tool protocols.
const (
	ToolProtocolAuto     ToolProtocol = ""
	ToolProtocolNative   ToolProtocol = "native"
	ToolProtocolPrompted ToolProtocol = "prompted"
)

// PromptedTools reports whether requests use the prompted tool protocol.
func (a *Agent) PromptedTools() bool { return a.prompted }

// toolsRefused reports an error by which the server refuses the tools
// field itself: llama.cpp's oaicompat_chat_params_parse throws "tools
// param requires --jinja flag" (ggml-org/llama.cpp tools/server/utils.hpp),
// Ollama answers "<model> does not support tools" for a model without the
// tools capability (internal/llm/llmtest/ollama.go holds its exact body).
func toolsRefused(err error) bool {
	var pe *llm.ProviderError
	if err == nil || !errors.As(err, &pe) {
		return false
	}
	m := strings.ToLower(pe.Message + " " + err.Error())
	return strings.Contains(m, "tools param requires --jinja") || strings.Contains(m, "does not support tools")
}

// switchToPrompted answers a refusal of tools: under ToolProtocolAuto it
// switches the session to the prompted protocol for good (one prompt
// cache miss; later requests are append-only again), tells the surface and
// Options.OnPromptedTools, and returns true so the turn is sent again once.
// Under ToolProtocolNative the refusal stays the run's one error, saying
// how to opt in.
func (r *run) switchToPrompted(err error, req llm.Request) (bool, error) {
	a := r.a
	if a.prompted || len(req.Tools) == 0 || !toolsRefused(err) {
		return false, err
	}
	if a.opts.ToolProtocol == ToolProtocolNative {
		return false, fmt.Errorf(`%w (the config sets "toolProtocol": "native"; "auto" or "prompted" lists the tools in the prompt instead)`, err)
	}
	a.prompted = true
	r.emit(event.Event{Type: event.Warning, Text: "the server refuses native tool calls for " + a.opts.Model + "; listing the tools in the system prompt instead (prompted tool protocol) and sending the turn again"})
	if a.opts.OnPromptedTools != nil {
		a.opts.OnPromptedTools()
	}
	return true, nil
}

// offeredSpecs is the tools the model may call in req: its tools field,
// or in prompted mode the tools listed in its system prompt.
func (a *Agent) offeredSpecs(req llm.Request) []llm.ToolSpec {
	if a.prompted {
		return a.opts.Tools.Specs(a.opts.Visible)
	}
	return req.Tools
}

// promptedRequest rewrites a native request for the prompted protocol.
// Every message is rewritten on its own, the same way each time, so the
// requests after the switch stay append-only.
func promptedRequest(req llm.Request) llm.Request {
	specs := req.Tools
	req.Tools = nil
	req.System += promptedToolList(specs)
	msgs := make([]llm.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = promptedMessage(m)
	}
	req.Messages = msgs
	return req
}

// promptedToolList is the system prompt section that lists the tools in
// as few tokens as a small window allows: one line per tool with its
// argument names and types ("?" marks an optional one) and the first line
// of its description. The call format is the Hermes one Qwen and many
// other local models are trained on (Qwen2.5's chat template).
func promptedToolList(specs []llm.ToolSpec) string {
	if len(specs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n# Tools\nTo call a tool, write exactly:\n<tool_call>{\"name\":\"TOOL\",\"arguments\":{...}}</tool_call>\nthen stop; the result comes back as <tool_response>. Tools (? = optional):\n")
	for _, s := range specs {
		b.WriteString("- " + s.Name + "(" + strings.Join(argList(s.Parameters), ", ") + ")")
		if d := firstLine(s.Description); d != "" {
			b.WriteString(": " + d)
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// argList names a schema's properties in schema order as "name: type",
// with "?" after an optional one.
func argList(schema json.RawMessage) []string {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return nil
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	var props map[string]struct {
		Type  any `json:"type"`
		Enum  []any
		Items *struct {
			Type any `json:"type"`
		} `json:"items"`
	}
	if json.Unmarshal(s.Properties, &props) != nil {
		return nil
	}
	var out []string
	for _, name := range jsonschema.ObjectKeys(s.Properties) {
		p := props[name]
		t := typeName(p.Type)
		if t == "array" && p.Items != nil {
			t = typeName(p.Items.Type) + "[]"
		}
		opt := "?"
		if req[name] {
			opt = ""
		}
		out = append(out, name+opt+": "+t)
	}
	return out
}

func typeName(t any) string {
	switch v := t.(type) {
	case string:
		return v
	case []any:
		var names []string
		for _, x := range v {
			if s, ok := x.(string); ok && s != "null" {
				names = append(names, s)
			}
		}
		return strings.Join(names, "|")
	}
	return "any"
}

// firstLine is a description's first sentence or line, at most 120 bytes.
func firstLine(d string) string {
	d = strings.TrimSpace(d)
	if i := strings.IndexByte(d, '\n'); i >= 0 {
		d = d[:i]
	}
	if i := strings.Index(d, ". "); i >= 0 {
		d = d[:i+1]
	}
	if len(d) > 120 {
		d = strings.TrimSpace(d[:117]) + "..."
	}
	return d
}

// promptedMessage writes one message as plain text: an assistant's calls
// become <tool_call> blocks after its text, tool results become one user
// message of <tool_response> blocks (what Qwen2.5's template renders for
// role "tool"; llama-server without --jinja applies a built-in template
// that knows no tool role, and Ollama's template of a model without tools
// has none either).
func promptedMessage(m llm.Message) llm.Message {
	var parts []llm.Part
	var text []string
	for _, p := range m.Parts {
		switch p.Type {
		case llm.PartText:
			text = append(text, p.Text)
		case llm.PartToolCall:
			text = append(text, callText(*p.ToolCall))
		case llm.PartToolResult:
			text = append(text, "<tool_response>\n"+p.ToolResult.Content+"\n</tool_response>")
		default:
			parts = append(parts, p)
		}
	}
	role := m.Role
	if role == llm.RoleTool {
		role = llm.RoleUser
	}
	if len(text) > 0 {
		parts = append(parts, llm.Part{Type: llm.PartText, Text: strings.Join(text, "\n")})
	}
	return llm.Message{Role: role, Parts: parts}
}

// callText writes a call in the format the tool list asks for.
func callText(c llm.ToolCall) string {
	args, err := c.ArgumentsJSON()
	if err != nil {
		args, _ = json.Marshal(c.Arguments)
	}
	name, _ := json.Marshal(c.Name)
	return `<tool_call>{"name":` + string(name) + `,"arguments":` + compactJSON(args) + `}</tool_call>`
}
