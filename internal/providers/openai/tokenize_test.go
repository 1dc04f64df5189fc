package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// TestCountPromptRendersThenTokenizes checks the two calls against
// llama-server's documented shapes (tools/server/README.md): the chat body
// to /apply-template, its prompt to /tokenize with the BOS added.
func TestCountPromptRendersThenTokenizes(t *testing.T) {
	var applied, tokenized map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/apply-template":
			json.Unmarshal(body, &applied)
			io.WriteString(w, `{"prompt":"<|im_start|>system\nbe brief<|im_end|>\n<|im_start|>assistant\n"}`)
		case "/tokenize":
			json.Unmarshal(body, &tokenized)
			io.WriteString(w, `{"tokens":[151643,151644,8948,198,1371,10063,151645,198,151644,77091,198]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	p, err := New(Options{BaseURL: srv.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{System: "be brief", Tools: []llm.ToolSpec{{Name: "read_file", Description: "read", Parameters: json.RawMessage(`{"type":"object"}`)}},
		Messages: []llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{{Type: llm.PartText, Text: "."}}}}}
	n, err := p.CountPrompt(context.Background(), req)
	if err != nil || n != 11 {
		t.Fatalf("CountPrompt = %d, %v", n, err)
	}
	if tools, _ := applied["tools"].([]any); len(tools) != 1 || applied["stream"] == true {
		t.Errorf("/apply-template got %v", applied)
	}
	if tokenized["add_special"] != true || !strings.HasPrefix(tokenized["content"].(string), "<|im_start|>system") {
		t.Errorf("/tokenize got %v", tokenized)
	}
}

func TestCountPromptFailsOnAServerWithoutTheEndpoints(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	p, _ := New(Options{BaseURL: srv.URL, Model: "m"})
	if n, err := p.CountPrompt(context.Background(), llm.Request{}); err == nil || n != 0 {
		t.Fatalf("CountPrompt = %d, %v", n, err)
	}
}
