package llm

// EventType names one stream event of a completion.
type EventType string

// Stream event types, in the order they may appear. A stream ends with
// exactly one EventFinish or EventError.
const (
	EventTextDelta      EventType = "text_delta"
	EventReasoningDelta EventType = "reasoning_delta"
	// EventToolCallStart carries Index and ToolCall (ID, Name) of a new call.
	EventToolCallStart EventType = "tool_call_start"
	// EventToolCallDelta carries Index and an argument fragment in Text.
	EventToolCallDelta EventType = "tool_call_delta"
	// EventToolCallEnd carries Index and the complete ToolCall.
	EventToolCallEnd EventType = "tool_call_end"
	// EventUsage carries Usage as reported by the server.
	EventUsage EventType = "usage"
	// EventFinish carries FinishReason; it is the last event of a good stream.
	EventFinish EventType = "finish"
	// EventError carries Err (normally a *ProviderError); it is the last event.
	EventError EventType = "error"
	// EventWarning carries a human-readable note in Text (e.g. a tool call
	// without a name was dropped, case B06).
	EventWarning EventType = "warning"
)

// FinishReason says why the model stopped. Providers map their own values
// onto these; the agent loop does not trust it blindly (tool calls present
// means tools run, whatever the reason says).
type FinishReason string

// Finish reasons.
const (
	FinishStop          FinishReason = "stop"
	FinishToolCalls     FinishReason = "tool_calls"
	FinishLength        FinishReason = "length"
	FinishContentFilter FinishReason = "content_filter"
	FinishOther         FinishReason = "other"
)

// Event is one item of a provider's completion stream.
type Event struct {
	Type EventType
	// Text is the delta for text and reasoning events, the argument
	// fragment for EventToolCallDelta, and the note for EventWarning.
	Text string
	// Signature accompanies a reasoning delta when the provider signs it.
	Signature string
	// Redacted marks a reasoning delta whose Text is opaque provider data
	// (Anthropic redacted_thinking "data"), never shown to the user but
	// replayed verbatim on later turns. It always forms a whole reasoning
	// part of its own (Part.Redacted).
	Redacted bool
	// Index identifies the tool call a tool-call event belongs to.
	Index        int
	ToolCall     *ToolCall
	Usage        *Usage
	FinishReason FinishReason
	Err          error
}

// Usage is token accounting as reported by a server for one request.
// All counts are tokens. InputTokens includes cached tokens when the
// provider reports them that way (OpenAI); Anthropic's separate counts are
// summed by its adapter so InputTokens is always the whole prompt.
type Usage struct {
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int `json:"cacheWriteTokens,omitempty"`
	ReasoningTokens  int `json:"reasoningTokens,omitempty"`
	// Estimated is true when no server report arrived and the numbers are
	// a local estimate (bytes/4).
	Estimated bool `json:"estimated,omitempty"`
}

// Add returns the sum of two usages; Estimated is sticky.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + o.InputTokens,
		OutputTokens:     u.OutputTokens + o.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + o.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + o.CacheWriteTokens,
		ReasoningTokens:  u.ReasoningTokens + o.ReasoningTokens,
		Estimated:        u.Estimated || o.Estimated,
	}
}
