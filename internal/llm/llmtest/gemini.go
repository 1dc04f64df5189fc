package llmtest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Gemini API wire format (POST /v1beta/models/{model}:streamGenerateContent?alt=sse
// and :generateContent), as generativelanguage.googleapis.com sends it:
// each chunk is "data: {json}\r\n\r\n" with the JSON written the way
// Google's servers write it ("key": value, no space after commas), every
// chunk a GenerateContentResponse with candidates[0].content.parts and
// "role": "model"; the last chunk carries finishReason and usageMetadata.
// A mid-stream error is a data line with {"error": {...}}.
//
// Mapping of scripted steps: text pieces are text parts; reasoning pieces
// are parts with "thought": true, the last one signed (thoughtSignature);
// a tool call is one whole functionCall part (Gemini does not stream
// arguments), without an id unless the step sets one, and the turn's first
// call carries a thoughtSignature, as Gemini 3 sends it. Signatures are
// deterministic (GeminiSignature) so tests can assert replay. A call whose
// arguments are not a JSON object is what Gemini reports as finishReason
// MALFORMED_FUNCTION_CALL: the part is left out and the turn ends so.

func init() { registerEncoder(func() Encoder { return geminiEncoder{} }) }

type geminiEncoder struct{}

// GeminiSignature returns the thoughtSignature the fake sends for the n-th
// signed part (0-based) of turn: base64 of "llmtest-thought-<turn>-<n>".
func GeminiSignature(turn, n int) string {
	return base64.StdEncoding.EncodeToString([]byte("llmtest-thought-" + strconv.Itoa(turn) + "-" + strconv.Itoa(n)))
}

// geminiFinish maps the neutral/OpenAI finish names scripts use onto
// Gemini finishReason values; other values are sent verbatim.
func geminiFinish(reason string) string {
	switch reason {
	case "stop", "tool_calls":
		return "STOP"
	case "length":
		return "MAX_TOKENS"
	case "content_filter":
		return "SAFETY"
	}
	return reason
}

type (
	gmResponse struct {
		Candidates    []gmCandidate `json:"candidates"`
		UsageMetadata *gmUsage      `json:"usageMetadata,omitempty"`
		ModelVersion  string        `json:"modelVersion"`
		ResponseID    string        `json:"responseId"`
	}
	gmCandidate struct {
		Content       gmContent `json:"content"`
		FinishReason  string    `json:"finishReason,omitempty"`
		FinishMessage string    `json:"finishMessage,omitempty"`
		Index         int       `json:"index"`
	}
	gmContent struct {
		Parts []gmPart `json:"parts"`
		Role  string   `json:"role"`
	}
	gmPart struct {
		Text             *string     `json:"text,omitempty"`
		Thought          bool        `json:"thought,omitempty"`
		FunctionCall     *gmFunction `json:"functionCall,omitempty"`
		ThoughtSignature string      `json:"thoughtSignature,omitempty"`
	}
	gmFunction struct {
		ID   string          `json:"id,omitempty"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	}
	gmUsage struct {
		PromptTokenCount     int `json:"promptTokenCount"`
		CandidatesTokenCount int `json:"candidatesTokenCount"`
		TotalTokenCount      int `json:"totalTokenCount"`
	}
)

func (geminiEncoder) Match(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/models/") &&
		(strings.HasSuffix(r.URL.Path, ":streamGenerateContent") || strings.HasSuffix(r.URL.Path, ":generateContent"))
}

func (geminiEncoder) Streaming(req Request) bool {
	return strings.HasSuffix(req.Path, ":streamGenerateContent")
}

// model returns the model id from the request path.
func (geminiEncoder) model(st *State) string {
	p := st.Request.Path
	p = p[strings.Index(p, "/models/")+len("/models/"):]
	if i := strings.LastIndexByte(p, ':'); i >= 0 {
		p = p[:i]
	}
	return p
}

// googleJSON rewrites compact JSON the way Google's API servers write it:
// a space after every key's colon, none after commas.
func googleJSON(compact []byte) []byte {
	out := make([]byte, 0, len(compact)+len(compact)/8)
	inString, escaped := false, false
	for _, c := range compact {
		out = append(out, c)
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == ':':
			out = append(out, ' ')
		}
	}
	return out
}

func (e geminiEncoder) chunk(st *State, c gmCandidate, usage *gmUsage) []byte {
	c.Content.Role = "model"
	if c.Content.Parts == nil {
		c.Content.Parts = []gmPart{}
	}
	r := gmResponse{Candidates: []gmCandidate{c}, UsageMetadata: usage, ModelVersion: e.model(st),
		ResponseID: "llmtest-" + strconv.Itoa(st.Turn)}
	b, _ := json.Marshal(r)
	out := append([]byte("data: "), googleJSON(b)...)
	return append(out, "\r\n\r\n"...)
}

func (e geminiEncoder) Begin(*State) []byte { return nil }

// parts renders one content step as parts (one slice per stream chunk),
// updating the signature and call counters kept in st.
func (e geminiEncoder) parts(st *State, s Step, pieces bool) [][]gmPart {
	var out [][]gmPart
	texts := []string{s.Text}
	if pieces {
		texts = Pieces(s.Text, s.Chunks)
	}
	switch s.Kind {
	case KindText:
		for _, p := range texts {
			p := p
			out = append(out, []gmPart{{Text: &p}})
		}
	case KindReasoning:
		for i, p := range texts {
			p := p
			part := gmPart{Text: &p, Thought: true}
			if i == len(texts)-1 {
				part.ThoughtSignature = GeminiSignature(st.Turn, st.Chunks)
				st.Chunks++
			}
			out = append(out, []gmPart{part})
		}
	case KindToolCall:
		var obj map[string]any
		if json.Unmarshal([]byte(s.Args), &obj) != nil || obj == nil {
			st.Finish = "MALFORMED_FUNCTION_CALL"
			return nil
		}
		part := gmPart{FunctionCall: &gmFunction{ID: s.ID, Name: s.Name, Args: json.RawMessage(s.Args)}}
		if st.Calls == 0 {
			part.ThoughtSignature = GeminiSignature(st.Turn, st.Chunks)
			st.Chunks++
		}
		st.Calls++
		out = append(out, []gmPart{part})
	}
	return out
}

func (e geminiEncoder) Step(st *State, s Step) []byte {
	var out []byte
	for _, parts := range e.parts(st, s, true) {
		out = append(out, e.chunk(st, gmCandidate{Content: gmContent{Parts: parts}}, nil)...)
	}
	return out
}

func (e geminiEncoder) usage(st *State) *gmUsage {
	if st.Usage == nil {
		return nil
	}
	u := st.Usage
	return &gmUsage{PromptTokenCount: u.InputTokens, CandidatesTokenCount: u.OutputTokens, TotalTokenCount: u.InputTokens + u.OutputTokens}
}

func (e geminiEncoder) finish(st *State) gmCandidate {
	c := gmCandidate{FinishReason: geminiFinish(st.FinishReason("stop", "tool_calls"))}
	if c.FinishReason == "MALFORMED_FUNCTION_CALL" {
		c.FinishMessage = "Malformed function call."
	}
	return c
}

func (e geminiEncoder) End(st *State) []byte {
	c := e.finish(st)
	empty := ""
	if c.FinishReason != "MALFORMED_FUNCTION_CALL" {
		c.Content.Parts = []gmPart{{Text: &empty}}
	}
	return e.chunk(st, c, e.usage(st))
}

func (geminiEncoder) StreamError(_ *State, body []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, body) != nil {
		buf.Reset()
		buf.Write(bytes.ReplaceAll(body, []byte("\n"), []byte(" ")))
	}
	return append(append([]byte("data: "), googleJSON(buf.Bytes())...), "\r\n\r\n"...)
}

func (e geminiEncoder) Whole(st *State, steps []Step) []byte {
	var parts []gmPart
	for _, s := range steps {
		for _, p := range e.parts(st, s, false) {
			parts = append(parts, p...)
		}
	}
	c := e.finish(st)
	c.Content.Parts = parts
	c.Content.Role = "model"
	if c.Content.Parts == nil {
		c.Content.Parts = []gmPart{}
	}
	r := gmResponse{Candidates: []gmCandidate{c}, UsageMetadata: e.usage(st), ModelVersion: e.model(st),
		ResponseID: "llmtest-" + strconv.Itoa(st.Turn)}
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}
