package gemini

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
)

// ErrMalformedFunctionCall is wrapped (ProviderError.Err) when Gemini ends
// a turn with finishReason MALFORMED_FUNCTION_CALL (error kind
// llm.ErrMalformedToolCall): the model tried to call a tool and produced
// something unparseable. Asking again, with a note to call the tool with
// valid JSON arguments, usually works. UNEXPECTED_TOOL_CALL and
// TOO_MANY_TOOL_CALLS wrap it too, with kind llm.ErrBadRequest.
var ErrMalformedFunctionCall = errors.New("gemini: the model produced a malformed function call")

// ErrBlocked is wrapped (ProviderError.Err) when Gemini refuses the prompt
// (promptFeedback.blockReason) or stops the answer for SAFETY,
// RECITATION, PROHIBITED_CONTENT, BLOCKLIST, SPII, IMAGE_SAFETY or
// LANGUAGE. Repeating the same request gives the same result.
var ErrBlocked = errors.New("gemini: the response was blocked")

// Wire shapes of a GenerateContentResponse chunk.
type (
	wireResponse struct {
		Candidates     []wireCandidate `json:"candidates"`
		PromptFeedback *struct {
			BlockReason        string `json:"blockReason"`
			BlockReasonMessage string `json:"blockReasonMessage"`
		} `json:"promptFeedback"`
		UsageMetadata *wireUsage      `json:"usageMetadata"`
		ModelVersion  string          `json:"modelVersion"`
		Error         json.RawMessage `json:"error"`
	}
	wireCandidate struct {
		Content       *wireContent `json:"content"`
		FinishReason  string       `json:"finishReason"`
		FinishMessage string       `json:"finishMessage"`
		Index         int          `json:"index"`
	}
	wireUsage struct {
		PromptTokenCount        int `json:"promptTokenCount"`
		CandidatesTokenCount    int `json:"candidatesTokenCount"`
		CachedContentTokenCount int `json:"cachedContentTokenCount"`
		ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
		ToolUsePromptTokenCount int `json:"toolUsePromptTokenCount"`
		TotalTokenCount         int `json:"totalTokenCount"`
	}
)

// decoder folds the chunks of one response into llm events. It is a pure
// state machine over chunk bytes (no I/O), tested and fuzzed directly.
type decoder struct {
	provider, model string
	names           *schema.NameMap
	calls           int
	usage           *llm.Usage
	finished        bool
}

// handle translates one SSE data payload. done is true when the stream is
// over: after a finish (EventUsage, EventFinish) or an error (EventError,
// always last).
func (d *decoder) handle(data []byte) (out []llm.Event, done bool) {
	var r wireResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return []llm.Event{d.errorEvent(llm.ErrStreamBroken, fmt.Sprintf("unreadable stream chunk: %v", err), nil)}, true
	}
	if len(r.Error) > 0 && string(r.Error) != "null" {
		return []llm.Event{{Type: llm.EventError, Err: d.streamError(data)}}, true
	}
	if u := r.UsageMetadata; u != nil {
		d.usage = &llm.Usage{
			InputTokens:     u.PromptTokenCount + u.ToolUsePromptTokenCount,
			OutputTokens:    u.CandidatesTokenCount + u.ThoughtsTokenCount,
			CacheReadTokens: u.CachedContentTokenCount,
			ReasoningTokens: u.ThoughtsTokenCount,
		}
	}
	if pf := r.PromptFeedback; pf != nil && pf.BlockReason != "" {
		msg := "the prompt was blocked (" + pf.BlockReason + ")"
		if pf.BlockReasonMessage != "" {
			msg += ": " + pf.BlockReasonMessage
		}
		return []llm.Event{d.errorEvent(llm.ErrBadRequest, msg, ErrBlocked)}, true
	}
	if len(r.Candidates) == 0 {
		return nil, false
	}
	c := r.Candidates[0]
	if c.Content != nil {
		for _, p := range c.Content.Parts {
			out = append(out, d.part(p)...)
		}
	}
	if c.FinishReason == "" || c.FinishReason == "FINISH_REASON_UNSPECIFIED" {
		return out, false
	}
	d.finished = true
	if err := d.finishError(c.FinishReason, c.FinishMessage); err != nil {
		return append(out, *err), true
	}
	if d.usage != nil {
		u := *d.usage
		out = append(out, llm.Event{Type: llm.EventUsage, Usage: &u})
	}
	return append(out, llm.Event{Type: llm.EventFinish, FinishReason: d.finishReason(c.FinishReason)}), true
}

// part translates one content part.
func (d *decoder) part(p wirePart) []llm.Event {
	switch {
	case p.FunctionCall != nil:
		fc := p.FunctionCall
		name := fc.Name
		if real, ok := d.names.Real(name); ok {
			name = real
		}
		args := strings.TrimSpace(string(fc.Args))
		if args == "" || args == "null" {
			args = "{}"
		}
		id := fc.ID
		if id == "" {
			id = newCallID()
		}
		idx := d.calls
		d.calls++
		start := llm.ToolCall{ID: id, Name: name}
		end := llm.ToolCall{ID: id, Name: name, Arguments: args, Signature: p.ThoughtSignature}
		return []llm.Event{
			{Type: llm.EventToolCallStart, Index: idx, ToolCall: &start},
			{Type: llm.EventToolCallEnd, Index: idx, ToolCall: &end},
		}
	case p.Thought:
		if p.Text == nil && p.ThoughtSignature == "" {
			return nil
		}
		return []llm.Event{{Type: llm.EventReasoningDelta, Text: deref(p.Text), Signature: p.ThoughtSignature}}
	case p.Text != nil:
		var out []llm.Event
		if *p.Text != "" {
			out = append(out, llm.Event{Type: llm.EventTextDelta, Text: *p.Text})
		}
		if p.ThoughtSignature != "" {
			// A signature on a text part is kept as a reasoning
			// signature with no text; it is replayed on the text part.
			out = append(out, llm.Event{Type: llm.EventReasoningDelta, Signature: p.ThoughtSignature})
		}
		return out
	}
	return nil
}

// finishError returns the error event for a finish reason that is not a
// normal end, nil otherwise.
func (d *decoder) finishError(reason, message string) *llm.Event {
	detail := ""
	if message != "" {
		detail = ": " + message
	}
	switch reason {
	case "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS":
		// Only a malformed call is something the model can fix by trying
		// again (llm.ErrMalformedToolCall); the other two are kept as bad
		// requests.
		kind := llm.ErrBadRequest
		if reason == "MALFORMED_FUNCTION_CALL" {
			kind = llm.ErrMalformedToolCall
		}
		ev := d.errorEvent(kind, "the model produced a malformed function call ("+reason+")"+detail, ErrMalformedFunctionCall)
		ev.Err.(*llm.ProviderError).Hint = "ask the model again to call the tool with valid JSON arguments"
		return &ev
	case "SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY", "LANGUAGE",
		"IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION":
		ev := d.errorEvent(llm.ErrBadRequest, "Gemini stopped the answer ("+reason+")"+detail, ErrBlocked)
		ev.Err.(*llm.ProviderError).Hint = "rephrase the request or switch model; repeating it gives the same result"
		return &ev
	}
	return nil
}

func (d *decoder) finishReason(reason string) llm.FinishReason {
	switch reason {
	case "STOP":
		if d.calls > 0 {
			return llm.FinishToolCalls
		}
		return llm.FinishStop
	case "MAX_TOKENS":
		return llm.FinishLength
	}
	return llm.FinishOther
}

func (d *decoder) errorEvent(kind llm.ErrorKind, msg string, err error) llm.Event {
	return llm.Event{Type: llm.EventError, Err: &llm.ProviderError{Kind: kind, Provider: d.provider, Model: d.model,
		Status: 200, Message: msg, Err: err}}
}

// truncated is the error for a stream that ended before any finishReason.
func (d *decoder) truncated() *llm.ProviderError {
	return &llm.ProviderError{Kind: llm.ErrStreamBroken, Provider: d.provider, Model: d.model, Status: 200,
		Message: "stream ended before a finishReason", Hint: "the connection dropped mid-response; the request can be retried"}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// newCallID returns a unique tool call id ("call_" + 16 hex digits); Gemini
// sends none.
func newCallID() string {
	var b [8]byte
	rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
