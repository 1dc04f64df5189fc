package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

// DefaultMaxTurns is the backstop on model requests per run. It is high on
// purpose: a long, healthy task must never be cut by a step cap (issue 2).
const DefaultMaxTurns = 200

// Gate decides whether one tool call may run. The permission engine
// (internal/sandbox) implements it; a nil Gate allows read tools and
// denies everything else.
type Gate interface {
	Decide(ctx context.Context, call llm.ToolCall, t tools.Tool) Decision
}

// Decision is a Gate's answer. A denial's Reason is sent to the model as the
// tool result, so it should say what the model can do instead.
type Decision struct {
	Allow  bool
	Reason string
	// Rewrite, when set, replaces the call's arguments (project rules that
	// rewrite a command).
	Rewrite string
}

// GateFunc adapts a function to Gate.
type GateFunc func(ctx context.Context, call llm.ToolCall, t tools.Tool) Decision

// Decide calls f.
func (f GateFunc) Decide(ctx context.Context, call llm.ToolCall, t tools.Tool) Decision {
	return f(ctx, call, t)
}

// TextCallRecoverer recovers tool calls that a model wrote as text
// (internal/llm/textcalls). It returns the calls and the prose left over.
type TextCallRecoverer func(text string, offered []string) (calls []llm.ToolCall, rest string)

// ResultShaper fits one turn's tool results into the context window
// (internal/contextmgr): given the outcomes in call order it returns the
// content to send for each. Nil sends results unchanged.
type ResultShaper func(turn int, outcomes []Outcome) []string

// Outcome is one executed tool call before shaping.
type Outcome struct {
	Call   llm.ToolCall
	Result tools.Result
}

// Options configures an Agent. Provider, Model and Tools are required.
type Options struct {
	Provider llm.Provider
	Model    string
	// System is the system prompt sent with every request.
	System string
	Tools  *tools.Registry
	// Visible filters the tools offered to the model (plan mode offers
	// read-only tools only). Nil offers all.
	Visible func(tools.Tool) bool
	Gate    Gate
	// MaxTurns caps model requests per run; 0 means DefaultMaxTurns.
	MaxTurns int
	// MaxOutputTokens is sent as the request's max tokens; 0 for default.
	MaxOutputTokens int
	// Retries is how many times a retryable provider failure (overloaded,
	// rate limit, broken or stalled stream) repeats the whole request;
	// 0 means 3. Negative disables.
	Retries int
	// RetryBase is the first backoff delay (doubled each time, jittered);
	// 0 means 1 s.
	RetryBase time.Duration
	// RecoverTextCalls, when set, is tried on a turn with no structured
	// tool calls.
	RecoverTextCalls TextCallRecoverer
	Shape            ResultShaper
	// History seeds the conversation (resume, fork).
	History []llm.Message
	// Sink receives every event; nil discards.
	Sink event.Sink
	// BeforeRequest may rewrite the history just before each request
	// (compaction, write compaction). It returns the messages to send.
	BeforeRequest func(ctx context.Context, history []llm.Message) []llm.Message
}

// Agent runs prompts against one conversation. It is not safe for
// concurrent Runs.
type Agent struct {
	opts    Options
	history []llm.Message
	totals  event.Totals
}

// New returns an agent over opts.
func New(opts Options) *Agent {
	if opts.MaxTurns <= 0 {
		opts.MaxTurns = DefaultMaxTurns
	}
	if opts.Retries == 0 {
		opts.Retries = 3
	}
	if opts.RetryBase == 0 {
		opts.RetryBase = time.Second
	}
	if opts.Sink == nil {
		opts.Sink = event.SinkFunc(func(event.Event) {})
	}
	if opts.Tools == nil {
		opts.Tools = tools.NewRegistry()
	}
	h := append([]llm.Message(nil), opts.History...)
	return &Agent{opts: opts, history: h}
}

// History returns a copy of the conversation so far.
func (a *Agent) History() []llm.Message {
	return append([]llm.Message(nil), a.history...)
}

// SetModel switches the model for later requests.
func (a *Agent) SetModel(model string) { a.opts.Model = model }

// SetVisible changes which tools are offered (mode changes).
func (a *Agent) SetVisible(f func(tools.Tool) bool) { a.opts.Visible = f }

// SetGate changes the permission gate.
func (a *Agent) SetGate(g Gate) { a.opts.Gate = g }

// Result is what one Run produced.
type Result struct {
	StopReason event.StopReason
	// Final is the final answer text (empty unless completed).
	Final  string
	Err    error
	Totals event.Totals
}

// NewRunID returns a random run id like "run_3f9a1c2b7d4e".
func NewRunID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "run_" + hex.EncodeToString(b[:])
}
