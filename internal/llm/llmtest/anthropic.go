package llmtest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Anthropic Messages wire format (POST /v1/messages), as api.anthropic.com
// streams it (docs: "Streaming Messages"): "event: <type>\ndata: {json}\n\n"
// frames; message_start with the input usage, then per content block a
// content_block_start, its deltas (text_delta, thinking_delta plus one
// signature_delta, input_json_delta) and content_block_stop, a ping after
// the first block opens, then message_delta with stop_reason and the
// cumulative output_tokens, and message_stop. A mid-stream error is
// "event: error" with {"type":"error","error":{...}} (case B09).
//
// Every scripted content step is its own content block. A reasoning step
// is a thinking block signed with a deterministic signature (see
// AnthropicSignature) so tests can assert it is replayed verbatim.

func init() { registerEncoder(func() Encoder { return anthropicEncoder{} }) }

type anthropicEncoder struct{}

// AnthropicSignature returns the signature the fake sends for the
// thinking block at content index block of turn (0-based): base64 of
// "llmtest-thinking-<turn>-<block>".
func AnthropicSignature(turn, block int) string {
	return base64.StdEncoding.EncodeToString([]byte("llmtest-thinking-" + strconv.Itoa(turn) + "-" + strconv.Itoa(block)))
}

// anthropicCallID is the tool_use id of a call step: its ID, "" for NoID,
// else "toolu_llmtest_<turn>_<n>" in the shape Anthropic ids have.
func anthropicCallID(st *State, s Step) string {
	if s.ID != "" || s.NoID {
		return st.CallID(s)
	}
	return "toolu_llmtest_" + strconv.Itoa(st.Turn) + "_" + strconv.Itoa(st.Calls)
}

// anthropicStop maps the neutral/OpenAI finish names scripts use onto
// Anthropic stop_reason values; other values are sent verbatim.
func anthropicStop(reason string) string {
	switch reason {
	case "stop":
		return "end_turn"
	case "length":
		return "max_tokens"
	case "tool_calls":
		return "tool_use"
	case "content_filter":
		return "refusal"
	}
	return reason
}

// Field order follows the API's own output.
type (
	anMessage struct {
		ID           string            `json:"id"`
		Type         string            `json:"type"`
		Role         string            `json:"role"`
		Model        string            `json:"model"`
		Content      []json.RawMessage `json:"content"`
		StopReason   *string           `json:"stop_reason"`
		StopSequence *string           `json:"stop_sequence"`
		Usage        anUsage           `json:"usage"`
	}
	anUsage struct {
		InputTokens              int `json:"input_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
		OutputTokens             int `json:"output_tokens"`
	}
	anBlockEvent struct {
		Type         string `json:"type"`
		Index        int    `json:"index"`
		ContentBlock any    `json:"content_block,omitempty"`
		Delta        any    `json:"delta,omitempty"`
	}
	anText struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	anThinking struct {
		Type      string `json:"type"`
		Thinking  string `json:"thinking"`
		Signature string `json:"signature"`
	}
	anToolUse struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	anMessageStart struct {
		Type    string    `json:"type"`
		Message anMessage `json:"message"`
	}
	anMessageDelta struct {
		Type  string `json:"type"`
		Delta struct {
			StopReason   string  `json:"stop_reason"`
			StopSequence *string `json:"stop_sequence"`
		} `json:"delta"`
		Usage struct {
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
	anType struct {
		Type string `json:"type"`
	}
	anDelta struct {
		Type        string  `json:"type"`
		Text        *string `json:"text,omitempty"`
		Thinking    *string `json:"thinking,omitempty"`
		Signature   *string `json:"signature,omitempty"`
		PartialJSON *string `json:"partial_json,omitempty"`
	}
)

func (anthropicEncoder) Match(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages")
}

func (anthropicEncoder) Streaming(req Request) bool {
	s, _ := req.Map()["stream"].(bool)
	return s
}

func anEvent(name string, v any) []byte {
	b, _ := json.Marshal(v)
	out := make([]byte, 0, len(b)+len(name)+16)
	out = append(out, "event: "+name+"\ndata: "...)
	out = append(out, b...)
	return append(out, "\n\n"...)
}

func (e anthropicEncoder) usage(st *State, output int) anUsage {
	u := anUsage{OutputTokens: output}
	if st.Usage != nil {
		u.InputTokens = st.Usage.InputTokens
	}
	return u
}

func (e anthropicEncoder) Begin(st *State) []byte {
	m := anMessage{
		ID: "msg_llmtest_" + strconv.Itoa(st.Turn), Type: "message", Role: "assistant", Model: st.Model,
		Content: []json.RawMessage{}, Usage: e.usage(st, 1),
	}
	return anEvent("message_start", anMessageStart{Type: "message_start", Message: m})
}

// open starts content block st.Chunks (the encoder's block counter) and
// sends the one ping real streams carry after the first block opens.
func (e anthropicEncoder) open(st *State, block any) []byte {
	out := anEvent("content_block_start", anBlockEvent{Type: "content_block_start", Index: st.Chunks, ContentBlock: block})
	if st.Chunks == 0 {
		out = append(out, "event: ping\ndata: {\"type\": \"ping\"}\n\n"...)
	}
	return out
}

func (e anthropicEncoder) delta(st *State, d anDelta) []byte {
	return anEvent("content_block_delta", anBlockEvent{Type: "content_block_delta", Index: st.Chunks, Delta: d})
}

func (e anthropicEncoder) close(st *State) []byte {
	out := anEvent("content_block_stop", anBlockEvent{Type: "content_block_stop", Index: st.Chunks})
	st.Chunks++
	return out
}

func (e anthropicEncoder) Step(st *State, s Step) []byte {
	var out []byte
	switch s.Kind {
	case KindText:
		out = e.open(st, anText{Type: "text"})
		for _, p := range Pieces(s.Text, s.Chunks) {
			p := p
			out = append(out, e.delta(st, anDelta{Type: "text_delta", Text: &p})...)
		}
		out = append(out, e.close(st)...)
	case KindReasoning:
		out = e.open(st, anThinking{Type: "thinking"})
		for _, p := range Pieces(s.Text, s.Chunks) {
			p := p
			out = append(out, e.delta(st, anDelta{Type: "thinking_delta", Thinking: &p})...)
		}
		sig := AnthropicSignature(st.Turn, st.Chunks)
		out = append(out, e.delta(st, anDelta{Type: "signature_delta", Signature: &sig})...)
		out = append(out, e.close(st)...)
	case KindToolCall:
		out = e.open(st, anToolUse{Type: "tool_use", ID: anthropicCallID(st, s), Name: s.Name, Input: json.RawMessage("{}")})
		for _, p := range Pieces(s.Args, s.Chunks) {
			p := p
			out = append(out, e.delta(st, anDelta{Type: "input_json_delta", PartialJSON: &p})...)
		}
		out = append(out, e.close(st)...)
		st.Calls++
	}
	return out
}

func (e anthropicEncoder) End(st *State) []byte {
	reason := anthropicStop(st.FinishReason("stop", "tool_calls"))
	output := 0
	if st.Usage != nil {
		output = st.Usage.OutputTokens
	}
	d := anMessageDelta{Type: "message_delta"}
	d.Delta.StopReason = reason
	d.Usage.OutputTokens = output
	out := anEvent("message_delta", d)
	return append(out, anEvent("message_stop", anType{Type: "message_stop"})...)
}

func (anthropicEncoder) StreamError(_ *State, body []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, body) != nil {
		buf.Reset()
		buf.Write(bytes.ReplaceAll(body, []byte("\n"), []byte(" ")))
	}
	return append(append([]byte("event: error\ndata: "), buf.Bytes()...), "\n\n"...)
}

func (e anthropicEncoder) Whole(st *State, steps []Step) []byte {
	reason := anthropicStop(st.FinishReason("stop", "tool_calls"))
	output := 0
	if st.Usage != nil {
		output = st.Usage.OutputTokens
	}
	m := anMessage{
		ID: "msg_llmtest_" + strconv.Itoa(st.Turn), Type: "message", Role: "assistant", Model: st.Model,
		Content: []json.RawMessage{}, StopReason: &reason, Usage: e.usage(st, output),
	}
	for _, s := range steps {
		var block any
		switch s.Kind {
		case KindText:
			block = anText{Type: "text", Text: s.Text}
		case KindReasoning:
			block = anThinking{Type: "thinking", Thinking: s.Text, Signature: AnthropicSignature(st.Turn, len(m.Content))}
		case KindToolCall:
			input := json.RawMessage(s.Args)
			if !json.Valid(input) {
				input = json.RawMessage("{}")
			}
			block = anToolUse{Type: "tool_use", ID: anthropicCallID(st, s), Name: s.Name, Input: input}
			st.Calls++
		default:
			continue
		}
		b, _ := json.Marshal(block)
		m.Content = append(m.Content, b)
	}
	b, _ := json.Marshal(m)
	return b
}
