package llmtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// OpenAI Chat Completions wire format, as api.openai.com streams it: one
// "data: {json}\n\n" frame per chunk, the role on the first chunk, tool-call
// deltas carrying index (id, type and name only on a call's first chunk),
// an empty-delta chunk with finish_reason, a usage chunk with "choices": []
// when the request set stream_options.include_usage, then "data: [DONE]".

func init() { registerEncoder(func() Encoder { return openAIEncoder{} }) }

type openAIEncoder struct{}

type oaChunk struct {
	ID      string     `json:"id"`
	Object  string     `json:"object"`
	Created int64      `json:"created"`
	Model   string     `json:"model"`
	Choices []oaChoice `json:"choices"`
	Usage   *oaUsage   `json:"usage,omitempty"`
}

type oaChoice struct {
	Index        int      `json:"index"`
	Delta        *oaDelta `json:"delta,omitempty"`
	Message      *oaDelta `json:"message,omitempty"`
	FinishReason *string  `json:"finish_reason"`
}

type oaDelta struct {
	Role             string       `json:"role,omitempty"`
	Content          *string      `json:"content,omitempty"`
	ReasoningContent *string      `json:"reasoning_content,omitempty"`
	ToolCalls        []oaToolCall `json:"tool_calls,omitempty"`
}

type oaToolCall struct {
	Index    *int    `json:"index,omitempty"`
	ID       *string `json:"id,omitempty"`
	Type     string  `json:"type,omitempty"`
	Function oaFunc  `json:"function"`
}

type oaFunc struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type oaUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func (openAIEncoder) Match(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions")
}

func (openAIEncoder) Streaming(req Request) bool {
	s, _ := req.Map()["stream"].(bool)
	return s
}

func (openAIEncoder) Begin(*State) []byte { return nil }

func (e openAIEncoder) frame(st *State, choices []oaChoice, usage *oaUsage) []byte {
	c := oaChunk{
		ID: "chatcmpl-llmtest-" + strconv.Itoa(st.Turn), Object: "chat.completion.chunk",
		Created: created, Model: st.Model, Choices: choices, Usage: usage,
	}
	if c.Choices == nil {
		c.Choices = []oaChoice{}
	}
	b, _ := json.Marshal(c)
	out := make([]byte, 0, len(b)+8)
	out = append(out, "data: "...)
	out = append(out, b...)
	return append(out, "\n\n"...)
}

// delta frames one delta, adding the role on the turn's first chunk.
func (e openAIEncoder) delta(st *State, d oaDelta) []byte {
	if st.Chunks == 0 {
		d.Role = "assistant"
	}
	st.Chunks++
	return e.frame(st, []oaChoice{{Delta: &d}}, nil)
}

func (e openAIEncoder) Step(st *State, s Step) []byte {
	var out []byte
	switch s.Kind {
	case KindText, KindReasoning:
		for _, p := range Pieces(s.Text, s.Chunks) {
			p := p
			d := oaDelta{Content: &p}
			if s.Kind == KindReasoning {
				d = oaDelta{ReasoningContent: &p}
			}
			out = append(out, e.delta(st, d)...)
		}
	case KindToolCall:
		idx := st.Calls
		id := st.CallID(s)
		for i, p := range Pieces(s.Args, s.Chunks) {
			tc := oaToolCall{Index: &idx, Function: oaFunc{Arguments: p}}
			if i == 0 {
				tc.ID, tc.Type, tc.Function.Name = &id, "function", s.Name
			}
			out = append(out, e.delta(st, oaDelta{ToolCalls: []oaToolCall{tc}})...)
		}
		st.Calls++
	}
	return out
}

func (e openAIEncoder) usage(st *State) *oaUsage {
	if st.Usage == nil {
		return nil
	}
	u := st.Usage
	return &oaUsage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
}

func (e openAIEncoder) End(st *State) []byte {
	reason := st.FinishReason("stop", "tool_calls")
	out := e.frame(st, []oaChoice{{Delta: &oaDelta{}, FinishReason: &reason}}, nil)
	opts, _ := st.Request.Map()["stream_options"].(map[string]any)
	if include, _ := opts["include_usage"].(bool); include && st.Usage != nil {
		out = append(out, e.frame(st, nil, e.usage(st))...)
	}
	return append(out, "data: [DONE]\n\n"...)
}

func (openAIEncoder) StreamError(_ *State, body []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, body) != nil {
		buf.Reset()
		buf.Write(bytes.ReplaceAll(body, []byte("\n"), []byte(" ")))
	}
	return append(append([]byte("data: "), buf.Bytes()...), "\n\n"...)
}

func (e openAIEncoder) Whole(st *State, steps []Step) []byte {
	var text, reasoning strings.Builder
	msg := &oaDelta{Role: "assistant"}
	for _, s := range steps {
		switch s.Kind {
		case KindText:
			text.WriteString(s.Text)
		case KindReasoning:
			reasoning.WriteString(s.Text)
		case KindToolCall:
			id := st.CallID(s)
			msg.ToolCalls = append(msg.ToolCalls, oaToolCall{ID: &id, Type: "function", Function: oaFunc{Name: s.Name, Arguments: s.Args}})
			st.Calls++
		}
	}
	t := text.String()
	msg.Content = &t
	if reasoning.Len() > 0 {
		r := reasoning.String()
		msg.ReasoningContent = &r
	}
	reason := st.FinishReason("stop", "tool_calls")
	c := oaChunk{
		ID: "chatcmpl-llmtest-" + strconv.Itoa(st.Turn), Object: "chat.completion", Created: created, Model: st.Model,
		Choices: []oaChoice{{Message: msg, FinishReason: &reason}}, Usage: e.usage(st),
	}
	b, _ := json.Marshal(c)
	return b
}
