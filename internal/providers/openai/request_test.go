package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

func TestBuildRequest(t *testing.T) {
	temp := 0.2
	req := llm.Request{
		System:          "You are Zero.",
		MaxTokens:       1024,
		Temperature:     &temp,
		ReasoningEffort: "low",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Parts: []llm.Part{
				{Type: llm.PartText, Text: "what is in this screenshot?"},
				{Type: llm.PartImage, Image: &llm.Image{MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}},
			}},
			{Role: llm.RoleAssistant, Parts: []llm.Part{
				{Type: llm.PartReasoning, Text: "secret thoughts", Signature: "sig"},
				{Type: llm.PartText, Text: "Let me look."},
				{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{ "path": "a.go" }`}},
				{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "call_2", Name: "list_dir", Arguments: ""}},
				{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "call_3", Name: "bash", Arguments: `{"command": "rm -rf bu`}},
			}},
			{Role: llm.RoleTool, Parts: []llm.Part{
				{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: "call_1", Name: "read_file", Content: "package a"}},
				{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: "call_2", Name: "list_dir", Content: "a.go"}},
				{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: "call_3", Name: "bash", Content: "error: arguments are not valid JSON", IsError: true}},
			}},
		},
		Tools: []llm.ToolSpec{
			{Name: "read_file", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			{Name: "list_dir", Description: "List"},
		},
	}
	b, err := buildRequest(req, "qwen3", &Options{}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"qwen3","messages":[` +
		`{"role":"system","content":"You are Zero."},` +
		`{"role":"user","content":[{"type":"text","text":"what is in this screenshot?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw=="}}]},` +
		`{"role":"assistant","content":"Let me look.","tool_calls":[` +
		`{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}},` +
		`{"id":"call_2","type":"function","function":{"name":"list_dir","arguments":"{}"}},` +
		`{"id":"call_3","type":"function","function":{"name":"bash","arguments":"{}"}}]},` +
		`{"role":"tool","content":"package a","tool_call_id":"call_1"},` +
		`{"role":"tool","content":"a.go","tool_call_id":"call_2"},` +
		`{"role":"tool","content":"error: arguments are not valid JSON","tool_call_id":"call_3"}],` +
		`"tools":[{"type":"function","function":{"name":"read_file","description":"Read a file","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},` +
		`{"type":"function","function":{"name":"list_dir","description":"List","parameters":{"type":"object","properties":{}}}}],` +
		`"stream":true,"stream_options":{"include_usage":true},"max_tokens":1024,"temperature":0.2,"reasoning_effort":"low"}`
	if string(b) != want {
		t.Errorf("request:\n%s\nwant:\n%s", b, want)
	}
}

func TestBuildRequestOptions(t *testing.T) {
	req := llm.Request{MaxTokens: 50, Messages: []llm.Message{
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "toolu_01ABC", Name: "x", Arguments: "{}"}}}},
		llm.ToolResultMessage(llm.ToolResult{CallID: "toolu_01ABC", Content: "ok"}),
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "a1B2c3D4e", Name: "x", Arguments: "{}"}}}},
	}}
	b, err := buildRequest(req, "mistral", &Options{MistralIDs: true, NoStreamOptions: true, MaxCompletionTokens: true}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	var w wireRequest
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	id := w.Messages[0].ToolCalls[0].ID
	if !isMistralID(id) || w.Messages[1].ToolCallID != id {
		t.Errorf("mistral ids: call %q result %q", id, w.Messages[1].ToolCallID)
	}
	if w.Messages[2].ToolCalls[0].ID != "a1B2c3D4e" {
		t.Errorf("a valid 9-char id was rewritten to %q", w.Messages[2].ToolCalls[0].ID)
	}
	if w.StreamOptions != nil || w.MaxTokens != 0 || w.MaxCompletionTokens != 50 {
		t.Errorf("options: %s", b)
	}
}

func TestNewSetsMaxCompletionTokensForOpenAI(t *testing.T) {
	p, err := New(Options{BaseURL: "https://api.openai.com/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if !p.o.MaxCompletionTokens || p.endpoint != "https://api.openai.com/v1/chat/completions" {
		t.Errorf("options %+v endpoint %s", p.o, p.endpoint)
	}
	p, _ = New(Options{BaseURL: "https://openrouter.ai/api/v1/"})
	if p.o.MaxCompletionTokens || p.endpoint != "https://openrouter.ai/api/v1/chat/completions" {
		t.Errorf("openrouter endpoint %s", p.endpoint)
	}
}

func TestIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := newCallID(true)
		if !isMistralID(id) || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
	if mistralID("call_abc") != mistralID("call_abc") || !isMistralID(mistralID("toolu_x")) {
		t.Error("mistralID is not deterministic or not 9 alphanumerics")
	}
}

// TestOutputCapFieldPerServer: api.openai.com gets the cap as
// max_completion_tokens (its reasoning models refuse max_tokens); every
// other OpenAI-compatible server gets max_tokens, the one field
// llama-server reads (params_from_json_cmpl in ggml-org/llama.cpp
// tools/server: n_predict falls back to max_tokens, max_completion_tokens
// is ignored, which would leave the reply unbounded) and that vLLM, Ollama
// and LM Studio accept.
func TestOutputCapFieldPerServer(t *testing.T) {
	req := llm.Request{Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}, MaxTokens: 2730}
	for base, want := range map[string]string{
		"https://api.openai.com/v1": `"max_completion_tokens":2730`,
		"http://127.0.0.1:8080":     `"max_tokens":2730`,
		"http://127.0.0.1:11434/v1": `"max_tokens":2730`,
	} {
		p, err := New(Options{BaseURL: base})
		if err != nil {
			t.Fatal(err)
		}
		b, err := buildRequest(req, "m", &p.o, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) || strings.Count(string(b), "max_") != 1 {
			t.Errorf("%s: %s, want only %s", base, b, want)
		}
	}
}
