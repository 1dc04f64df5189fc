package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/checkpoint"
	"github.com/zero-agent/zero/internal/commands"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/instructions"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/mcp/toolsearch"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/providers/catalog"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/skills"
	"github.com/zero-agent/zero/internal/subagents"
	"github.com/zero-agent/zero/internal/tools"
)

// Which names the session to open: a new one (the zero value), the
// workspace's latest (Latest), one by id or unambiguous prefix (ID), or a
// new branch of one (Fork).
type Which struct {
	Latest bool
	ID     string
	Fork   string
	// At, with Fork: the fork starts from the state before prompt At of
	// the forked session (its conversation is cut there; the files are
	// left as they are unless RestoreFiles).
	At int
	// RestoreFiles, with At: the fork also puts the workspace files back
	// to before prompt At (a rewind logged in the fork, so it can be
	// undone there; files changed since by others are kept and listed).
	RestoreFiles bool
	// Parent, for a new session, is the session whose sub-agent it is
	// (internal/run/subagent.go): recorded in its metadata, and a child
	// is not offered the task tool. Root is the top of its lineage;
	// Agent the sub-agent's name and Title its job, on one line.
	Parent, Root, Agent, Title string
}

// Session is one open conversation: its log, its agent loop, its gate and
// its sink chain. One prompt runs at a time.
type Session struct {
	rt      *Runtime
	log     *sessions.Session
	agent   *agent.Agent
	chain   *event.Stamper
	pricing *pricing
	surface *surface
	gate    *permission.Gate
	hooks   *HookRunner
	// nested: a sub-agent's run inside its parent's turn. Only the tool
	// hooks and SubagentStop fire for it (sessionhooks.go), as in Claude
	// Code; the parent's session hooks already cover the turn.
	nested bool
	// subagentStopHook, in a nested run, fires its parent's SubagentStop
	// hooks when the sub-agent gives its final answer (openChild); a
	// block sends the sub-agent back to work, as Stop does for a session.
	subagentStopHook func(ctx context.Context, active bool, final string) string

	mu    sync.Mutex
	usage Usage
	// reported: the last usage report describes the latest request (a
	// user or tool message, or a compaction, makes it stale).
	reported bool
	// shellNotes are `!cmd` outputs the next prompt carries as context.
	shellNotes []string
	closed     bool
	// minimal: the window is too small for the default profile;
	// noExec: too small for it with exec_command and write_stdin
	// (fitWindow).
	minimal, noExec bool
	// noTask: the task tool is not offered (a window under
	// taskMinWindow, where a sub-agent's brief and answer cost more than
	// they save, or a sub-agent itself).
	noTask bool
	// warnedImages: takesImages said once that the model may not take
	// images.
	warnedImages bool
	// notes are the warnings of opening the session (Notes).
	notes []string
	// started is the date line of the system prompt (kept across mode
	// switches so the prompt only changes where the mode does).
	started time.Time
	// edits are the file-editing tools this session's model is offered.
	edits editTools
	// tools is the agent's tool set; MCP tools join it before the first
	// request (PrepareMCP), mcpCall is its mcp_call when offered.
	tools   *tools.Registry
	mcpOnce sync.Once
	mcpErr  error
	mcpCall *toolsearch.CallTool
	// instructions are the instruction files of the system prompt and
	// the nested ones tool calls added (instructions.go).
	instructions *instructions.Set
	// skills and commands are the session's skills and custom commands
	// (extensions.go).
	skills   *skills.Set
	commands *commands.Set
	// procs are the processes exec_command started; Close ends them.
	procs *tools.Procs
	// questions is the asker of the prompt under way (questions.go).
	questions questions
	// spent sums the usage reports of this process (status.go).
	spent spent
	// ckpt records what the tools change (checkpoints.go); nil: off.
	ckpt *checkpoint.Set
	// agents are the sub-agent definitions the task tool offers (nil in
	// a sub-agent: they do not nest); children are the sub-agents
	// running now (subagent_status.go).
	agents   *subagents.Set
	children children
}

// Usage is how much of the window the session uses now.
type Usage struct {
	UsedTokens int
	// Estimated marks UsedTokens as a local estimate (no server report
	// yet, or one made stale by a later message).
	Estimated bool
}

// OpenSession opens the session w names, locks it, and fires the
// SessionStart hooks (a block is a ConfigError). A resumed session of
// another workspace opens with a warning.
func (rt *Runtime) OpenSession(w Which) (*Session, error) {
	if rt.Provider == nil {
		return nil, errors.New("this runtime serves tools only (Options.NoModel): it has no model to open a session with")
	}
	log, got, err := rt.openLog(w)
	if err != nil {
		return nil, err
	}
	s := &Session{rt: rt, log: log, started: time.Now(), notes: got.notes, instructions: LoadInstructions(rt.Workspace.Root(), rt.Trusted)}
	model, window := rt.ModelWindow()
	s.chain, s.pricing, s.surface = newChain(log, string(rt.Active.Kind), model, rt.window)
	s.hooks = &HookRunner{runner: rt.hooks, audit: s.chain, sessID: log.ID(), transcript: log.EventsPath(), engine: rt.Engine}
	s.gate = &permission.Gate{Engine: rt.Engine, Workspace: rt.Workspace, Audit: s.chain, Hooks: s.hooks}
	if err := rt.Workspace.AddReadRoot(log.Dir()); err != nil {
		fmt.Fprintln(rt.warnings(), "zero: warning: cut tool outputs will not be readable:", err)
	}
	mode := rt.Engine.Mode()
	proto, protoNote := rt.sessionToolProtocol(model)
	if protoNote != "" {
		fmt.Fprintln(rt.warnings(), "zero:", protoNote)
	}
	s.procs = tools.NewProcs()
	s.ckpt = rt.newTracker(s.chain.Emit)
	topts := ToolOptions{Policy: &rt.policy, Engine: rt.Engine, Hooks: s.hooks, Procs: s.procs, Ask: s.asker, Checkpoints: s.ckpt}
	s.tools = ToolSet(rt.Workspace, topts)
	s.loadExtensions(topts)
	s.nested = w.Parent != ""
	child := s.nested || got.parent != ""
	if !child { // sub-agents do not nest
		s.agents = subagents.Discover(ExtensionOptions(rt.Workspace.Root(), rt.Trusted, rt.plugins))
		s.tools.Add(wrapTool(&taskTool{parent: s, agents: s.agents}, topts))
	}
	s.noTask = child || window < taskMinWindow
	withNested(s.tools, s.instructions)
	s.edits = chooseEditTools(rt.Config.EditTool, string(rt.Active.Kind), model)
	s.agent = agent.New(agent.Options{
		Provider:             rt.Provider,
		Model:                model,
		System:               s.systemPrompt(mode),
		Tools:                s.tools,
		Gate:                 agent.GateFunc(s.decide),
		Visible:              Visible(mode),
		MaxTurns:             rt.maxTurns,
		History:              got.history,
		Plan:                 got.plan,
		Planning:             mode == permission.ModePlan,
		Sink:                 event.Multi{s.chain, event.SinkFunc(s.track), event.SinkFunc(s.noteSpent)},
		ToolOutput:           s.surface.toolOutput,
		SessionDir:           log.Dir(),
		ContextWindow:        window,
		MaxToolOutput:        rt.Config.MaxToolOutput,
		MaxTurnOutput:        rt.Config.MaxTurnOutput,
		MaxOutputTokens:      outputCap(string(rt.Active.Kind), model, rt.Config.MaxOutputTokens),
		DisableTextToolCalls: !rt.Active.TextToolCalls,
		ToolProtocol:         proto,
		OnPromptedTools:      rt.rememberPromptedTools,
		Callable:             func(t tools.Tool) bool { return t.Name() == ask.ToolName },
		CompletionCheck:      rt.opts.CompletionCheck,
		OnStop:               s.onStop,
		Halted:               s.hooks.Halted,
		BeforeCompact:        s.beforeCompact,
	})
	s.fitWindow(window)
	s.usage = Usage{UsedTokens: s.agent.ContextReport().UsedTokens, Estimated: true}
	s.requeueShell()
	if err := s.sessionStart(w); err != nil {
		log.Close()
		return nil, err
	}
	return s, nil
}

// opened is what a session log gave on opening: its history, its latest
// plan and its warnings.
type opened struct {
	history []llm.Message
	plan    *event.TaskPlan
	notes   []string
	// parent is the parent session of a sub-agent's log ("" otherwise):
	// resumed on its own, it is still not offered the task tool.
	parent string
}

// openLog opens (and locks) the session log w names, with its history.
// Its warnings (another workspace's session, a damaged log) are written
// to the runtime's warnings writer and returned.
func (rt *Runtime) openLog(w Which) (*sessions.Session, opened, error) {
	var log *sessions.Session
	var err error
	switch {
	case w.Fork != "":
		if w.At != 0 {
			if err = checkAt(rt.Store, w.Fork, w.At); err != nil {
				break
			}
		}
		log, err = rt.Store.Fork(w.Fork)
		if err == nil && w.At != 0 {
			if err = rt.forkAt(log, w); err != nil {
				log.Close()
			}
		}
	case w.ID != "":
		log, err = rt.Store.Load(w.ID)
	case w.Latest:
		log, err = rt.Store.Latest(rt.Workspace.Root())
		if errors.Is(err, sessions.ErrNotFound) {
			return nil, opened{}, configErrorf("no session to resume in %s (zero sessions --all lists them)", rt.Workspace.Root())
		}
	default:
		model, _ := rt.ModelWindow()
		log, err = rt.Store.Create(sessions.Metadata{Workspace: rt.Workspace.Root(), Provider: rt.Active.Name, Model: model, ParentID: w.Parent, RootID: w.Root, Agent: w.Agent, Title: w.Title})
	}
	if err != nil {
		if errors.Is(err, sessions.ErrNotFound) || errors.Is(err, sessions.ErrAmbiguous) {
			return nil, opened{}, &ConfigError{err.Error()}
		}
		return nil, opened{}, err
	}
	if err := log.Lock(); err != nil {
		log.Close()
		if errors.Is(err, sessions.ErrInUse) {
			return nil, opened{}, &InUseError{ID: log.ID(), Err: err}
		}
		return nil, opened{}, err
	}
	var notes []string
	if m := log.Meta(); !m.InWorkspace(rt.Workspace.Root()) {
		// it now works here, so it is listed and resumed here
		if err := log.MoveTo(rt.Workspace.Root()); err != nil {
			log.Close()
			return nil, opened{}, err
		}
		notes = append(notes, fmt.Sprintf("session %s was in %s; it now works in this folder (%s): `zero sessions` lists it here and --resume here continues it", log.ID(), m.Workspace, rt.Workspace.Root()))
	}
	history, plan, warns, err := log.Restore()
	if err != nil {
		log.Close()
		return nil, opened{}, err
	}
	for _, w := range sessions.Summarize(warns) {
		notes = append(notes, "session log: "+w)
	}
	for _, n := range notes {
		fmt.Fprintln(rt.warnings(), "zero: warning:", n)
	}
	return log, opened{history: history, plan: plan, notes: notes, parent: log.Meta().ParentID}, nil
}

// InUseError: another zero holds the session's lock.
type InUseError struct {
	ID  string
	Err error
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("%v (fork it instead: --fork %s)", e.Err, e.ID)
}
func (e *InUseError) Unwrap() error { return e.Err }

// Turn is one prompt for Session.Prompt.
type Turn struct {
	Prompt string
	// Images are attached to the prompt (LoadImage read them).
	Images []llm.Image
	// Sink is the surface's consumer of the run's events (nil: the
	// session log only).
	Sink event.Sink
	// Ask answers permission requests; nil turns them into denials the
	// model can read (headless runs never block).
	Ask permission.Asker
	// Question answers the model's ask_user calls and MCP servers'
	// elicitations; nil: no one can answer (ask_user tells the model to
	// go on, elicitations are declined).
	Question ask.Asker
	// Schema is a JSON Schema the final answer must match, sent to
	// providers with structured output (llm.Request.ResponseSchema).
	Schema json.RawMessage
	// Notes follow the prompt for the model only (agent.Input.Notes):
	// the session log's run_start keeps the prompt as the user gave it.
	Notes string
}

// Prompt runs one prompt to its end (cancel ctx to interrupt: the loop
// stops, every tool call gets a result, run_end is written and the session
// stays resumable). `!cmd` outputs since the last prompt follow it, as
// context.
func (s *Session) Prompt(ctx context.Context, t Turn) agent.Result {
	s.surface.set(t.Sink)
	defer s.surface.set(nil)
	s.gate.Ask = s.notifying(t.Ask)
	defer func() { s.gate.Ask = nil }()
	s.questions.set(ctx, t.Question)
	defer s.questions.set(nil, nil)
	s.rt.asking.push(s)
	defer s.rt.asking.pop(s)
	_ = s.PrepareMCP(ctx) // a required server's failure is exec's to act on; here its warning was shown
	prompt, done, err := s.expandCommand(ctx, t.Prompt)
	defer done()
	if err == nil {
		prompt, err = s.expandMentions(ctx, prompt, s.Warn, &t.Images)
	}
	if err == nil {
		prompt, err = s.userPromptSubmit(ctx, prompt)
	}
	if err == nil && len(t.Images) > 0 {
		err = s.takesImages(s.Warn) // the model may have changed since they were attached
	}
	if err != nil {
		s.chain.Emit(event.Event{Type: event.Error, Text: err.Error()})
		return agent.Result{StopReason: event.StopError, Err: err}
	}
	s.agent.SetResponseSchema(t.Schema)
	defer s.agent.SetResponseSchema(nil)
	res := s.agent.RunInput(ctx, agent.Input{Prompt: prompt, Notes: s.takeShellNotes() + t.Notes, Images: t.Images})
	if s.ckpt != nil { // the prompt's changes inotify could not see
		if err := s.ckpt.Settle(); err != nil {
			warnCheckpoint(err)
		}
	}
	s.refreshAssumedWindow()
	s.mu.Lock()
	if !s.reported {
		// Many local servers send no usage: show the same estimate
		// /context reports rather than a stale number.
		s.usage = Usage{UsedTokens: s.agent.ContextReport().UsedTokens, Estimated: true}
	}
	s.mu.Unlock()
	return res
}

// systemPrompt is the session's system prompt in mode: plan mode's says
// the run is read-only and its answer a plan; the minimal profile's is
// short.
func (s *Session) systemPrompt(mode permission.Mode) string {
	extra := SystemExtra(s.instructions, s.skills, s.rt.window())
	switch {
	case mode == permission.ModePlan:
		return agent.PlanSystemPrompt(s.rt.Workspace.Root(), s.started, extra)
	case s.minimal:
		return agent.MinimalSystemPrompt(s.rt.Workspace.Root(), s.started, extra)
	}
	return agent.SystemPrompt(s.rt.Workspace.Root(), s.started, extra)
}

// fitWindow fits Zero's own prompt and tool schemas into a third of the
// window (compaction starts at two thirds, so more would leave the
// conversation less room than Zero's own overhead): the default
// profile; else the default without the interactive-process tools
// (exec_command, write_stdin; bash remains); else the minimal profile
// (fewer tools, short instructions), which it says once per runtime.
func (s *Session) fitWindow(window int) {
	mode := s.rt.Engine.Mode()
	s.noExec = false
	s.setProfile(mode, false)
	overhead, counted := s.fixedTokens()
	if window <= 0 || overhead*3 <= window {
		return
	}
	s.noExec = true
	s.setProfile(mode, false)
	if lean, _ := s.fixedTokens(); lean*3 <= window {
		return
	}
	s.setProfile(mode, true)
	smallTokens, smallCounted := s.fixedTokens()
	approx := map[bool]string{true: "", false: "~"}
	s.rt.warnOnce.Do(func() {
		fmt.Fprintf(s.rt.warnings(), "zero: warning: the model's window (%d tokens) is small for Zero's prompt and tools (%s%d tokens): using the minimal profile (%d tools, short instructions, %s%d tokens)\n",
			window, approx[counted], overhead, s.agent.ContextReport().Tools, approx[smallCounted], smallTokens)
	})
}

// fixedTokens is the size of the system prompt and the offered tool
// schemas now: the server's count when it gives one (counted), else the
// estimate.
func (s *Session) fixedTokens() (tokens int, counted bool) {
	counted = s.countFixed()
	r := s.agent.ContextReport()
	if counted {
		return r.FixedCounted, true
	}
	return r.SystemTokens + r.ToolsTokens, false
}

// decide is the agent's gate: the permission gate, with the surface's
// asker of the prompt under way.
func (s *Session) decide(ctx context.Context, call llm.ToolCall, t tools.Tool) agent.Decision {
	if inner, target, ok := s.mcpTarget(call, t); ok {
		call, t = inner, target
	}
	o := s.gate.Decide(ctx, call, t)
	return agent.Decision{Allow: o.Allow, Reason: o.Reason, Rewrite: o.Rewrite, Network: o.Network}
}

// track follows usage reports for Usage.
func (s *Session) track(e event.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case e.Type == event.Usage && e.Usage != nil && !e.Usage.Estimated:
		s.usage = Usage{UsedTokens: e.Usage.InputTokens + e.Usage.OutputTokens}
		s.reported = true
	case e.Type == event.Message && e.Message != nil && e.Message.Role != llm.RoleAssistant, e.Type == event.Compaction:
		s.reported = false
	}
}

// CostUSD is the session's estimated cost so far at the catalog's prices
// (this process's requests), and whether the model is priced at all.
func (s *Session) CostUSD() (float64, bool) { return s.pricing.sessionCost() }

// Priced reports whether the catalog knows the current model's prices, so
// a cost can be estimated at all (`zero exec --max-budget-usd`).
func (s *Session) Priced() bool { return s.pricing.priced() }

// Offered is the tools the model is offered now, by name: the mode's and
// the profile's, the model's edit tool, and the MCP tools once
// PrepareMCP has run (/tools shows them).
func (s *Session) Offered() []tools.Tool {
	f := s.toolFilter(s.rt.Engine.Mode())
	var out []tools.Tool
	for _, n := range s.tools.Names() {
		if t, ok := s.tools.Get(n); ok && f(t) {
			out = append(out, t)
		}
	}
	return out
}

// setProfile sets the tools and system prompt of mode in the default or
// the minimal profile. Not during a prompt.
func (s *Session) setProfile(mode permission.Mode, minimal bool) {
	s.minimal = minimal
	s.agent.SetVisible(s.toolFilter(mode))
	s.agent.SetSystem(s.systemPrompt(mode))
	s.agent.SetPlanning(mode == permission.ModePlan)
}

// toolFilter is the tools offered in mode: the profile's, the model's
// edit tool, and exec_command/write_stdin unless the window left them
// out (fitWindow).
func (s *Session) toolFilter(mode permission.Mode) func(tools.Tool) bool {
	f := s.offered(visible(mode, s.minimal))
	if !s.noExec && !s.noTask {
		return f
	}
	return func(t tools.Tool) bool {
		switch t.Name() {
		case tools.ExecCommandName, tools.WriteStdinName:
			return !s.noExec && f(t)
		case TaskToolName:
			return !s.noTask && f(t)
		}
		return f(t)
	}
}

// taskMinWindow is the smallest window the task tool is offered in.
const taskMinWindow = 32 << 10

// SetMode switches the permission mode for later calls and prompts: the
// engine's rules, the tools offered (plan: read-only ones) and the system
// prompt (plan mode tells the model it is planning; the provider's prompt
// cache misses once, on the next request).
func (s *Session) SetMode(m permission.Mode) {
	s.rt.Engine.SetMode(m)
	s.setProfile(m, s.minimal)
}

// outputCap is the cap on one reply for model: the config's, else the
// catalog's default for the model (more for reasoning models, whose
// thinking counts against it), never above the model's own maximum.
func outputCap(kind, model string, configured int) int {
	m, _ := catalog.Resolve(kind, model)
	return catalog.OutputCap(m, configured)
}

// SetModel switches the model for later requests (the same provider),
// with its price, its output cap and its context window (config, then what a local server
// reports, then the catalog), so compaction follows the new model.
func (s *Session) SetModel(name string) {
	s.rt.setModel(name, s.useModel(name))
}

// useModel switches this session's agent to model name and returns its
// window, leaving the runtime's model alone (a sub-agent's own model).
func (s *Session) useModel(name string) int {
	r := *s.rt.Active
	r.Model = name
	w := contextWindow(io.Discard, s.rt.Config, &r, nil)
	s.agent.SetModel(name)
	s.agent.SetContextWindow(w)
	s.agent.SetMaxOutputTokens(outputCap(string(r.Kind), name, s.rt.Config.MaxOutputTokens))
	s.fitWindow(w)
	s.pricing.setModel(name)
	return w
}

// ReasoningEfforts are the reasoning efforts the session's model takes
// (Session.SetReasoningEffort): low, medium and high for a model the
// catalog knows to reason, on a vendor API whose provider sends the
// effort (OpenAI's reasoning_effort, Anthropic's and Gemini's thinking
// budgets or levels); none otherwise, since an OpenAI-compatible server
// may ignore or refuse the field.
func (s *Session) ReasoningEfforts() []string {
	model, _ := s.rt.ModelWindow()
	switch s.rt.Active.Kind {
	case config.KindOpenAI, config.KindAnthropic, config.KindGemini:
		if m, ok := catalog.Lookup(string(s.rt.Active.Kind), model); ok && m.Reasoning {
			return []string{"low", "medium", "high"}
		}
	}
	return nil
}

// SetReasoningEffort sets the reasoning effort of later requests (one of
// ReasoningEfforts, or "" for the provider's default).
func (s *Session) SetReasoningEffort(effort string) {
	s.agent.SetReasoningEffort(effort)
}

// Compact compacts the history now and describes what it did.
func (s *Session) Compact(ctx context.Context) (string, error) {
	desc, err := s.agent.Compact(ctx)
	s.mu.Lock()
	s.usage = Usage{UsedTokens: s.agent.ContextReport().UsedTokens, Estimated: true}
	s.mu.Unlock()
	return desc, err
}

// Usage reports how much of the window the session uses now; safe to call
// while a prompt runs.
func (s *Session) Usage() Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.usage
}

// ContextReport is what the window holds, for /context.
func (s *Session) ContextReport() agent.Report {
	r := s.agent.ContextReport()
	if set := s.instructions; set != nil {
		r.InstructionBytes, r.InstructionBudget = len(set.Text()), set.Budget()
	}
	FillSkillReport(&r, s.skills, s.rt.window())
	return r
}

// History is a copy of the conversation so far.
func (s *Session) History() []llm.Message { return s.agent.History() }

// ToolOutcomes are the results of the session's tool calls as its log
// recorded them, by call id (sessions.Session.ToolOutcomes); nil when the
// log cannot be read.
func (s *Session) ToolOutcomes() map[string]event.ToolOutcome {
	out, _ := s.log.ToolOutcomes()
	return out
}

// Plan is the session's latest plan (update_plan), or nil: a resumed
// session's is its log's.
func (s *Session) Plan() *event.TaskPlan { return s.agent.Plan() }

// ID is the session's id; Dir and EventsPath where its log is.
func (s *Session) ID() string         { return s.log.ID() }
func (s *Session) Dir() string        { return s.log.Dir() }
func (s *Session) EventsPath() string { return s.log.EventsPath() }

// Meta is the session log's metadata now (its first prompt, title,
// last update), as `zero sessions` lists it.
func (s *Session) Meta() sessions.Metadata { return s.log.Meta() }

// Notes are the warnings the session opened with (it belongs to another
// workspace; its log was damaged and repaired), for a surface that shows
// them itself.
func (s *Session) Notes() []string { return s.notes }

// Kept reports, after Close, whether the session was kept (it holds a
// prompt or a `!cmd`; sessions.Session.Close removes one that holds
// neither).
func (s *Session) Kept() bool { return !s.log.Removed() }

// Warn emits a warning event into the session's run: stamped with the
// run's id and turn, written to the session log and to the current
// prompt's surface (a stream-json client's input mistakes, say).
func (s *Session) Warn(text string) {
	s.chain.Emit(event.Event{Type: event.Warning, Text: text})
}

// Err reports a failure to write the session log.
func (s *Session) Err() error { return s.log.Err() }

// Close fires the SessionEnd hooks and closes the log (a session in which
// no prompt was sent is not kept).
func (s *Session) Close() {
	s.mu.Lock()
	closed := s.closed
	s.closed = true
	s.mu.Unlock()
	if closed {
		return
	}
	s.procs.Close()
	if s.ckpt != nil {
		if err := s.ckpt.Close(); err != nil {
			warnCheckpoint(err)
		}
	}
	if !s.nested {
		s.hooks.Fire(context.Background(), hooks.SessionEnd, hooks.Input{Reason: "exit"})
	}
	s.log.Close()
}

// Procs lists the processes exec_command started that have not ended or
// whose end the model has not read yet (/ps).
func (s *Session) Procs() []tools.ProcInfo { return s.procs.List() }

// StopProc ends process id and its process group (/stop ID).
func (s *Session) StopProc(id int) error { return s.procs.Stop(id) }

// Logged is every event the session's log holds (a damaged line is
// skipped), for a surface that replays the conversation (the editor
// bridge's session/load).
func (s *Session) Logged() ([]event.Event, error) {
	evs, _, err := s.log.Events()
	return evs, err
}
