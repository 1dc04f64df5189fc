package llmtest

import (
	"net/http"
	"strconv"
)

// created is the fixed "created" timestamp written in responses, so
// golden bytes are stable.
const created = 1767225600 // 2026-01-01T00:00:00Z

// Encoder renders scripted steps in one wire format. The server picks the
// first registered Encoder whose Match accepts the request, then calls
// Begin, Step for each content step (text, reasoning, tool_call, usage,
// finish), and End for a streamed turn, or Whole for a non-streamed one.
// Control steps (error, stall, drop, raw, comment) never reach Step.
//
// To add a format, write a type implementing Encoder in its own file and
// call registerEncoder from that file's init.
type Encoder interface {
	// Match reports whether this format serves r (method and path).
	Match(r *http.Request) bool
	// Streaming reports whether the request asked for a streamed reply.
	Streaming(req Request) bool
	// Begin returns the bytes that open a stream (may be nil).
	Begin(st *State) []byte
	// Step returns the stream bytes for one content step (may be nil,
	// e.g. usage the format reports only at the end).
	Step(st *State, s Step) []byte
	// End returns the bytes that close a stream: finish reason, usage,
	// terminator.
	End(st *State) []byte
	// StreamError frames an error body sent after the stream began.
	StreamError(st *State, body []byte) []byte
	// Whole returns the body of a non-streamed reply made of steps.
	Whole(st *State, steps []Step) []byte
}

// ModelLister is implemented by an Encoder whose format lists models in
// its own shape (e.g. Gemini's GET /v1beta/models). Without one, GET
// /v1/models answers in the OpenAI list shape.
type ModelLister interface {
	// MatchModels reports whether r is this format's model-list request.
	MatchModels(r *http.Request) bool
	// Models returns the list body for ids.
	Models(ids []string) []byte
}

// State is what an Encoder knows about the turn it is rendering. Encoders
// may keep their own counters in it.
type State struct {
	Request Request
	// Turn is the 0-based index of the scripted turn.
	Turn int
	// Model is the request's "model" field (or "llmtest-model").
	Model string
	// HasToolCalls is true when the turn contains a tool_call step.
	HasToolCalls bool
	// Usage is the turn's usage step, nil when the turn has none.
	Usage *Step
	// Finish is the turn's finish step reason, "" when none.
	Finish string
	// Prompt is the prompt as the fake llama-server counted it
	// (Server.LlamaServerCache); nil when that mode is off.
	Prompt *PromptCount
	// Calls counts tool-call steps rendered so far.
	Calls int
	// Chunks counts content chunks rendered so far.
	Chunks int
	// Scratch is the encoder's own per-turn state (e.g. which content block
	// is open); the server never reads it.
	Scratch any
}

// CallID returns the id a tool-call step is sent with: its ID, "" when
// NoID is set, else "call_llmtest_<n>" for the n-th call of the turn.
func (st *State) CallID(s Step) string {
	switch {
	case s.ID != "":
		return s.ID
	case s.NoID:
		return ""
	}
	return "call_llmtest_" + strconv.Itoa(st.Turn) + "_" + strconv.Itoa(st.Calls)
}

// FinishReason returns the turn's finish reason: the finish step's, else
// whenTools if the turn called tools, else whenStop.
func (st *State) FinishReason(whenStop, whenTools string) string {
	switch {
	case st.Finish != "":
		return st.Finish
	case st.HasToolCalls:
		return whenTools
	}
	return whenStop
}
