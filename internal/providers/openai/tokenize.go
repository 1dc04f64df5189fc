package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
)

var _ llm.PromptCounter = (*Provider)(nil)

// CountPrompt counts req's prompt tokens as a llama.cpp server will: it
// renders the chat body Stream would send with the model's own template
// (POST /apply-template, which takes the same body and answers
// {"prompt": "…"}), then tokenizes that text with the BOS the server adds
// (POST /tokenize {"content", "add_special", "parse_special"} answers
// {"tokens": […]}). Only llama.cpp has both endpoints; callers ask only a
// server discovery identified as one.
//
// Source: https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md
// (POST /apply-template, POST /tokenize).
func (p *Provider) CountPrompt(ctx context.Context, req llm.Request) (int, error) {
	model := req.Model
	if model == "" {
		model = p.o.Model
	}
	tools, names, _ := schema.PrepareTools(schema.OpenAI, req.Tools)
	wreq := req
	wreq.Tools = tools
	o := p.o
	body, err := buildRequest(wreq, model, &o, names, false)
	if err != nil {
		return 0, err
	}
	root := strings.TrimSuffix(strings.TrimSuffix(p.endpoint, "/chat/completions"), "/v1")
	var rendered struct {
		Prompt *string `json:"prompt"`
	}
	if err := p.postJSON(ctx, root+"/apply-template", body, &rendered); err != nil {
		return 0, err
	}
	if rendered.Prompt == nil {
		return 0, fmt.Errorf("%s/apply-template answered no prompt", root)
	}
	tb, _ := json.Marshal(map[string]any{"content": *rendered.Prompt, "add_special": true, "parse_special": true})
	var counted struct {
		Tokens *[]json.RawMessage `json:"tokens"`
	}
	if err := p.postJSON(ctx, root+"/tokenize", tb, &counted); err != nil {
		return 0, err
	}
	if counted.Tokens == nil {
		return 0, fmt.Errorf("%s/tokenize answered no tokens", root)
	}
	return len(*counted.Tokens), nil
}

// postJSON posts body to url with the provider's headers and decodes a
// 200 answer into out.
func (p *Provider) postJSON(ctx context.Context, url string, body []byte, out any) error {
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range p.tc.Header {
		r.Header[k] = v
	}
	r.Header.Set("Content-Type", "application/json")
	resp, err := p.o.HTTPClient.Do(r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d: %.200s", url, resp.StatusCode, data)
	}
	return json.Unmarshal(data, out)
}
