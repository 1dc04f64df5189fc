package tui

import (
	"context"
	"github.com/zero-agent/zero/internal/ask"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
)

// Backend is everything the TUI needs from the rest of Zero. The CLI
// satisfies it by wrapping the agent loop, the session store and the
// config; tests satisfy it with a fake that replays scripted events.
//
// Methods other than Run and Shell are called from the UI's command
// goroutines and may block briefly (disk I/O); none is called concurrently
// with itself except Info.
type Backend interface {
	// Run runs one user prompt through the agent loop, emitting events to
	// sink in order until run_end, and returns the stop reason. Cancelling
	// ctx interrupts the turn: the loop must stop promptly, give every
	// emitted tool call a result (case B26) and still emit run_end with
	// StopInterrupted. When a tool needs approval the loop calls
	// turn.Approve and blocks on its answer.
	Run(ctx context.Context, turn Turn, sink event.Sink) event.StopReason

	// Shell runs a user's `!cmd` inline through the same safety guard as the
	// bash tool (a denied command returns Denied, not an error). Cancelling
	// ctx kills the command's process group.
	Shell(ctx context.Context, command string, mode Mode) ShellResult

	// Info reports what the footer shows. It must be cheap and safe to call
	// at any time, including while Run is in progress.
	Info() Info

	// Report returns human-readable text for /config, /context, /logs,
	// /tools and /memory.
	Report(ctx context.Context, kind ReportKind) (string, error)

	// Sessions lists this project's sessions, newest first.
	Sessions(ctx context.Context) ([]Session, error)
	// Resume switches to the session whose id is idOrPrefix or starts with
	// it (an ambiguous prefix is an error naming the candidates) and
	// returns its history for display.
	Resume(ctx context.Context, idOrPrefix string) (Resumed, error)
	// NewSession starts an empty session and returns its id.
	NewSession(ctx context.Context) (string, error)
	// Compact compacts the current session's history now and returns a
	// one-line description of what it did ("42k → 6k tokens").
	Compact(ctx context.Context) (string, error)
	// SetModel switches the model for later turns (name as the provider
	// or catalog spells it).
	SetModel(ctx context.Context, name string) error
	// Models lists the model names the active provider offers (a live
	// list from an OpenAI-compatible server, the catalog for vendor
	// APIs), for /model and its Tab completion.
	Models(ctx context.Context) ([]string, error)
	// Rules lists the project and user rules in force (arg "") or says
	// why one exists (arg "why <id>"), for /rules.
	Rules(ctx context.Context, arg string) (string, error)
	// MCP answers /mcp [status|tools|reconnect NAME|remove NAME].
	MCP(ctx context.Context, arg string) (string, error)
}

// modeSetter is a Backend that takes a mode switch between turns (Shift+Tab
// while no turn runs), so reports show the new mode before the next
// prompt; every Backend gets the mode with each Turn regardless.
type modeSetter interface{ SetMode(Mode) }

// providerSwitcher is a Backend with provider profiles: /provider lists
// them (the one in use marked) and switches later prompts of the session
// to one; Tab completes their names.
type providerSwitcher interface {
	Providers(ctx context.Context) (string, error)
	ProviderNames() []string
	UseProvider(ctx context.Context, name string) (string, error)
}

// customLister is a Backend with custom slash commands (skills and
// command files): /help lists them, Tab completes them, and a line that
// calls one is sent as a prompt (the run layer expands it).
type customLister interface{ CustomCommands() []CustomCommand }

// CustomCommand is one custom slash command.
type CustomCommand struct {
	// Name follows the slash; Hint is its argument hint ("[file]").
	Name, Hint, Help string
}

// Mode is the permission mode, cycled with Shift+Tab and passed with each
// turn (internal/permission parses and owns it).
type Mode = permission.Mode

// Modes, in Shift+Tab order (Mode.Next).
const (
	// ModeNormal asks before file edits and flagged shell commands.
	ModeNormal = permission.ModeNormal
	// ModeAutoAccept approves file edits and flagged shell commands
	// (project rules' blocks and hard denies still apply).
	ModeAutoAccept = permission.ModeAutoAccept
	// ModePlan offers read-only tools only; the model is told it is
	// planning.
	ModePlan = permission.ModePlan
)

// Turn is one user prompt handed to Backend.Run.
type Turn struct {
	Prompt string
	// Images go with the prompt (/image, a pasted path).
	Images []llm.Image
	Mode   Mode
	// Approve answers permission requests for this turn. It blocks until
	// the user decides or ctx is cancelled (then it returns a deny with
	// reason "interrupted").
	Approve Approver
	// Ask answers the model's and MCP servers' questions for this turn
	// (the question form); nil: no one can answer.
	Ask ask.Asker
}

// Approver asks the user to approve one tool call.
type Approver func(ctx context.Context, req PermissionRequest) Decision

// PermissionRequest is what the permission prompt shows: the request
// every surface shares (internal/permission). Its strings are untrusted
// (they come from the model) and are sanitised for display.
type PermissionRequest = permission.Request

// Decision is the user's answer (internal/permission): allow once, for
// the session or always (a shell call's grant may cover a command
// Prefix), or deny with the user's typed Reason (sent to the model).
type Decision = permission.Decision

// Decision choices, as permission_decision events spell them.
const (
	AllowOnce    = permission.AllowOnce
	AllowSession = permission.AllowSession
	AllowAlways  = permission.AllowAlways
	Deny         = permission.Reject
)

// Info is the footer's data.
type Info struct {
	Model string
	// Host is the provider endpoint shown to the user ("127.0.0.1:8000",
	// "api.anthropic.com").
	Host string
	// ContextWindow is the model's context window in tokens (0 unknown).
	ContextWindow int
	// UsedTokens is how many tokens of the window the session uses now.
	UsedTokens int
	// Estimated marks UsedTokens as a local estimate; the footer shows
	// "~" until a server usage report replaces it.
	Estimated bool
	SessionID string
	// CostUSD is the session's estimated cost so far (0: not priced, a
	// local model), shown in the footer.
	CostUSD float64
}

// ReportKind names a text report for a slash command.
type ReportKind string

// Reports.
const (
	ReportConfig  ReportKind = "config"
	ReportContext ReportKind = "context"
	ReportLogs    ReportKind = "logs"
	ReportTools   ReportKind = "tools"
	// ReportMemory lists the instruction files loaded (AGENTS.md,
	// CLAUDE.md, ZERO.md, imports, nested ones) and from where.
	ReportMemory ReportKind = "memory"
	// ReportSkills lists the skills (/skills) and what was skipped.
	ReportSkills ReportKind = "skills"
	// ReportAgents lists the sub-agent definitions (/agents).
	ReportAgents ReportKind = "agents"
	// ReportStatus is /status: model, endpoint, window, mode, session,
	// MCP servers; ReportCost is /cost: tokens and estimated cost.
	ReportStatus ReportKind = "status"
	ReportCost   ReportKind = "cost"
)

// ShellResult is the outcome of a `!cmd`.
type ShellResult struct {
	// Output is combined stdout and stderr (untrusted, sanitised for
	// display).
	Output    string
	ExitCode  int
	ElapsedMs int64
	// Denied is non-empty when the guard refused the command; it says why.
	Denied string
	// Err is a failure to start the command.
	Err error
	// Interrupted: the user stopped the command (Esc Esc, ctrl+c); its
	// process group was killed and Output holds what it printed.
	Interrupted bool
}

// Session is one row of /sessions.
type Session struct {
	ID string
	// Turns is the number of prompts the user sent (as `zero sessions`
	// counts them: PROMPTS); Preview the first prompt.
	Turns   int
	Preview string
	// Updated is a display string for when it was last used.
	Updated string
}

// Resumed is a resumed session: its id, the history to re-display and
// the warnings it opened with (another workspace's session, a repaired
// log).
type Resumed struct {
	ID       string
	History  []llm.Message
	Warnings []string
	// Plan is the session's latest plan (update_plan), shown in the plan
	// panel; nil: none.
	Plan *event.TaskPlan
	// Outcomes are the tool results as the log recorded them, by call id
	// (exit code, time, diff); a call missing here is shown from its
	// History result.
	Outcomes map[string]event.ToolOutcome
}
