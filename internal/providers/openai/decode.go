package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
	"github.com/zero-agent/zero/internal/llm/sse"
	"github.com/zero-agent/zero/internal/llm/think"
	"github.com/zero-agent/zero/internal/providers/transport"
)

// Wire shapes of a Chat Completions response and stream chunk, per the
// OpenAI API reference, widened for the compatible servers: choices may be
// empty (usage chunk, Azure prompt_filter_results, case B07), reasoning
// arrives as reasoning_content (llama.cpp, vLLM, DeepSeek) or reasoning
// (Ollama, OpenRouter), tool-call arguments may be an object (case B06).
type wireChunk struct {
	Choices []wireChoice    `json:"choices"`
	Usage   *wireUsage      `json:"usage"`
	Timings *wireTimings    `json:"timings"`
	Error   json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index        int        `json:"index"`
	Delta        *wireDelta `json:"delta"`
	Message      *wireDelta `json:"message"`
	FinishReason *string    `json:"finish_reason"`
}

type wireDelta struct {
	Content          *string         `json:"content"`
	ReasoningContent *string         `json:"reasoning_content"`
	Reasoning        *string         `json:"reasoning"`
	ToolCalls        []wireToolDelta `json:"tool_calls"`
}

type wireToolDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// wireTimings is the timings object llama-server adds to the last chunk
// of a reply (server_slot_stats::to_json in ggml-org/llama.cpp
// tools/server/server-common.cpp; tools/server/README.md, "Timings and
// context usage"): cache_n prompt tokens were reused from the slot's
// cache, prompt_n were processed, predicted_n generated. The prompt is
// cache_n + prompt_n tokens. Only the counts are read; the *_ms and
// *_per_second figures are the server's speed, not Zero's accounting.
type wireTimings struct {
	CacheN     *int `json:"cache_n"`
	PromptN    int  `json:"prompt_n"`
	PredictedN int  `json:"predicted_n"`
}

// usage converts the server's report. t, when the server sent timings
// (llama-server), fills what usage lacks: cached tokens from cache_n when
// prompt_tokens_details is absent (llama-server before it added
// prompt_tokens_details, and its usage chunk otherwise has none).
func (u *wireUsage) usage(t *wireTimings) *llm.Usage {
	out := &llm.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CacheReadTokens = u.PromptTokensDetails.CachedTokens
	} else if t != nil && t.CacheN != nil {
		out.CacheReadTokens = *t.CacheN
	}
	if out.InputTokens <= 0 && t.whole() {
		out.InputTokens = t.promptTokens()
	}
	if u.CompletionTokensDetails != nil {
		out.ReasoningTokens = u.CompletionTokensDetails.ReasoningTokens
	}
	return out
}

// whole reports timings that count the whole prompt: builds without
// cache_n report in prompt_n only the tokens they processed.
func (t *wireTimings) whole() bool { return t != nil && t.CacheN != nil }

// promptTokens is the whole prompt the timings count (whole is true).
func (t *wireTimings) promptTokens() int { return t.PromptN + *t.CacheN }

// usage is the server's count when it sent timings (with cache_n, whole)
// but no usage object (a request without stream_options.include_usage,
// NoStreamOptions): a measurement, not an estimate.
func (t *wireTimings) usage() *llm.Usage {
	return &llm.Usage{InputTokens: t.promptTokens(), OutputTokens: t.PredictedN, CacheReadTokens: *t.CacheN}
}

// errStopped means the consumer went away (emit returned false).
var errStopped = errors.New("openai: consumer stopped")

// callAcc accumulates one tool call from its deltas.
type callAcc struct {
	serverID string // id as the server sent it, "" when none
	id       string // id handed out (serverID or generated)
	name     string
	args     strings.Builder
	started  bool
}

// decoder turns chunks into llm events. It is the pure core of the
// provider: no I/O, fed by run (streams) or ParseResponse (whole replies).
type decoder struct {
	emit     func(llm.Event) bool
	provider string
	model    string
	mistral  bool
	// names maps the wire names the model calls back to real tool names;
	// nil keeps names as sent.
	names     *schema.NameMap
	think     *think.Splitter
	calls     []*callAcc
	byIndex   map[int]int // wire index → position in calls
	finish    string
	sawFinish bool
	sawUsage  bool
	// timings is llama-server's last timings object, nil when none came.
	timings *wireTimings
	// maxTokens is the request's output cap (0 when none) and
	// outputTokens the completion_tokens the server last reported: together
	// they tell a call cut at the cap from a finished one (see finishReason).
	maxTokens, outputTokens int
	// inputBytes and outputBytes feed the estimate used when the server
	// never reports usage.
	inputBytes, outputBytes int
}

func newDecoder(o *Options, model string, emit func(llm.Event) bool) *decoder {
	return &decoder{
		emit: emit, provider: o.Name, model: model, mistral: o.MistralIDs,
		think:   think.New(think.Options{StartInReasoning: o.ThinkPrefilled}),
		byIndex: map[int]int{},
	}
}

// run reads an event stream to its end. It returns nil after a clean end
// ([DONE], or EOF after a finish_reason), a *llm.ProviderError for an
// error the server reported or a stream cut short, errStopped, or the
// reader's error for the caller to classify.
func (d *decoder) run(r *sse.Reader) error {
	for {
		ev, err := r.Next()
		if err == io.EOF {
			if !d.sawFinish {
				return &llm.ProviderError{
					Kind: llm.ErrStreamBroken, Provider: d.provider, Model: d.model,
					Message: "the stream ended before the model finished",
					Hint:    "the partial reply is discarded; Zero retries the turn",
				}
			}
			return d.finalize()
		}
		if err != nil {
			return err
		}
		if ev.Event == "error" {
			return transport.ClassifyStreamError(d.provider, d.model, []byte(ev.Data))
		}
		data := strings.TrimSpace(ev.Data)
		if data == "" {
			continue
		}
		if data == "[DONE]" {
			return d.finalize()
		}
		if err := d.chunk([]byte(data)); err != nil {
			return err
		}
	}
}

// chunk handles one data payload.
func (d *decoder) chunk(data []byte) error {
	if content, finish, ok := fastDelta(data); ok {
		if content != nil {
			if err := d.content(*content); err != nil {
				return err
			}
		}
		if finish != nil && *finish != "" {
			d.finish, d.sawFinish = *finish, true
		}
		return nil
	}
	var c wireChunk
	if err := json.Unmarshal(data, &c); err != nil {
		if !d.emit(llm.Event{Type: llm.EventWarning, Text: fmt.Sprintf("skipped a malformed stream chunk: %.120s", data)}) {
			return errStopped
		}
		return nil
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return transport.ClassifyStreamError(d.provider, d.model, data)
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue // n=1 is all Zero asks for
		}
		delta := ch.Delta
		if delta == nil {
			delta = ch.Message
		}
		if delta != nil {
			if err := d.delta(delta); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			d.finish, d.sawFinish = *ch.FinishReason, true
		}
	}
	if c.Timings != nil {
		d.timings = c.Timings
	}
	if c.Usage != nil {
		d.sawUsage = true
		d.outputTokens = c.Usage.CompletionTokens
		if !d.emit(llm.Event{Type: llm.EventUsage, Usage: c.Usage.usage(d.timings)}) {
			return errStopped
		}
	}
	return nil
}

func (d *decoder) delta(w *wireDelta) error {
	for _, r := range []*string{w.ReasoningContent, w.Reasoning} {
		if r != nil && *r != "" {
			d.think.ReasoningSeparated()
			d.outputBytes += len(*r)
			if !d.emit(llm.Event{Type: llm.EventReasoningDelta, Text: *r}) {
				return errStopped
			}
		}
	}
	if w.Content != nil {
		if err := d.content(*w.Content); err != nil {
			return err
		}
	}
	for pos, td := range w.ToolCalls {
		if err := d.toolDelta(td, pos); err != nil {
			return err
		}
	}
	return nil
}

// content passes answer text through the <think> splitter.
func (d *decoder) content(s string) error {
	if s == "" {
		return nil
	}
	d.outputBytes += len(s)
	if !d.segments(d.think.Push(s)) {
		return errStopped
	}
	return nil
}

func (d *decoder) segments(segs []think.Segment) bool {
	for _, g := range segs {
		t := llm.EventTextDelta
		if g.Reasoning {
			t = llm.EventReasoningDelta
		}
		if !d.emit(llm.Event{Type: t, Text: g.Text}) {
			return false
		}
	}
	return true
}

// toolDelta folds one tool-call delta in, by wire index (case B06):
// arguments from every delta including the first, names possibly in
// pieces, arguments as a string or an object. pos is the delta's position
// in its array, used when a server omits index.
func (d *decoder) toolDelta(td wireToolDelta, pos int) error {
	key := pos
	if td.Index != nil {
		key = *td.Index
	}
	slot, ok := d.byIndex[key]
	if ok {
		c := d.calls[slot]
		// Some servers (Gemini's OpenAI endpoint, some Ollama builds) reuse
		// index 0 for parallel calls; a new id on a named call is a new call.
		if td.ID != "" && c.serverID != "" && td.ID != c.serverID && c.name != "" {
			ok = false
		}
	}
	if !ok {
		slot = len(d.calls)
		d.calls = append(d.calls, &callAcc{})
		d.byIndex[key] = slot
	}
	c := d.calls[slot]
	if td.ID != "" && c.serverID == "" {
		c.serverID = td.ID
		if !c.started {
			c.id = td.ID
		}
	}
	if n := td.Function.Name; n != "" && n != c.name {
		c.name += n
	}
	frag := argumentFragment(td.Function.Arguments)
	d.outputBytes += len(frag)
	c.args.WriteString(frag)
	if c.started {
		if frag != "" && !d.emit(llm.Event{Type: llm.EventToolCallDelta, Index: slot, Text: frag}) {
			return errStopped
		}
		return nil
	}
	if c.name != "" && c.args.Len() > 0 {
		return d.start(slot)
	}
	return nil
}

// start announces call slot with everything accumulated so far.
func (d *decoder) start(slot int) error {
	c := d.calls[slot]
	c.started = true
	if c.id == "" {
		c.id = newCallID(d.mistral)
	}
	if !d.emit(llm.Event{Type: llm.EventToolCallStart, Index: slot, ToolCall: &llm.ToolCall{ID: c.id, Name: d.realName(c.name)}}) {
		return errStopped
	}
	if c.args.Len() > 0 && !d.emit(llm.Event{Type: llm.EventToolCallDelta, Index: slot, Text: c.args.String()}) {
		return errStopped
	}
	return nil
}

// realName maps a called wire name back to the tool's real name (a name
// the map does not know is kept: the loop answers unknown tools itself).
func (d *decoder) realName(wire string) string {
	if d.names != nil {
		if real, ok := d.names.Real(wire); ok {
			return real
		}
	}
	return wire
}

// argumentFragment returns a delta's arguments as text: a JSON string is
// unquoted, an object (case B06) is compacted, null is empty.
func argumentFragment(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// finalize ends a good stream: held-back text, complete tool calls (calls
// without a name dropped with a warning), the usage llama-server's
// timings count when the server sent no usage object, an estimated usage
// when it sent neither, then the finish event.
func (d *decoder) finalize() error {
	if !d.segments(d.think.Flush()) {
		return errStopped
	}
	if d.think.Unclosed() {
		if !d.emit(llm.Event{Type: llm.EventWarning, Text: "the reply never closed its reasoning with </think>; no answer text was produced"}) {
			return errStopped
		}
	}
	named := 0
	for slot, c := range d.calls {
		if c.name == "" {
			msg := fmt.Sprintf("dropped tool call #%d: the server sent no function name (arguments %.80q); it was not run", slot, c.args.String())
			if !d.emit(llm.Event{Type: llm.EventWarning, Text: msg}) {
				return errStopped
			}
			continue
		}
		named++
		if !c.started {
			if err := d.start(slot); err != nil {
				return err
			}
		}
		call := &llm.ToolCall{ID: c.id, Name: d.realName(c.name), Arguments: c.args.String()}
		if !d.emit(llm.Event{Type: llm.EventToolCallEnd, Index: slot, ToolCall: call}) {
			return errStopped
		}
	}
	if !d.sawUsage {
		u := &llm.Usage{InputTokens: d.inputBytes / 4, OutputTokens: (d.outputBytes + 3) / 4, Estimated: true}
		if d.timings.whole() {
			u = d.timings.usage()
			d.sawUsage, d.outputTokens = true, u.OutputTokens
		}
		if !d.emit(llm.Event{Type: llm.EventUsage, Usage: u}) {
			return errStopped
		}
	}
	if !d.emit(llm.Event{Type: llm.EventFinish, FinishReason: d.finishReason(named)}) {
		return errStopped
	}
	return nil
}

// finishReason is the reply's finish reason as Zero acts on it, with the
// quirks of vLLM's streamed tool calls (testdata/vllm/SOURCES.md) undone:
//   - finish_reason "stop" (or none) on a reply that carries calls is a
//     reply that ends in those calls: vLLM sends "stop" for a named
//     tool_choice and, before v0.6.3, for any streamed call
//     (vllm-project/vllm#9209, #25054), and sometimes null (#27572).
//   - "tool_calls" on a reply whose output reached the request's cap and
//     whose last call's arguments are not JSON is a call cut at the cap:
//     vLLM's stream rewrites "length" to "tool_calls" once any call was
//     streamed (vllm-project/vllm#53269), so it is reported as
//     llm.FinishLength and the agent tells the model the call was cut.
func (d *decoder) finishReason(named int) llm.FinishReason {
	reason := mapFinish(d.finish)
	if named == 0 {
		return reason
	}
	if reason == llm.FinishStop {
		return llm.FinishToolCalls
	}
	if reason == llm.FinishToolCalls && d.cutAtCap() {
		return llm.FinishLength
	}
	return reason
}

// cutAtCap reports whether the server said the reply used the whole output
// cap and the last named call's arguments do not parse as JSON.
func (d *decoder) cutAtCap() bool {
	if d.maxTokens <= 0 || !d.sawUsage || d.outputTokens < d.maxTokens {
		return false
	}
	for i := len(d.calls) - 1; i >= 0; i-- {
		if c := d.calls[i]; c.name != "" {
			args := strings.TrimSpace(c.args.String())
			return args != "" && !json.Valid([]byte(args))
		}
	}
	return false
}

// mapFinish maps OpenAI finish_reason values (and the compatible servers'
// variants) onto llm.FinishReason.
func mapFinish(s string) llm.FinishReason {
	switch s {
	case "", "stop", "eos", "end_turn", "stop_sequence":
		return llm.FinishStop
	case "tool_calls", "function_call", "tool_use":
		return llm.FinishToolCalls
	case "length", "max_tokens", "model_length":
		return llm.FinishLength
	case "content_filter":
		return llm.FinishContentFilter
	}
	return llm.FinishOther
}
