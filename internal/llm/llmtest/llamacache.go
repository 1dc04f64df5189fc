package llmtest

// llama-server's prompt cache, counted honestly. A llama-server slot keeps
// the tokens of its last prompt; a new request reuses the longest common
// prefix of its tokens with them (cache_prompt, on by default) and
// processes only the rest. The final chunk reports both, in usage
// (prompt_tokens, prompt_tokens_details.cached_tokens) and in timings
// (cache_n, prompt_n, predicted_n): server_task_result_cmpl_final and
// server_slot_stats::to_json in ggml-org/llama.cpp
// tools/server/server-task.cpp and server-common.cpp, and
// tools/server/README.md "Timings and context usage".
//
// The fake renders each chat request's prompt as text the way a ChatML
// template (Qwen2.5's) lays it out (renderPrompt) and counts tokens as
// bytes/4 of that text: prompt tokens are the rendered bytes/4 rounded up,
// cached tokens the bytes of the common prefix with the previous
// request's rendered prompt, /4 rounded down, and never the whole prompt
// (llama-server always evaluates at least one token: "need to evaluate at
// least 1 token" in tools/server/server-context.cpp). So a client that
// rewrites an earlier message, reorders tools or changes the system prompt
// between requests sees its cache hits fall as a real server would show
// them. Simplifications: one slot (every chat request, summaries
// included, replaces the cached prompt, as with llama-server -np 1); the
// reply's own tokens, which a real slot also keeps, are not counted, so
// cached tokens are a lower bound of a real server's; a request answered
// with an HTTP error leaves the cache alone.

import (
	"bytes"
	"encoding/json"
	"strings"
)

// PromptCount is what the fake llama-server counted for one chat request.
type PromptCount struct {
	// Tokens is the whole prompt (usage.prompt_tokens), Cached the tokens
	// reused from the previous prompt (cached_tokens, timings.cache_n).
	Tokens, Cached int
}

// LlamaServerCache makes the server answer every chat completion as
// llama-server with one slot does: usage with prompt_tokens_details and a
// timings object, counted from the rendered prompt and the previous
// request's (see the top of llamacache.go). A turn's usage step still sets
// the completion tokens; its prompt tokens are ignored.
func (s *Server) LlamaServerCache() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil {
		s.cache = &promptCache{}
	}
}

// PromptCounts returns what LlamaServerCache counted for each chat
// request so far, in order.
func (s *Server) PromptCounts() []PromptCount {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil {
		return nil
	}
	return append([]PromptCount(nil), s.cache.counts...)
}

// promptCache is the one slot's cached prompt.
type promptCache struct {
	last   []byte
	counts []PromptCount
}

// count counts the prompt of req against the cached one; keep replaces
// the cached prompt with it (the server processed the request).
func (c *promptCache) count(req Request, keep bool) PromptCount {
	prompt := renderPrompt(req.Map())
	n := commonPrefix(prompt, c.last)
	pc := PromptCount{Tokens: (len(prompt) + 3) / 4}
	pc.Cached = min(n/4, max(pc.Tokens-1, 0))
	if keep {
		c.last = prompt
		c.counts = append(c.counts, pc)
	}
	return pc
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// renderPrompt renders a Chat Completions body's messages and tools as
// ChatML: "<|im_start|>role\n...<|im_end|>\n" per message, the tool list
// appended to the system message in a <tools> block (one JSON object a
// line, keys sorted), an assistant's reasoning_content in <think>, its
// tool calls as <tool_call> blocks, tool results as user <tool_response>
// blocks, then the generation prompt "<|im_start|>assistant\n". Only what
// a template reads is rendered: sampling fields (max_tokens, temperature,
// stream) are not part of the prompt.
func renderPrompt(body map[string]any) []byte {
	var b bytes.Buffer
	msgs, _ := body["messages"].([]any)
	tools, _ := body["tools"].([]any)
	system := ""
	if len(msgs) > 0 {
		if m, _ := msgs[0].(map[string]any); m["role"] == "system" || m["role"] == "developer" {
			system, msgs = contentText(m["content"]), msgs[1:]
		}
	}
	if system != "" || len(tools) > 0 {
		b.WriteString("<|im_start|>system\n" + system)
		if len(tools) > 0 {
			b.WriteString("\n\n# Tools\n\n<tools>\n")
			for _, t := range tools {
				j, _ := json.Marshal(t) // maps marshal with sorted keys
				b.Write(j)
				b.WriteString("\n")
			}
			b.WriteString("</tools>")
		}
		b.WriteString("<|im_end|>\n")
	}
	for _, v := range msgs {
		m, _ := v.(map[string]any)
		renderMessage(&b, m)
	}
	b.WriteString("<|im_start|>assistant\n")
	return b.Bytes()
}

func renderMessage(b *bytes.Buffer, m map[string]any) {
	role, _ := m["role"].(string)
	if role == "tool" {
		b.WriteString("<|im_start|>user\n<tool_response>\n" + contentText(m["content"]) + "\n</tool_response><|im_end|>\n")
		return
	}
	b.WriteString("<|im_start|>" + role + "\n")
	if r, _ := m["reasoning_content"].(string); r != "" {
		b.WriteString("<think>\n" + r + "\n</think>\n\n")
	}
	b.WriteString(contentText(m["content"]))
	calls, _ := m["tool_calls"].([]any)
	for _, c := range calls {
		fn, _ := c.(map[string]any)["function"].(map[string]any)
		name, _ := fn["name"].(string)
		args, ok := fn["arguments"].(string)
		if !ok {
			j, _ := json.Marshal(fn["arguments"])
			args = string(j)
		}
		b.WriteString("\n<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": " + args + "}\n</tool_call>")
	}
	b.WriteString("<|im_end|>\n")
}

// contentText is a message's content as a template sees it: a string, or
// the text parts of an array joined (other parts rendered by type name).
func contentText(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, p := range c {
			pm, _ := p.(map[string]any)
			if t, ok := pm["text"].(string); ok {
				parts = append(parts, t)
				continue
			}
			typ, _ := pm["type"].(string)
			parts = append(parts, "<"+typ+">")
		}
		return strings.Join(parts, "")
	}
	return ""
}

// countPrompt sets st.Prompt for an OpenAI chat request when the cache is
// on. A turn that opens with an HTTP error was never processed: it leaves
// the cached prompt as it was.
func (s *Server) countPrompt(st *State, enc Encoder, turn Turn) {
	if _, ok := enc.(openAIEncoder); !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil {
		return
	}
	refused := len(turn.Steps) > 0 && turn.Steps[0].Kind == KindError
	pc := s.cache.count(st.Request, !refused)
	st.Prompt = &pc
}
