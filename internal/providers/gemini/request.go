package gemini

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
)

// Wire shapes of GenerateContentRequest (REST, camelCase), only the fields
// Zero sends.
type (
	wireRequest struct {
		Contents          []wireContent     `json:"contents"`
		SystemInstruction *wireContent      `json:"systemInstruction,omitempty"`
		Tools             []wireTool        `json:"tools,omitempty"`
		GenerationConfig  *generationConfig `json:"generationConfig,omitempty"`
	}
	wireContent struct {
		Role  string     `json:"role,omitempty"`
		Parts []wirePart `json:"parts"`
	}
	// wirePart is one part, sent and received. Exactly one payload is set.
	wirePart struct {
		Text             *string           `json:"text,omitempty"`
		Thought          bool              `json:"thought,omitempty"`
		ThoughtSignature string            `json:"thoughtSignature,omitempty"`
		InlineData       *inlineData       `json:"inlineData,omitempty"`
		FunctionCall     *functionCall     `json:"functionCall,omitempty"`
		FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
	}
	inlineData struct {
		MimeType string `json:"mimeType"`
		// Data is base64 (encoding/json encodes []byte that way).
		Data []byte `json:"data"`
	}
	functionCall struct {
		ID   string          `json:"id,omitempty"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args,omitempty"`
	}
	functionResponse struct {
		Name     string         `json:"name"`
		Response map[string]any `json:"response"`
	}
	wireTool struct {
		FunctionDeclarations []functionDeclaration `json:"functionDeclarations"`
	}
	functionDeclaration struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	}
	generationConfig struct {
		MaxOutputTokens int             `json:"maxOutputTokens,omitempty"`
		Temperature     *float64        `json:"temperature,omitempty"`
		ThinkingConfig  *thinkingConfig `json:"thinkingConfig,omitempty"`
		// ResponseMimeType and ResponseSchema are structured output
		// (Request.ResponseSchema; see structuredOutput).
		ResponseMimeType string          `json:"responseMimeType,omitempty"`
		ResponseSchema   json.RawMessage `json:"responseSchema,omitempty"`
	}
	thinkingConfig struct {
		IncludeThoughts bool   `json:"includeThoughts"`
		ThinkingBudget  *int   `json:"thinkingBudget,omitempty"`
		ThinkingLevel   string `json:"thinkingLevel,omitempty"`
	}
)

// Thinking budgets (tokens) for Request.ReasoningEffort on models that
// take thinkingBudget (Gemini 2.5); Gemini 3 takes thinkingLevel instead.
var thinkingBudget = map[string]int{"low": 1024, "medium": 8192, "high": 24576}

// encodeRequest builds the request body. names maps real tool names to wire
// names; it gains entries for tools named in history but not offered now.
func encodeRequest(model string, req llm.Request, tools []llm.ToolSpec, names *schema.NameMap) (*wireRequest, error) {
	w := &wireRequest{Contents: []wireContent{}}
	var system []wirePart
	if strings.TrimSpace(req.System) != "" {
		system = append(system, textPart(req.System))
	}
	// callNames lets a result without a Name be answered by its call's name.
	callNames := map[string]string{}
	for i, m := range req.Messages {
		var role string
		var parts []wirePart
		switch m.Role {
		case llm.RoleSystem:
			if t := m.Text(); strings.TrimSpace(t) != "" {
				system = append(system, textPart(t))
			}
			continue
		case llm.RoleUser, llm.RoleTool:
			role = "user"
			parts = userParts(m, names, callNames)
		case llm.RoleAssistant:
			role = "model"
			parts = modelParts(m, names, callNames)
		default:
			return nil, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
		if len(parts) == 0 {
			continue
		}
		if n := len(w.Contents); n > 0 && w.Contents[n-1].Role == role {
			w.Contents[n-1].Parts = append(w.Contents[n-1].Parts, parts...)
			continue
		}
		w.Contents = append(w.Contents, wireContent{Role: role, Parts: parts})
	}
	if len(system) > 0 {
		w.SystemInstruction = &wireContent{Parts: system}
	}
	if len(tools) > 0 {
		decls := make([]functionDeclaration, 0, len(tools))
		for _, t := range tools {
			d := functionDeclaration{Name: t.Name, Description: t.Description}
			if hasProperties(t.Parameters) {
				d.Parameters = t.Parameters
			}
			decls = append(decls, d)
		}
		w.Tools = []wireTool{{FunctionDeclarations: decls}}
	}
	gc := &generationConfig{MaxOutputTokens: req.MaxTokens, Temperature: req.Temperature}
	if effort := strings.ToLower(req.ReasoningEffort); effort != "" && effort != "none" {
		tc := &thinkingConfig{IncludeThoughts: true}
		if strings.HasPrefix(model, "gemini-3") {
			tc.ThinkingLevel = effort
			if effort == "medium" {
				tc.ThinkingLevel = "high"
			}
		} else {
			b, ok := thinkingBudget[effort]
			if !ok {
				b = thinkingBudget["medium"]
			}
			tc.ThinkingBudget = &b
		}
		gc.ThinkingConfig = tc
	}
	if len(req.ResponseSchema) > 0 && structuredOutput(model, len(w.Tools) > 0) {
		if out := schema.ForOutput(schema.Gemini, req.ResponseSchema); out.Schema != nil {
			gc.ResponseMimeType, gc.ResponseSchema = "application/json", out.Schema
		}
	}
	if gc.MaxOutputTokens > 0 || gc.Temperature != nil || gc.ThinkingConfig != nil || gc.ResponseSchema != nil {
		w.GenerationConfig = gc
	}
	return w, nil
}

// structuredOutput reports whether a request may carry a response
// schema: Gemini 3 models combine it with function calling, earlier ones
// reject a JSON response type next to function declarations, so they
// get it only on a request without tools
// (https://ai.google.dev/gemini-api/docs/structured-output, "Structured
// outputs with tools").
func structuredOutput(model string, tools bool) bool {
	return !tools || strings.HasPrefix(model, "gemini-3")
}

// hasProperties reports whether an object schema declares any property.
// Gemini rejects an OBJECT schema with empty properties ("should be
// non-empty for OBJECT type"), so a tool without arguments is declared
// without parameters.
func hasProperties(raw json.RawMessage) bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	return json.Unmarshal(raw, &s) == nil && len(s.Properties) > 0
}

func textPart(s string) wirePart { return wirePart{Text: &s} }

func userParts(m llm.Message, names *schema.NameMap, callNames map[string]string) []wirePart {
	var out, results, resultImages []wirePart
	for _, p := range m.Parts {
		switch p.Type {
		case llm.PartText:
			if p.Text != "" {
				out = append(out, textPart(p.Text))
			}
		case llm.PartImage:
			if p.Image != nil && len(p.Image.Data) > 0 {
				out = append(out, wirePart{InlineData: &inlineData{MimeType: p.Image.MediaType, Data: p.Image.Data}})
			}
		case llm.PartToolResult:
			r := p.ToolResult
			if r == nil {
				continue
			}
			name := r.Name
			if name == "" {
				name = callNames[r.CallID]
			}
			resp := map[string]any{"output": r.Content}
			if r.IsError {
				resp = map[string]any{"error": r.Content}
			}
			results = append(results, wirePart{FunctionResponse: &functionResponse{Name: names.Add("", name), Response: resp}})
			for _, img := range r.Images { // a tool's images: inline data after the responses
				resultImages = append(resultImages, wirePart{InlineData: &inlineData{MimeType: img.MediaType, Data: img.Data}})
			}
		}
	}
	// Function responses answer the previous model turn; they go first,
	// every one of them before the images the tools returned.
	return append(append(results, resultImages...), out...)
}

// modelParts replays a model turn: reasoning as thought parts with their
// signatures, text, then function calls with theirs. A signature whose
// reasoning text is empty belonged to a text part and goes back on the
// first text part.
func modelParts(m llm.Message, names *schema.NameMap, callNames map[string]string) []wirePart {
	var out []wirePart
	pendingSig := ""
	for _, p := range m.Parts {
		switch p.Type {
		case llm.PartReasoning:
			if p.Redacted {
				continue
			}
			if p.Text == "" {
				pendingSig = p.Signature
				continue
			}
			wp := textPart(p.Text)
			wp.Thought = true
			wp.ThoughtSignature = p.Signature
			out = append(out, wp)
		case llm.PartText:
			if p.Text == "" {
				continue
			}
			wp := textPart(p.Text)
			wp.ThoughtSignature, pendingSig = pendingSig, ""
			out = append(out, wp)
		case llm.PartToolCall:
			c := p.ToolCall
			if c == nil {
				continue
			}
			callNames[c.ID] = c.Name
			// functionCall.args must be a JSON object (a Struct):
			// arguments the model wrote as broken JSON go back wrapped
			// under llm.InvalidArgumentsKey, so the model still sees its
			// text beside the error result the loop answered it with.
			args := c.ArgumentsObject()
			out = append(out, wirePart{FunctionCall: &functionCall{Name: names.Add("", c.Name), Args: args},
				ThoughtSignature: c.Signature})
		}
	}
	return out
}
