// Package event defines the one event type that flows from the agent loop
// to every consumer: the TUI, the exec writers (text, json, stream-json),
// the ACP bridge and the session log. A new surface is a new consumer of
// Event, never a second loop.
//
// It owns the vocabulary only; it performs no I/O and must not import any
// surface, provider or store package.
package event

import (
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// SchemaVersion is the version of the serialized event shape (stream-json
// output and events.jsonl lines). Bump it on any incompatible change.
const SchemaVersion = 1

// Type names an event. The stream-json names are documented in
// docs/stream-json.md.
type Type string

// Event types.
const (
	RunStart   Type = "run_start"   // a run began: Model, Provider, Prompt, Workspace
	Text       Type = "text"        // assistant text delta: Text
	Reasoning  Type = "reasoning"   // reasoning delta: Text
	ToolCall   Type = "tool_call"   // a complete tool call about to be gated/run: ToolCall
	ToolResult Type = "tool_result" // a tool finished: Result
	Usage      Type = "usage"       // server-reported usage for one request: Usage
	Warning    Type = "warning"     // something the user should know: Text
	Error      Type = "error"       // a failure: Text, ErrorKind
	Final      Type = "final"       // the final answer of the run: Text
	RunEnd     Type = "run_end"     // the run ended: StopReason, Totals
	// Message records one complete conversation message appended to the
	// history (user, assistant with tool calls, tool results). The session
	// log replays these on resume; surfaces may ignore them.
	Message Type = "message"
	// Permission events (issue 5) are declared here so every surface shares them.
	PermissionRequest  Type = "permission_request"
	PermissionDecision Type = "permission_decision"
	// Compaction records that history was compacted: Text holds the summary.
	Compaction Type = "compaction"
	// Hook records one hook command run (issue 5): HookRun.
	Hook Type = "hook"
	// UserShell records a `!cmd` the user ran in the interactive app:
	// Text is the command, Result its outcome.
	UserShell Type = "user_shell"
	// Plan carries the model's plan after an update_plan call: Plan.
	// The latest one survives compaction and is restored on resume.
	Plan Type = "plan"
	// QuestionAsked is a question put to the user (the ask_user tool, an
	// MCP server's elicitation): Question. QuestionAnswered is the reply:
	// Question with Answer set ("answer" is also the type of the
	// stream-json input line that gives it).
	QuestionAsked    Type = "question"
	QuestionAnswered Type = "answer"
	// Checkpointed records workspace files a tool or shell command changed
	// (Checkpoint: each file's state before and, once known, after), so
	// `zero sessions rewind` can put them back. Rewound records a rewind
	// (Checkpoint.To, Files, Conversation); it counts as a prompt, so a
	// rewind can itself be rewound.
	Checkpointed Type = "checkpoint"
	Rewound      Type = "rewind"
)

// StopReason says why a run ended.
type StopReason string

// Stop reasons.
const (
	StopCompleted     StopReason = "completed"
	StopMaxTurns      StopReason = "max_turns"
	StopInterrupted   StopReason = "interrupted"
	StopProviderError StopReason = "provider_error"
	StopStuck         StopReason = "stuck"
	StopError         StopReason = "error"
)

// Event is one thing that happened during a run. Fields beyond Type, RunID
// and Time are set according to Type.
type Event struct {
	SchemaVersion int       `json:"schemaVersion"`
	Type          Type      `json:"type"`
	RunID         string    `json:"runId"`
	Time          time.Time `json:"time"`
	// Turn counts model requests within the run, from 1.
	Turn int `json:"turn,omitempty"`
	// ParentToolCallID, on a sub-agent's events as its parent's surface
	// sees them, is the id of the parent's task call that runs it; Agent
	// is the sub-agent's name. Both are empty on the parent's own events.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	Agent            string `json:"agent,omitempty"`
	// AgentSession is the sub-agent's own session on those events (not
	// in a log line: stream-json writes it as the sessionId of the
	// sub-agent's run_start and run_end).
	AgentSession string `json:"-"`

	Text      string        `json:"text,omitempty"`
	ErrorKind llm.ErrorKind `json:"errorKind,omitempty"`

	// RunStart fields.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	Prompt   string `json:"prompt,omitempty"`
	// ContextWindow is the model's context window in tokens as the run
	// layer resolved it (0: unknown), so reports read later (`zero
	// context`) use the window the session ran with.
	ContextWindow int `json:"contextWindow,omitempty"`
	// Workspace is the run's workspace root (absolute). The session log
	// fills it in the run_start lines it writes, so a lost metadata.json
	// can be rebuilt from the log; other consumers may leave it empty.
	Workspace string `json:"workspace,omitempty"`

	ToolCall *llm.ToolCall `json:"toolCall,omitempty"`
	Result   *ToolOutcome  `json:"result,omitempty"`
	Usage    *llm.Usage    `json:"usage,omitempty"`
	Message  *llm.Message  `json:"message,omitempty"`

	// ElapsedMs is the wall time of a turn (Usage events) or tool run.
	ElapsedMs int64 `json:"elapsedMs,omitempty"`
	// CostUSD is the estimated price of one request (Usage events) when the
	// model catalog knows the model's prices.
	CostUSD float64 `json:"costUsd,omitempty"`

	// RunEnd fields.
	StopReason StopReason `json:"stopReason,omitempty"`
	Totals     *Totals    `json:"totals,omitempty"`

	// Permission fields.
	Permission *Permission `json:"permission,omitempty"`

	// HookRun is set for Hook events.
	HookRun *HookRun `json:"hookRun,omitempty"`

	// Plan is set for Plan events.
	Plan *TaskPlan `json:"plan,omitempty"`
	// Question is set for Question and Answer events.
	Question *Question `json:"question,omitempty"`
	// Checkpoint is set for Checkpointed and Rewound events.
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
}

// Checkpoint is what a Checkpointed or Rewound event carries (internal/
// checkpoint records and replays them).
type Checkpoint struct {
	// Changes are the files changed, workspace-relative with slashes.
	Changes []FileChange `json:"changes,omitempty"`
	// Skipped are files that changed but were over the size limit (not
	// recorded; a rewind cannot restore them).
	Skipped []string `json:"skipped,omitempty"`
	// To, Files, Conversation: a Rewind's target prompt and what it
	// restored.
	To           int  `json:"to,omitempty"`
	Files        bool `json:"files,omitempty"`
	Conversation bool `json:"conversation,omitempty"`
}

// FileChange is one file's state before a change and, when known, after.
// A nil state is unknown (not recorded in this event).
type FileChange struct {
	Path   string     `json:"path"`
	Before *FileState `json:"before,omitempty"`
	After  *FileState `json:"after,omitempty"`
}

// FileState is a file's content (the sha256 of its bytes in the
// checkpoint store) and mode; an empty Hash: the file did not exist.
type FileState struct {
	Hash string `json:"hash,omitempty"`
	Mode uint32 `json:"mode,omitempty"`
	Size int64  `json:"size,omitempty"`
}

// Question is a question put to the user, with the same fields on every
// surface (internal/ask checks answers against it).
type Question struct {
	// ID names the question; an answer gives it back.
	ID string `json:"id"`
	// From is who asks: "model", or "mcp:<server>" for an elicitation.
	From    string `json:"from"`
	Message string `json:"message"`
	// Fields are what to fill in; the ask_user tool asks one, "answer".
	Fields []QuestionField `json:"fields"`
	// Answer is set on Answer events.
	Answer *QuestionAnswer `json:"answer,omitempty"`
}

// QuestionField is one value a question asks for.
type QuestionField struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Kind is text, number, integer, boolean, choice (one of Choices) or
	// choices (several of them).
	Kind string `json:"kind"`
	// Choices are a choice field's values; with Other set any text is
	// taken too (the choices are suggestions). Labels, when set, are what
	// to show for each choice (the values are what is sent).
	Choices  []string `json:"choices,omitempty"`
	Labels   []string `json:"labels,omitempty"`
	Other    bool     `json:"other,omitempty"`
	Required bool     `json:"required,omitempty"`
	Default  any      `json:"default,omitempty"`
	// Min and Max bound a number (its value) or a choices field (how
	// many); Format is a text field's hint (email, uri, date, date-time).
	Min    *float64 `json:"min,omitempty"`
	Max    *float64 `json:"max,omitempty"`
	Format string   `json:"format,omitempty"`
}

// QuestionAnswer is the user's reply: Action accept (with Values, by
// field name), decline or cancel.
type QuestionAnswer struct {
	Action string         `json:"action"`
	Values map[string]any `json:"values,omitempty"`
}

// HookRun records one hook command for the audit trail in the session log.
type HookRun struct {
	// Event is the hook event in Claude Code's names (PreToolUse,
	// PostToolUse, Stop, ...); Matcher the matcher that selected the hook.
	Event   string `json:"event"`
	Matcher string `json:"matcher,omitempty"`
	Command string `json:"command"`
	// Source is the file the hook came from.
	Source    string `json:"source,omitempty"`
	Tool      string `json:"tool,omitempty"`
	ExitCode  int    `json:"exitCode"`
	ElapsedMs int64  `json:"elapsedMs"`
	Blocked   bool   `json:"blocked,omitempty"`
	TimedOut  bool   `json:"timedOut,omitempty"`
	Stderr    string `json:"stderr,omitempty"`
	Error     string `json:"error,omitempty"`
	// Decision is what the run decided: block, allow, ask, stop, context
	// (it added text for the model), or empty (nothing).
	Decision string `json:"decision,omitempty"`
}

// ToolOutcome describes a finished tool call.
type ToolOutcome struct {
	CallID  string `json:"callId"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
	// RawBytes is the size of the tool's full output; KeptBytes what was
	// sent to the model after caps (bytes, not tokens).
	RawBytes  int `json:"rawBytes"`
	KeptBytes int `json:"keptBytes"`
	// ExitCode is set for shell tools.
	ExitCode *int `json:"exitCode,omitempty"`
	// Diff is a unified diff for edits, for display.
	Diff      string `json:"diff,omitempty"`
	ElapsedMs int64  `json:"elapsedMs"`
	// Denied is why the permission gate refused the call (a rule, the
	// mode, a person, a hook); empty when the call ran.
	Denied string `json:"denied,omitempty"`
}

// Totals sums a run.
type Totals struct {
	Turns     int       `json:"turns"`
	ToolCalls int       `json:"toolCalls"`
	Usage     llm.Usage `json:"usage"`
	// CostUSD is the estimated cost when the catalog knows prices; it
	// includes the sub-agents' (Subagents).
	CostUSD   float64 `json:"costUsd,omitempty"`
	ElapsedMs int64   `json:"elapsedMs"`
	// Subagents sums the runs of the sub-agents this run started (nil:
	// none): their turns, tool calls, usage and cost.
	Subagents *Totals `json:"subagents,omitempty"`
}

// Permission carries a permission request or a person's decision on it,
// with the same fields on every surface (internal/permission's Request
// and Decision are its typed forms).
type Permission struct {
	// ID is the tool call's id; a decision names the request it answers.
	ID   string `json:"id"`
	Tool string `json:"tool"`
	// Summary is the call's arguments on one line.
	Summary string `json:"summary,omitempty"`
	// Command is a shell call's whole command line, unabridged.
	Command string `json:"command,omitempty"`
	// Path and Diff: the file an edit or write touches and its unified
	// diff against the file as it is.
	Path string `json:"path,omitempty"`
	Diff string `json:"diff,omitempty"`
	// Prefix: on a request, the command prefix a grant could cover
	// ("go test"); on a decision, the prefix granted.
	Prefix string `json:"prefix,omitempty"`
	// Decision is allow_once | allow_session | allow_always | deny.
	Decision string `json:"decision,omitempty"`
	// Reason: on a request, why it needs a person; on a denial, the
	// person's reason (sent to the model).
	Reason string `json:"reason,omitempty"`
	// Network, on a request: allowed, the shell command runs with the
	// network (sandbox.network "ask").
	Network bool `json:"network,omitempty"`
}

// Sink consumes events. Implementations must not block the loop for long;
// the loop calls Emit synchronously in event order.
type Sink interface {
	Emit(Event)
}

// OutputSink is a Sink that also takes a running tool's output as the
// tool produces it (bash's combined stdout and stderr, in pieces), so a
// surface can show a command while it runs. These pieces are not events:
// no log records them, and the tool's result still carries the output.
// ToolOutput is called from the tool's goroutine and must not block.
type OutputSink interface {
	Sink
	ToolOutput(callID string, p []byte)
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(Event)

// Emit calls f(e).
func (f SinkFunc) Emit(e Event) { f(e) }

// Stamper fills RunID, Turn, Time and SchemaVersion of events that come
// from outside the agent loop (permission requests and decisions, hook
// runs) from the last loop event it passed on, so every consumer sees
// complete events.
type Stamper struct {
	Next  Sink
	mu    sync.Mutex
	runID string
	turn  int
}

// Emit stamps e when needed and passes it on.
func (s *Stamper) Emit(e Event) {
	s.mu.Lock()
	if e.RunID != "" {
		s.runID, s.turn = e.RunID, e.Turn
	} else {
		e.RunID = s.runID
		if e.Turn == 0 {
			e.Turn = s.turn
		}
	}
	s.mu.Unlock()
	if e.SchemaVersion == 0 {
		e.SchemaVersion = SchemaVersion
	}
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	s.Next.Emit(e)
}

// Multi fans one event out to several sinks in order.
type Multi []Sink

// Emit sends e to every sink.
func (m Multi) Emit(e Event) {
	for _, s := range m {
		if s != nil {
			s.Emit(e)
		}
	}
}
