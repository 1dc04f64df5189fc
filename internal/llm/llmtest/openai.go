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
// With Server.LlamaServerCache on, usage is counted from the prompt and
// the last chunk carries llama-server's timings too (llamacache.go).

func init() { registerEncoder(func() Encoder { return openAIEncoder{} }) }

type openAIEncoder struct{}

type oaChunk struct {
	ID      string     `json:"id"`
	Object  string     `json:"object"`
	Created int64      `json:"created"`
	Model   string     `json:"model"`
	Choices []oaChoice `json:"choices"`
	Usage   *oaUsage   `json:"usage,omitempty"`
	Timings *oaTimings `json:"timings,omitempty"`
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
	PromptTokens        int            `json:"prompt_tokens"`
	CompletionTokens    int            `json:"completion_tokens"`
	TotalTokens         int            `json:"total_tokens"`
	PromptTokensDetails *oaUsageDetail `json:"prompt_tokens_details,omitempty"`
}

type oaUsageDetail struct {
	CachedTokens int `json:"cached_tokens"`
}

// oaTimings is llama-server's timings object (server_slot_stats::to_json,
// tools/server/server-common.cpp); the fake's times are fixed at 1 ms a
// token so golden bytes are stable.
type oaTimings struct {
	CacheN              int     `json:"cache_n"`
	PromptN             int     `json:"prompt_n"`
	PromptMs            float64 `json:"prompt_ms"`
	PromptPerTokenMs    float64 `json:"prompt_per_token_ms"`
	PromptPerSecond     float64 `json:"prompt_per_second"`
	PredictedN          int     `json:"predicted_n"`
	PredictedMs         float64 `json:"predicted_ms"`
	PredictedPerTokenMs float64 `json:"predicted_per_token_ms"`
	PredictedPerSecond  float64 `json:"predicted_per_second"`
}

// oaScratch is the OpenAI encoder's per-turn state: the reply bytes sent,
// for the completion tokens the fake llama-server counts.
type oaScratch struct{ replyBytes int }

func scratch(st *State) *oaScratch {
	sc, ok := st.Scratch.(*oaScratch)
	if !ok {
		sc = &oaScratch{}
		st.Scratch = sc
	}
	return sc
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
	return frameJSON(c)
}

// frameJSON frames one chunk as an SSE data event.
func frameJSON(c oaChunk) []byte {
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
	scratch(st).replyBytes += len(s.Text) + len(s.Name) + len(s.Args)
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

// usage is the turn's usage: the usage step's, or with the fake
// llama-server's cache on the prompt it counted and the completion tokens
// of the usage step (else the reply's bytes/4).
func (e openAIEncoder) usage(st *State) *oaUsage {
	if p := st.Prompt; p != nil {
		out := (scratch(st).replyBytes + 3) / 4
		if st.Usage != nil {
			out = st.Usage.OutputTokens
		}
		return &oaUsage{PromptTokens: p.Tokens, CompletionTokens: out, TotalTokens: p.Tokens + out,
			PromptTokensDetails: &oaUsageDetail{CachedTokens: p.Cached}}
	}
	if st.Usage == nil {
		return nil
	}
	u := st.Usage
	ou := &oaUsage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
	if u.CachedTokens > 0 {
		ou.PromptTokensDetails = &oaUsageDetail{CachedTokens: u.CachedTokens}
	}
	return ou
}

// timings is llama-server's timings object for the turn, nil unless the
// fake llama-server's cache is on.
func (e openAIEncoder) timings(st *State, u *oaUsage) *oaTimings {
	p := st.Prompt
	if p == nil {
		return nil
	}
	t := &oaTimings{CacheN: p.Cached, PromptN: p.Tokens - p.Cached, PredictedN: u.CompletionTokens}
	t.PromptMs, t.PredictedMs = float64(t.PromptN), float64(t.PredictedN)
	if t.PromptN > 0 {
		t.PromptPerTokenMs, t.PromptPerSecond = 1, 1000
	}
	if t.PredictedN > 0 {
		t.PredictedPerTokenMs, t.PredictedPerSecond = 1, 1000
	}
	return t
}

// End sends the finish chunk, the usage chunk when the request set
// stream_options.include_usage, and [DONE]; llama-server's timings ride on
// the last of the two chunks (to_json_oaicompat_chat_stream in
// tools/server/server-task.cpp).
func (e openAIEncoder) End(st *State) []byte {
	reason := st.FinishReason("stop", "tool_calls")
	u := e.usage(st)
	tm := e.timings(st, u)
	opts, _ := st.Request.Map()["stream_options"].(map[string]any)
	include, _ := opts["include_usage"].(bool)
	include = include && u != nil
	finish := e.frame(st, []oaChoice{{Delta: &oaDelta{}, FinishReason: &reason}}, nil)
	if !include && tm != nil {
		finish = e.timed(st, []oaChoice{{Delta: &oaDelta{}, FinishReason: &reason}}, nil, tm)
	}
	out := finish
	if include {
		out = append(out, e.timed(st, nil, u, tm)...)
	}
	return append(out, "data: [DONE]\n\n"...)
}

// timed is frame with a timings object.
func (e openAIEncoder) timed(st *State, choices []oaChoice, usage *oaUsage, tm *oaTimings) []byte {
	c := oaChunk{
		ID: "chatcmpl-llmtest-" + strconv.Itoa(st.Turn), Object: "chat.completion.chunk",
		Created: created, Model: st.Model, Choices: choices, Usage: usage, Timings: tm,
	}
	return frameJSON(c)
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
		scratch(st).replyBytes += len(s.Text) + len(s.Name) + len(s.Args)
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
	c.Timings = e.timings(st, c.Usage)
	b, _ := json.Marshal(c)
	return b
}
