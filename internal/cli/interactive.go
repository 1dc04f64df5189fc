package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/shellguard"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/tools/edit"
	"github.com/zero-agent/zero/internal/tui"
	"github.com/zero-agent/zero/internal/workspace"
)

// planDirective is prepended to each prompt in plan mode.
const planDirective = "[plan mode] Investigate with read-only tools and answer with a numbered plan. Do not change any file.\n\n"

func runInteractive(s stdio, args []string) error {
	fs := flag.NewFlagSet("zero", flag.ContinueOnError)
	fs.SetOutput(s.err)
	var o overrides
	o.register(fs)
	var resume resumeFlag
	fs.Var(&resume, "resume", "continue the latest session of this workspace (or --resume=ID)")
	mode := fs.String("permission-mode", "", "normal | auto-accept | plan")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	if len(pos) > 0 {
		return usagef("unknown command %q (try: zero help)", pos[0])
	}
	rt, err := newRuntime(s, o, *mode)
	if err != nil {
		return err
	}
	defer rt.Close()
	b := &tuiBackend{rt: rt}
	history, err := b.open(resume.set, resume.id)
	if err != nil {
		return err
	}
	var resumed *tui.Resumed
	if resume.set {
		resumed = &tui.Resumed{ID: b.sess.ID(), History: history}
	}
	defer b.close()
	startMode := tui.ModeNormal
	if rt.mode != "" {
		startMode = tui.Mode(rt.mode)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	return tui.Run(ctx, b, tui.RunOptions{Options: tui.Options{
		Mode:     startMode,
		Resumed:  resumed,
		History:  b.promptHistory(),
		Greeting: fmt.Sprintf("zero %s · %s · %s · session %s", Version, rt.active.Model, hostOf(rt.active.BaseURL), b.sess.ID()),
	}})
}

// tuiBackend satisfies tui.Backend over the runtime: one agent and one
// session at a time.
type tuiBackend struct {
	rt *runtime

	mu    sync.Mutex
	sess  *sessions.Session
	agent *agent.Agent
	info  tui.Info
}

func (b *tuiBackend) open(resume bool, id string) ([]llm.Message, error) {
	sess, history, err := b.rt.openSession(resume, id, "", "")
	if err != nil {
		return nil, err
	}
	b.switchTo(sess, history)
	return history, nil
}

func (b *tuiBackend) switchTo(sess *sessions.Session, history []llm.Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess != nil {
		b.sess.Close()
	}
	b.sess = sess
	b.rt.safety.hooks.setAudit(sessionLog{sess}, sess.ID())
	b.agent = b.rt.newAgent(sess, history, b.rt.maxTurns, nil, false)
	used := b.agent.ContextReport().UsedTokens
	b.info = tui.Info{Model: b.rt.active.Model, Host: hostOf(b.rt.active.BaseURL), ContextWindow: b.rt.window, SessionID: sess.ID(), UsedTokens: used, Estimated: true}
}

func (b *tuiBackend) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess != nil {
		b.sess.Close()
	}
}

// promptHistory returns earlier prompts of this workspace for ↑/↓.
func (b *tuiBackend) promptHistory() []string {
	list, err := b.rt.store.List()
	if err != nil {
		return nil
	}
	var out []string
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Workspace == b.rt.ws.Root() && list[i].FirstPrompt != "" {
			out = append(out, list[i].FirstPrompt)
		}
	}
	return out
}

// Run implements tui.Backend.
func (b *tuiBackend) Run(ctx context.Context, turn tui.Turn, sink event.Sink) event.StopReason {
	b.mu.Lock()
	a, sess := b.agent, b.sess
	b.mu.Unlock()
	mode := string(turn.Mode)
	ask := func(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) answer {
		if turn.Approve == nil {
			return answer{Reason: "no one to ask"}
		}
		req := tui.PermissionRequest{ID: call.ID, Tool: call.Name, Summary: oneLine(call.Arguments, 200), Why: why}
		var note string
		req.Command, req.Path, req.Diff, note = describeCall(b.rt, call)
		req.Why = withNote(why, note)
		if req.Diff == "" && note != "" {
			req.Summary = note // a write that changes nothing: say so, not the raw arguments
		}
		switch d := turn.Approve(ctx, req); d.Decision {
		case tui.AllowOnce:
			return answer{Allow: true, Scope: sandbox.ScopeOnce}
		case tui.AllowSession:
			return answer{Allow: true, Scope: sandbox.ScopeSession}
		default:
			return answer{Reason: d.Reason}
		}
	}
	b.rt.safety.engine.SetMode(sandbox.Mode(mode))
	a.SetVisible(visibleFor(mode))
	prompt := turn.Prompt
	if turn.Mode == tui.ModePlan {
		prompt = planDirective + prompt
	}
	// reported: a server usage report describes the latest request. A
	// user or tool message starts a new request, a compaction shrinks the
	// history: either makes the last report stale.
	reported := false
	track := event.SinkFunc(func(e event.Event) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch {
		case e.Type == event.Usage && e.Usage != nil && !e.Usage.Estimated:
			b.info.UsedTokens = e.Usage.InputTokens + e.Usage.OutputTokens
			b.info.Estimated = false
			reported = true
		case e.Type == event.Message && e.Message != nil && e.Message.Role != llm.RoleAssistant, e.Type == event.Compaction:
			reported = false
		}
	})
	stamped := &event.Stamper{Next: event.Multi{sessionLog{sess}, sink, track}}
	a.SetSink(stamped)
	g := b.rt.gate(ask, stamped).(*permissionGate)
	g.autoAccept = mode == modeAutoAccept
	a.SetGate(g)
	b.rt.safety.hooks.setAudit(stamped, sess.ID())
	res := a.Run(ctx, prompt)
	b.mu.Lock()
	if !reported {
		// Many local servers send no usage: the footer shows the same
		// estimate /context reports rather than a stale number.
		b.info.UsedTokens, b.info.Estimated = a.ContextReport().UsedTokens, true
	}
	b.mu.Unlock()
	return res.StopReason
}

// Shell implements tui.Backend: !cmd runs through the same guard and bash
// tool as the model's shell calls.
func (b *tuiBackend) Shell(ctx context.Context, command string, mode tui.Mode) tui.ShellResult {
	t := b.rt.userShell
	if t == nil {
		return tui.ShellResult{Err: errors.New("no shell tool")}
	}
	call := llm.ToolCall{ID: "user_shell", Name: "bash"}
	args, _ := json.Marshal(map[string]string{"command": command})
	call.Arguments = string(args)
	// The user typed it: only the guard's hard deny refuses it.
	home, _ := os.UserHomeDir()
	if v := shellguard.Check(command, shellguard.Options{Workspace: b.rt.ws.Root(), Roots: b.rt.ws.Roots()[1:], Home: home}); v.Verdict == shellguard.Deny {
		return tui.ShellResult{Denied: fmt.Sprintf("%s (rule %s)", v.Reason, v.Rule)}
	}
	start := time.Now()
	res, err := t.Run(ctx, args)
	out := tui.ShellResult{Output: res.Content, ElapsedMs: time.Since(start).Milliseconds(), Err: err}
	if res.ExitCode != nil {
		out.ExitCode = *res.ExitCode
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// Interrupted (Esc, Ctrl+C): not a failure to start. Show what
		// ran, the tool's "[interrupted; process group killed]" line and
		// the killed status (128+signal), not a bare "context canceled".
		out.Err, out.Interrupted = nil, true
		if !strings.Contains(res.Content, "[interrupted") {
			out.Output = res.Content + "[interrupted]\n"
		}
		if res.ExitCode == nil {
			out.ExitCode = 130 // 128+SIGINT, as a shell reports Ctrl+C
		}
	}
	b.mu.Lock()
	sess := b.sess
	b.mu.Unlock()
	sessionLog{sess}.Emit(event.Event{Type: event.UserShell, SchemaVersion: event.SchemaVersion, Time: time.Now().UTC(), Text: command,
		Result: &event.ToolOutcome{Name: "bash", Content: res.Content, IsError: res.IsError, ExitCode: res.ExitCode, RawBytes: len(res.Content), KeptBytes: len(res.Content), ElapsedMs: out.ElapsedMs}})
	return out
}

// Info implements tui.Backend.
func (b *tuiBackend) Info() tui.Info {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.info
}

// Report implements tui.Backend.
func (b *tuiBackend) Report(ctx context.Context, kind tui.ReportKind) (string, error) {
	switch kind {
	case tui.ReportConfig:
		j, err := json.MarshalIndent(b.rt.cfg.Masked(), "", "  ")
		return string(j), err
	case tui.ReportLogs:
		b.mu.Lock()
		defer b.mu.Unlock()
		return fmt.Sprintf("session %s\n  %s\n  %s", b.sess.ID(), b.sess.Dir(), b.sess.EventsPath()), nil
	case tui.ReportTools:
		var lines []string
		for _, n := range b.rt.registry.Names() {
			t, _ := b.rt.registry.Get(n)
			lines = append(lines, fmt.Sprintf("%-11s %-5s %s", n, t.SideEffect(), t.Description()))
		}
		return strings.Join(lines, "\n"), nil
	case tui.ReportContext:
		return b.contextReport(), nil
	}
	return "", fmt.Errorf("unknown report %q", kind)
}

func (b *tuiBackend) contextReport() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.agent.ContextReport().String()
}

// Sessions implements tui.Backend.
func (b *tuiBackend) Sessions(ctx context.Context) ([]tui.Session, error) {
	list, err := b.rt.store.List()
	if err != nil {
		return nil, err
	}
	var out []tui.Session
	for _, m := range list {
		if m.Workspace != "" && m.Workspace != b.rt.ws.Root() {
			continue
		}
		out = append(out, tui.Session{ID: m.ID, Turns: m.Turns, Preview: m.FirstPrompt, Updated: m.Updated.Local().Format(time.DateTime)})
	}
	return out, nil
}

// Resume implements tui.Backend. An id (or prefix) matching no session
// points to /sessions; the session already open is not reopened (its own
// lock would refuse it).
func (b *tuiBackend) Resume(ctx context.Context, id string) (tui.Resumed, error) {
	found, err := b.rt.store.Load(id)
	if errors.Is(err, sessions.ErrNotFound) {
		return tui.Resumed{}, fmt.Errorf("no session %q (/sessions lists them)", strings.TrimSpace(id))
	}
	if err != nil {
		return tui.Resumed{}, err
	}
	b.mu.Lock()
	cur, a := b.sess, b.agent
	b.mu.Unlock()
	if found.ID() == cur.ID() {
		return tui.Resumed{ID: cur.ID(), History: a.History()}, nil
	}
	// Held by another zero: say so without openSession's advice to pass
	// --fork, a flag this app does not take.
	err = found.Lock()
	found.Close()
	if errors.Is(err, sessions.ErrInUse) {
		return tui.Resumed{}, fmt.Errorf("%v; quit that zero first, or pick another with /sessions", err)
	}
	sess, history, err := b.rt.openSession(true, found.ID(), "", "")
	if err != nil {
		return tui.Resumed{}, err
	}
	b.switchTo(sess, history)
	return tui.Resumed{ID: sess.ID(), History: history}, nil
}

// NewSession implements tui.Backend.
func (b *tuiBackend) NewSession(ctx context.Context) (string, error) {
	sess, history, err := b.rt.openSession(false, "", "", "")
	if err != nil {
		return "", err
	}
	b.switchTo(sess, history)
	return sess.ID(), nil
}

// Compact implements tui.Backend.
func (b *tuiBackend) Compact(ctx context.Context) (string, error) {
	b.mu.Lock()
	a, sess := b.agent, b.sess
	b.mu.Unlock()
	a.SetSink(sessionLog{sess})
	desc, err := a.Compact(ctx)
	rep := a.ContextReport()
	b.mu.Lock()
	b.info.UsedTokens, b.info.Estimated = rep.UsedTokens, true
	b.mu.Unlock()
	return desc, err
}

// SetModel implements tui.Backend.
func (b *tuiBackend) SetModel(ctx context.Context, name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("give a model name: /model NAME")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.agent.SetModel(name)
	b.rt.active.Model = name
	b.info.Model = name
	return nil
}

// Models implements tui.Backend.
func (b *tuiBackend) Models(ctx context.Context) ([]string, error) {
	b.mu.Lock()
	r := *b.rt.active
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return modelIDs(ctx, &r)
}

// hostOf returns the host:port of a base URL for display.
func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base
	}
	return u.Host
}

// previewCall is describeCall without the note.
func previewCall(rt *runtime, call llm.ToolCall) (command, path, diff string) {
	command, path, diff, _ = describeCall(rt, call)
	return command, path, diff
}

// describeCall returns what a permission prompt shows for a call: the full
// command of a shell call, or the path and the diff an edit or write would
// make against the file as it is now, so hunk line numbers are the file's.
// note is non-empty when the edit would not apply to the file as it is: the
// diff then shows old_string against new_string alone, and note says why.
func describeCall(rt *runtime, call llm.ToolCall) (command, path, diff, note string) {
	var args struct {
		Command    string          `json:"command"`
		Path       string          `json:"path"`
		Content    string          `json:"content"`
		OldString  string          `json:"old_string"`
		NewString  string          `json:"new_string"`
		ReplaceAll json.RawMessage `json:"replace_all"`
	}
	_ = json.Unmarshal([]byte(call.Arguments), &args)
	switch call.Name {
	case "edit_file":
		diff, note = editPreview(rt.ws, args.Path, args.OldString, args.NewString, flagTrue(args.ReplaceAll))
	case "write_file":
		old := ""
		if abs, err := rt.ws.Resolve(args.Path, false); err == nil {
			if b, err := rt.ws.ReadFile(abs); err == nil {
				old = string(b)
			}
		}
		diff = udiff.Unified(args.Path, args.Path, old, args.Content)
		if diff == "" {
			note = "no change: " + args.Path + " already has this content"
		}
	}
	return args.Command, args.Path, diff, note
}

// editPreview reads path through the workspace, applies the edit the way
// edit_file does (edit.Apply: CRLF, BOM and indentation handled there) and
// diffs the whole file before and after. The diff is for display: CRLF is
// shown as LF and a BOM is dropped, which changes no line number. When the
// edit would not apply, it returns the fragment diff and a note saying why.
func editPreview(ws *workspace.Workspace, path, oldS, newS string, replaceAll bool) (diff, note string) {
	fragment := udiff.Unified(path, path, oldS, newS)
	abs, err := ws.Resolve(path, true)
	if err != nil {
		return fragment, "preview: " + err.Error() + "; diff shows the edit's text only"
	}
	data, err := ws.ReadFile(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fragment, "preview: " + path + " does not exist, the edit will fail; diff shows its text only"
	case err != nil:
		return fragment, "preview: cannot read " + path + " (" + err.Error() + "); diff shows the edit's text only"
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return fragment, "preview: " + path + " is not UTF-8; diff shows the edit's text only, not file lines"
	}
	out, err := edit.Apply(data, oldS, newS, replaceAll)
	if err != nil {
		return fragment, "preview: would not apply (" + previewReason(err) + "); diff shows the edit's text only, not file lines"
	}
	return udiff.Unified(path, path, displayText(data), displayText(out.Content)), ""
}

// previewReason is a short form of an edit.Apply error for the prompt.
func previewReason(err error) string {
	var nf *edit.NotFoundError
	var amb *edit.AmbiguousError
	switch {
	case errors.As(err, &nf):
		return "old_string not found"
	case errors.As(err, &amb):
		return fmt.Sprintf("old_string matches %d places", amb.Count)
	}
	return err.Error()
}

// displayText is file text as read_file shows it: CRLF as LF, no BOM.
func displayText(b []byte) string {
	return strings.ReplaceAll(strings.TrimPrefix(string(b), "\ufeff"), "\r\n", "\n")
}

// flagTrue reads a JSON boolean the way edit_file's arguments accept it:
// true, or the strings "true"/"True"/"1" (local models quote booleans).
func flagTrue(raw json.RawMessage) bool {
	switch strings.TrimSpace(string(raw)) {
	case "true", `"true"`, `"True"`, "1", `"1"`:
		return true
	}
	return false
}

// withNote appends a preview note to the prompt's reason line.
func withNote(why, note string) string {
	if note == "" {
		return why
	}
	if why == "" {
		return note
	}
	return why + " · " + note
}

// Rules implements tui.Backend: the rules in force, or why one exists.
func (b *tuiBackend) Rules(ctx context.Context, arg string) (string, error) {
	home, _ := os.UserHomeDir()
	dir := ""
	if b.rt.safety.trusted {
		dir = b.rt.ws.Root()
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
	if !b.rt.safety.trusted {
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
