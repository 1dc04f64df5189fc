package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/tools"
)

// RunBackend is the app's Backend over the run layer: the runtime opened
// once, and one session at a time (/new and /resume switch it). It adds
// only what the app needs on top of run.Session: the footer's data and
// the reports of slash commands.
type RunBackend struct {
	rt *run.Runtime

	mu   sync.Mutex
	sess *run.Session
	// scanned is the last /scan's servers, for /connect N.
	scanned []discovery.Server
}

// NewRunBackend returns the backend over rt, starting in sess.
func NewRunBackend(rt *run.Runtime, sess *run.Session) *RunBackend {
	return &RunBackend{rt: rt, sess: sess}
}

// Session is the session open now.
func (b *RunBackend) Session() *run.Session {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sess
}

// Procs lists the processes the open session's model started (/ps).
func (b *RunBackend) Procs() []tools.ProcInfo { return b.Session().Procs() }

// StopProc ends one of them and its process group (/stop ID).
func (b *RunBackend) StopProc(id int) error { return b.Session().StopProc(id) }

// Close closes the open session (one in which no prompt was sent is not
// kept).
func (b *RunBackend) Close() { b.Session().Close() }

// switchTo makes sess the open session, closing the one before.
func (b *RunBackend) switchTo(sess *run.Session) {
	b.mu.Lock()
	old := b.sess
	b.sess = sess
	b.mu.Unlock()
	if old != nil && old != sess {
		old.Close()
	}
}

// PromptHistory returns the prompts typed in this workspace, oldest
// first, for ↑/↓ and ^R: every prompt of every session, as typed (the
// store's history file); before that file existed, each session's first
// prompt.
func (b *RunBackend) PromptHistory() []string {
	if typed, err := b.rt.Store.Prompts(b.rt.Workspace.Root(), 1000); err == nil && len(typed) > 0 {
		return typed
	}
	list, err := b.rt.Store.List()
	if err != nil {
		return nil
	}
	var out []string
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Workspace == b.rt.Workspace.Root() && list[i].FirstPrompt != "" {
			out = append(out, list[i].FirstPrompt)
		}
	}
	return out
}

// AddHistory records a line the user entered for later sessions' recall;
// a failure loses only recall and is not reported.
func (b *RunBackend) AddHistory(text string) {
	_ = b.rt.Store.AddPrompt(b.rt.Workspace.Root(), text)
}

// Run implements Backend.
func (b *RunBackend) Run(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
	sess := b.Session()
	if turn.Mode != "" && turn.Mode != b.rt.Mode() {
		sess.SetMode(turn.Mode)
	}
	var ask func(context.Context, PermissionRequest) Decision
	if turn.Approve != nil {
		ask = turn.Approve
	}
	res := sess.Prompt(ctx, run.Turn{Prompt: turn.Prompt, Images: turn.Images, Sink: sink, Ask: ask, Question: turn.Ask})
	return res.StopReason
}

// LoadImage implements imageLoader.
func (b *RunBackend) LoadImage(path string) (llm.Image, error) { return b.Session().LoadImage(path) }

// CompletePaths implements pathCompleter.
func (b *RunBackend) CompletePaths(prefix string) []string {
	return tools.CompletePaths(b.rt.Workspace, prefix)
}

// SetMode switches the session's mode between turns (Shift+Tab), so
// /context and /tools reflect it before the next prompt.
func (b *RunBackend) SetMode(m Mode) {
	if m != b.rt.Mode() {
		b.Session().SetMode(m)
	}
}

// Shell implements Backend: the user's `!cmd`, whose output the next
// prompt carries to the model.
func (b *RunBackend) Shell(ctx context.Context, command string, mode Mode) ShellResult {
	o := b.Session().Shell(ctx, command)
	out := ShellResult{Output: o.Output, ElapsedMs: o.Elapsed.Milliseconds(), Denied: o.Denied, Err: o.Err, Interrupted: o.Interrupted}
	if o.ExitCode != nil {
		out.ExitCode = *o.ExitCode
	} else if o.Interrupted {
		out.ExitCode = 130 // 128+SIGINT, as a shell reports Ctrl+C
	}
	return out
}

// Info implements Backend.
func (b *RunBackend) Info() Info {
	sess := b.Session()
	u := sess.Usage()
	model, window := b.rt.ModelWindow()
	cost, _ := sess.CostUSD()
	return Info{Model: model, Host: run.HostOf(b.rt.ActiveProfile().BaseURL), ContextWindow: window, SessionID: sess.ID(), UsedTokens: u.UsedTokens, Estimated: u.Estimated, CostUSD: cost}
}

// Report implements Backend.
func (b *RunBackend) Report(ctx context.Context, kind ReportKind) (string, error) {
	switch kind {
	case ReportConfig:
		j, err := json.MarshalIndent(b.rt.Config.Masked(), "", "  ")
		return string(j), err
	case ReportLogs:
		s := b.Session()
		return fmt.Sprintf("session %s\n  %s\n  %s", s.ID(), s.Dir(), s.EventsPath()), nil
	case ReportTools:
		// Tab-separated: the app lays the columns out (render.Columns).
		var lines []string
		for _, t := range b.Session().Offered() {
			desc, _, _ := strings.Cut(t.Description(), "\n")
			lines = append(lines, t.Name()+"\t"+string(t.SideEffect())+"\t"+desc)
		}
		return strings.Join(lines, "\n"), nil
	case ReportContext:
		return b.Session().ContextReport().String(), nil
	case ReportMemory:
		return b.Session().Instructions().Report(), nil
	case ReportSkills:
		return b.Session().Skills().Report() + "\nrun one with /<name> [arguments]; the model loads them with the skill tool", nil
	case ReportAgents:
		return b.Session().Agents().Report() + "\nthe model runs one with the task tool (offered from a 32K window)", nil
	case ReportStatus:
		return b.Session().StatusReport(ctx), nil
	case ReportCost:
		return b.Session().CostReport(), nil
	}
	return "", fmt.Errorf("unknown report %q", kind)
}

// CustomCommands lists the session's skills and command files for /help
// and Tab completion.
func (b *RunBackend) CustomCommands() []CustomCommand {
	var out []CustomCommand
	for _, c := range b.Session().SlashCommands() {
		help := c.Description
		if c.Skill {
			help = "skill: " + help
		}
		out = append(out, CustomCommand{Name: c.Name, Hint: c.Hint, Help: help})
	}
	return out
}

// Sessions implements Backend.
func (b *RunBackend) Sessions(ctx context.Context) ([]Session, error) { return ProjectSessions(b.rt) }

// ProjectSessions lists the sessions of rt's workspace, newest first
// (/sessions, the --resume picker).
func ProjectSessions(rt *run.Runtime) ([]Session, error) {
	list, err := rt.Store.List()
	if err != nil {
		return nil, err
	}
	var out []Session
	for _, m := range list {
		if m.Workspace != "" && m.Workspace != rt.Workspace.Root() {
			continue
		}
		out = append(out, Session{ID: m.ID, Turns: m.Turns, Preview: m.FirstPrompt, Updated: m.Updated.Local().Format(time.DateTime)})
	}
	return out, nil
}

// Resume implements Backend. An id (or prefix) matching no session points
// to /sessions; the session already open is not reopened (its own lock
// would refuse it).
func (b *RunBackend) Resume(ctx context.Context, id string) (Resumed, error) {
	found, err := b.rt.Store.Load(id)
	if errors.Is(err, sessions.ErrNotFound) {
		return Resumed{}, fmt.Errorf("no session %q (/sessions lists them)", strings.TrimSpace(id))
	}
	if err != nil {
		return Resumed{}, err
	}
	found.Close()
	cur := b.Session()
	if found.ID() == cur.ID() {
		return resumedOf(cur, nil), nil
	}
	sess, err := b.rt.OpenSession(run.Which{ID: found.ID()})
	var inUse *run.InUseError
	if errors.As(err, &inUse) {
		// Without the --fork advice: this app takes no such flag.
		return Resumed{}, fmt.Errorf("%v; quit that zero first, or pick another with /sessions", inUse.Err)
	}
	if err != nil {
		return Resumed{}, err
	}
	b.switchTo(sess)
	return resumedOf(sess, sess.Notes()), nil
}

// resumedOf is sess resumed, to be shown with warnings.
func resumedOf(sess *run.Session, warnings []string) Resumed {
	return Resumed{ID: sess.ID(), History: sess.History(), Warnings: warnings, Plan: sess.Plan(), Outcomes: sess.ToolOutcomes()}
}

// NewSession implements Backend.
func (b *RunBackend) NewSession(ctx context.Context) (string, error) {
	sess, err := b.rt.OpenSession(run.Which{})
	if err != nil {
		return "", err
	}
	b.switchTo(sess)
	return sess.ID(), nil
}

// Compact implements Backend.
func (b *RunBackend) Compact(ctx context.Context) (string, error) {
	return b.Session().Compact(ctx)
}

// SetModel implements Backend: a model of the provider in use, or
// "provider/model" of another profile, read as `zero -m` reads it
// (run.Session.SwitchModel).
func (b *RunBackend) SetModel(ctx context.Context, name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("give a model name: /model NAME or /model PROVIDER/MODEL")
	}
	_, _, err := b.Session().SwitchModel(ctx, name)
	return err
}

// Providers implements providerSwitcher: the configured profiles, the one
// in use marked.
func (b *RunBackend) Providers(context.Context) (string, error) { return b.rt.ProvidersReport(), nil }

// ProviderNames implements providerSwitcher.
func (b *RunBackend) ProviderNames() []string {
	var out []string
	for _, p := range b.rt.Profiles() {
		out = append(out, p.Name)
	}
	return out
}

// UseProvider implements providerSwitcher: later prompts of this session
// go to profile name, with its own model.
func (b *RunBackend) UseProvider(ctx context.Context, name string) (string, error) {
	r, err := b.Session().UseProvider(ctx, name, "")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("provider: %s · model %s · %s", r.Name, r.Model, run.HostOf(r.BaseURL)), nil
}

// Models implements Backend.
func (b *RunBackend) Models(ctx context.Context) ([]string, error) {
	r := b.rt.ActiveProfile()
	r.Model, _ = b.rt.ModelWindow()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return run.ModelIDs(ctx, &r)
}

// MCP implements Backend.
func (b *RunBackend) MCP(ctx context.Context, arg string) (string, error) { return b.rt.MCP(ctx, arg) }

// Rules implements Backend: the rules in force, or why one exists.
func (b *RunBackend) Rules(ctx context.Context, arg string) (string, error) {
	home, _ := os.UserHomeDir()
	dir := ""
	if b.rt.Trusted {
		dir = b.rt.Workspace.Root()
	}
	set, err := rules.Load(dir, home)
	if err != nil {
		return "", err
	}
	if id, ok := strings.CutPrefix(strings.TrimSpace(arg), "why"); ok && strings.TrimSpace(id) != "" {
		why, found := set.Why(strings.TrimSpace(id))
		if !found {
			return "", fmt.Errorf("no rule %q (/rules lists them)", strings.TrimSpace(id))
		}
		return why, nil
	}
	var sb strings.Builder
	if !b.rt.Trusted {
		sb.WriteString("project rules are not loaded: this folder is not trusted (zero trust)\n")
	}
	for _, r := range set.Rules() {
		fmt.Fprintf(&sb, "%s  on %s  %s %s  %s\n", r.ID, r.On, r.Action, r.Match, r.Reason)
	}
	if len(set.Rules()) == 0 {
		sb.WriteString("no rules (zero rules init writes a starter .zero/rules.json)\n")
	}
	return sb.String(), nil
}

// AppOptions say how the app starts over a runtime.
type AppOptions struct {
	// Version is shown in the greeting.
	Version string
	// Resumed: the session was resumed (its conversation is shown).
	Resumed bool
	// Prompt, when set, is sent at start (`zero "task"`).
	Prompt string
}

// RunApp runs the interactive app over rt in sess until the user exits.
// The open session is closed on return (one with no prompt is not kept);
// last is its id when it was kept (to say how to resume it).
func RunApp(ctx context.Context, rt *run.Runtime, sess *run.Session, o AppOptions) (last string, err error) {
	b := NewRunBackend(rt, sess)
	// From here the terminal is the app's: warnings of sessions opened
	// later are shown by /resume, not written over the screen.
	rt.SetWarnings(nil)
	defer func() {
		s := b.Session()
		s.Close()
		if s.Kept() {
			last = s.ID()
		}
	}()
	var resumed *Resumed
	if o.Resumed {
		r := resumedOf(sess, nil)
		resumed = &r
	}
	return "", Run(ctx, b, RunOptions{Options: Options{
		Mode:     rt.Mode(),
		Resumed:  resumed,
		History:  b.PromptHistory(),
		Prompt:   o.Prompt,
		Greeting: fmt.Sprintf("zero %s · %s · %s · session %s", o.Version, rt.Active.Model, run.HostOf(rt.Active.BaseURL), sess.ID()),
	}})
}
