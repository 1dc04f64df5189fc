package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/textcalls"
	"github.com/zero-agent/zero/internal/tools"
)

// DefaultMaxTurns is the backstop on model requests per run. It is high on
// purpose: a long, healthy task must never be cut by a step cap (issue 2).
const DefaultMaxTurns = 200

// Gate decides whether one tool call may run. internal/permission's gate
// implements it (internal/run adapts it); a nil Gate allows read tools
// and denies everything else.
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
	// Network: the call runs under tools.WithNetwork (a shell command
	// granted the network under sandbox.network "ask").
	Network bool
}

// GateFunc adapts a function to Gate.
type GateFunc func(ctx context.Context, call llm.ToolCall, t tools.Tool) Decision

// Decide calls f.
func (f GateFunc) Decide(ctx context.Context, call llm.ToolCall, t tools.Tool) Decision {
	return f(ctx, call, t)
}

// outcome is one executed tool call before shaping.
type outcome struct {
	Call   llm.ToolCall
	Result tools.Result
	// SideEffect is the tool's class ("" for an unknown tool); it drives
	// read-cache invalidation.
	SideEffect tools.SideEffect
}

// Options configures an Agent. Provider, Model and Tools are required.
type Options struct {
	Provider llm.Provider
	Model    string
	// System is the system prompt sent with every request (SystemPrompt,
	// PlanSystemPrompt); SetSystem changes it.
	System string
	Tools  *tools.Registry
	// Visible filters the tools offered to the model (plan mode offers
	// read-only tools only). Nil offers all.
	Visible func(tools.Tool) bool
	// Callable, when set, lets a call to a tool Visible hides run anyway
	// (a tool that answers well when not offered: ask_user says no one can
	// reply); nil: only visible tools run.
	Callable func(tools.Tool) bool
	Gate     Gate
	// MaxTurns caps model requests per run; 0 means DefaultMaxTurns.
	MaxTurns int
	// Retries is how many times a retryable provider failure (overloaded,
	// rate limit, broken or stalled stream) repeats the whole request;
	// 0 means 3. Negative disables. No surface sets it; it is a test
	// seam (the stop-reason tests disable retries).
	Retries int
	// RetryBase is the first backoff delay (doubled each time, jittered,
	// each wait at most 60 s); 0 means 1 s. A server's Retry-After is
	// waited exactly; one over 60 s stops the run (StopProviderError).
	// No surface sets it; it is a test seam: the retry tests set 1 ms so
	// they prove the retries without waiting seconds.
	RetryBase time.Duration
	// DisableTextToolCalls turns off the recovery of tool calls written
	// as text (Hermes/Qwen <tool_call>, Qwen3-Coder <function=...>,
	// Mistral [TOOL_CALLS], JSON call objects) and the stream filter that
	// hides their markup. Recovery is on by default; a provider profile
	// whose server always returns structured calls may switch it off
	// (config textToolCalls: false).
	DisableTextToolCalls bool
	// ToolProtocol is native, prompted or auto (the zero value: native
	// until the server refuses tools, then prompted for the rest of the
	// session); toolprotocol.go. Prompted mode recovers text calls even
	// when DisableTextToolCalls is set.
	ToolProtocol ToolProtocol
	// OnPromptedTools, when set, is called once when auto switches the
	// session to the prompted protocol (the run layer remembers the
	// choice for the server and model).
	OnPromptedTools func()

	// DisableLevers turns off every context lever (result cap, turn
	// budget, spill, read cache, write compaction): results are sent
	// unchanged. It exists for measurement (BenchmarkTrajectory's
	// baseline and TestLeversOffSendsEverything); compaction and
	// the history repair still run.
	DisableLevers bool
	// MaxToolOutput caps one tool result sent to the model, in bytes
	// (config maxToolOutput); 0 lets contextmgr.ToolOutputCap scale the
	// cap with the window (the one place that rule lives). The full
	// output is spilled to SessionDir; a read_file result is cut on line
	// boundaries instead, its marker naming the omitted lines and the
	// read_file call that fetches them.
	MaxToolOutput int
	// MaxTurnOutput caps all tool results of one turn together, in bytes
	// (config maxTurnOutput); 0 means contextmgr.DefaultMaxTurnOutput
	// (24 KB). Caps shrink to share it, never below 256 bytes.
	MaxTurnOutput int
	// SessionDir is the session's directory: cut tool outputs are spilled
	// to SessionDir/tool-output/<call id>.txt (bash streams an output
	// larger than it keeps in memory there itself, whole up to
	// tools.Options.BashFullOutputLimit) and the marker sent to the
	// model names that absolute path, so read_file must be allowed to
	// read SessionDir (add it as a workspace read root). Empty disables
	// spilling; markers then only count the omitted bytes.
	SessionDir string
	// ContextWindow is the model's context window in tokens (config
	// contextWindow, catalog, llama.cpp /props n_ctx, Ollama /api/show).
	// When set, the history is compacted before a request whose estimate
	// passes 2/3 of it. 0 means unknown: a context-overflow error from
	// the server triggers compaction, and the window the error names
	// (llama.cpp n_ctx, OpenAI's maximum context length) is used for the
	// rest of the session.
	ContextWindow int
	// MaxOutputTokens caps one reply, in tokens (config maxOutputTokens);
	// 0 means DefaultMaxOutputTokens. Every request asks for the smaller
	// of it and the room the window leaves after the estimated prompt
	// (budget.go).
	MaxOutputTokens int
	// CompletionCheck (on for exec) nudges the model once when its final
	// answer says work remains or claims tests pass while no test or
	// build command (go test, pytest, npm test, cargo build, make test,
	// ...) exited 0 in this run. Off, the same finding is only a
	// warning event (the TUI shows it).
	CompletionCheck bool
	// OnStop runs when the model gives its final answer (the Stop hooks);
	// a non-empty answer is sent to the model as a user message and the
	// run goes on. active is set when the run already went on because of
	// it (so a hook can let the model stop); final is the answer. Max
	// turns still bounds it.
	OnStop func(ctx context.Context, active bool, final string) string
	// Halted is asked after each batch of tool calls: a non-empty answer
	// (a hook's continue: false) ends the run with StopError and that
	// reason.
	Halted func() string
	// BeforeCompact runs before the history is compacted (the PreCompact
	// hooks); trigger is "manual" (/compact) or "auto".
	BeforeCompact func(ctx context.Context, trigger string)

	// History seeds the conversation (resume, fork).
	History []llm.Message
	// Plan is the latest plan of the session being resumed (its log's
	// last plan event); nil: none yet.
	Plan *event.TaskPlan
	// Planning marks plan mode: the plan is the answer there, so the
	// completion check does not ask for its steps to be done.
	Planning bool
	// Sink receives every event; nil discards.
	Sink event.Sink
	// ReasoningEffort is sent as llm.Request.ReasoningEffort ("low",
	// "medium", "high"; "" leaves it to the provider); SetReasoningEffort
	// changes it.
	ReasoningEffort string
	// ToolOutput, when set, takes a running tool's output as it arrives
	// (tools.WithOutputStream), by call id.
	ToolOutput func(callID string, p []byte)
}

// Agent runs prompts against one conversation. It is not safe for
// concurrent Runs.
type Agent struct {
	opts    Options
	history []llm.Message
	totals  event.Totals
	// responseSchema is sent on every request (SetResponseSchema).
	responseSchema json.RawMessage

	// ids issues the ids of recovered text calls, unique for the session.
	ids *textcalls.IDGen
	// mgr applies the per-result levers and holds their Stats.
	mgr *contextmgr.Manager
	// est converts bytes to tokens, calibrated by usage reports.
	est contextmgr.Estimator
	// turnSeq counts model turns across runs (read-cache stubs name it).
	turnSeq int
	// lastInput is the last server-reported prompt size in tokens;
	// lastBytes the request bytes it was reported for.
	lastInput, lastBytes int
	// fixedCounted is the fixed part as the server counted it (MeasureFixed).
	fixedCounted int
	// compactions counts compactions this session.
	compactions int
	// roomNeeded makes the next request compact first: the continuation
	// of a reply cut at its budget would not leave room for a reply.
	roomNeeded bool
	// runPrompt is the prompt of the current (or last) Run; nudges the
	// texts of the user messages the agent wrote itself. Compaction pins
	// the user's words (pinnedMessages).
	runPrompt string
	nudges    map[string]bool
	// prompted: requests use the prompted tool protocol.
	prompted bool
	// plan is the latest plan update_plan set (plan.go).
	plan *event.TaskPlan
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
	a := &Agent{opts: opts, history: h, ids: textcalls.NewIDGen(), prompted: opts.ToolProtocol == ToolProtocolPrompted, plan: opts.Plan}
	for _, m := range h {
		for _, c := range m.ToolCalls() {
			a.ids.Observe(c.ID)
		}
	}
	a.mgr = contextmgr.NewManager(opts.SessionDir)
	a.mgr.MaxToolOutput = opts.MaxToolOutput
	a.mgr.MaxTurnOutput = opts.MaxTurnOutput
	a.recount(h)
	return a
}

// History returns a copy of the conversation so far.
func (a *Agent) History() []llm.Message {
	return append([]llm.Message(nil), a.history...)
}

// SetHistory replaces the conversation (a rewind cut it back): later
// requests continue from h. The read cache and the server's last usage
// report describe the old conversation and are dropped. Not safe during
// a Run.
func (a *Agent) SetHistory(h []llm.Message) {
	a.history = append([]llm.Message(nil), h...)
	for _, m := range h {
		for _, c := range m.ToolCalls() {
			a.ids.Observe(c.ID)
		}
	}
	if a.mgr.Cache != nil {
		a.mgr.Cache = contextmgr.NewReadCache()
	}
	a.lastInput, a.lastBytes = 0, 0
}

// SetModel switches the model for later requests.
func (a *Agent) SetModel(model string) { a.opts.Model = model }

// SetProvider switches later requests to another provider (a /provider
// switch), with its text tool-call recovery and the tool protocol to
// start with; the history goes on as it is. The usage calibration of the
// old provider's tokenizer is dropped. Not safe during a Run.
func (a *Agent) SetProvider(p llm.Provider, disableTextToolCalls bool, proto ToolProtocol) {
	a.opts.Provider, a.opts.DisableTextToolCalls, a.opts.ToolProtocol = p, disableTextToolCalls, proto
	a.prompted = proto == ToolProtocolPrompted
	a.lastInput, a.lastBytes = 0, 0
}

// SetReasoningEffort sets the reasoning effort of later requests ("" for
// the provider's default). Not safe during Run.
func (a *Agent) SetReasoningEffort(effort string) { a.opts.ReasoningEffort = effort }

// Model is the model later requests go to.
func (a *Agent) Model() string { return a.opts.Model }

// SetContextWindow sets the model's window for later requests, in tokens
// (a model switch: compaction, result caps and reports follow the new
// model's window). Not safe during a Run.
func (a *Agent) SetContextWindow(tokens int) { a.opts.ContextWindow = tokens }

// SetMaxOutputTokens sets the cap on one reply for later requests, in
// tokens (a model switch: catalog.OutputCap of the new model); 0 means
// DefaultMaxOutputTokens. Not safe during a Run.
func (a *Agent) SetMaxOutputTokens(tokens int) { a.opts.MaxOutputTokens = tokens }

// SetSystem replaces the system prompt for later requests (a mode switch:
// PlanSystemPrompt on entering plan mode, SystemPrompt on leaving it). The
// history is untouched, but the system prompt opens every request, so the
// provider's prompt cache misses once, on the first request after the
// switch; requests stay append-only otherwise. Setting the prompt it
// already has changes nothing.
func (a *Agent) SetSystem(system string) { a.opts.System = system }

// SetVisible changes which tools are offered (mode changes).
func (a *Agent) SetVisible(f func(tools.Tool) bool) { a.opts.Visible = f }

// SetPlanning marks plan mode on or off for later runs (Options.Planning).
func (a *Agent) SetPlanning(on bool) { a.opts.Planning = on }

// SetResponseSchema sets the JSON Schema later requests ask the final
// answer to match (nil: none); see llm.Request.ResponseSchema.
func (a *Agent) SetResponseSchema(s json.RawMessage) { a.responseSchema = s }

// SetMaxTurns caps model requests per later run (a sub-agent's
// maxTurns); n <= 0 keeps the cap. Not safe during a Run.
func (a *Agent) SetMaxTurns(n int) {
	if n > 0 {
		a.opts.MaxTurns = n
	}
}

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
