package acp

import (
	"context"
	"errors"
	"sync"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/tools"
)

// session is one ACP session: a runtime and a run-layer session, the
// prompt under way (one at a time) and the editor's answers.
type session struct {
	id      string
	conn    conn
	rt      *run.Runtime
	s       *run.Session
	updates *updates
	asker   *permissionAsker
	// terminal runs bash's commands in the editor's terminal (the user
	// opted in and the editor offers one); nil: in Zero's sandbox.
	terminal *editorTerminal

	mu      sync.Mutex
	cancel  context.CancelFunc // the prompt under way; nil between prompts
	closing bool
	// running is the prompt under way, for close to wait on.
	running sync.WaitGroup
	// models are the provider's models, once fetched (options.go).
	models []string
	// effort is the thought level set ("": the provider's default).
	effort string
	// next is what a switch during a prompt left for its end.
	next queued
	// titled: the editor was sent the session's title (sessionInfo).
	titled bool
}

// queued is what a switch during a prompt applies when it ends, where
// the agent loop is not running and the conversation so far was sent
// as it is (the next request is the previous ones plus new messages):
// the mode's tools and system prompt (its permissions apply at once),
// the model, the thought level.
type queued struct {
	mode   permission.Mode
	model  string
	effort *string
}

func newSession(c conn, rt *run.Runtime, rs *run.Session) *session {
	ws := rt.Workspace
	read := func(path string) (string, bool) {
		abs, err := ws.Resolve(path, true)
		if err != nil {
			return "", false
		}
		b, err := ws.ReadFile(abs)
		return string(b), err == nil
	}
	id := acpsdk.SessionId(rs.ID())
	return &session{
		id: rs.ID(), conn: c, rt: rt, s: rs,
		updates: newUpdates(c, rs.ID(), ws.Root(), read),
		asker:   &permissionAsker{conn: c, id: id, root: ws.Root()},
	}
}

// Session modes: Zero's permission modes
// (https://agentclientprotocol.com/protocol/session-modes).
var sessionModes = []acpsdk.SessionMode{
	{Id: acpsdk.SessionModeId(permission.ModeNormal), Name: "Normal", Description: acpsdk.Ptr("Ask before edits and commands")},
	{Id: acpsdk.SessionModeId(permission.ModeAutoAccept), Name: "Auto-accept", Description: acpsdk.Ptr("Edits and workspace commands run without asking; the shell guard still asks")},
	{Id: acpsdk.SessionModeId(permission.ModePlan), Name: "Plan", Description: acpsdk.Ptr("Read-only tools; the answer is a plan")},
}

func (s *session) modes() *acpsdk.SessionModeState {
	return &acpsdk.SessionModeState{AvailableModes: sessionModes, CurrentModeId: acpsdk.SessionModeId(s.rt.Mode())}
}

// prompt runs one prompt to its end; session/cancel ends it with
// cancelled (the run layer stops the loop and the running tools).
func (s *session) prompt(ctx context.Context, text string, imgs []llm.Image) (acpsdk.PromptResponse, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	if s.cancel != nil || s.closing {
		s.mu.Unlock()
		return acpsdk.PromptResponse{}, acpsdk.NewInvalidRequest("a prompt is already running in this session")
	}
	s.cancel = cancel
	s.running.Add(1)
	s.mu.Unlock()
	defer s.running.Done()
	defer s.endPrompt()
	if ok, err := s.builtin(ctx, text); ok {
		if err != nil {
			return acpsdk.PromptResponse{}, acpsdk.NewInternalError(err.Error())
		}
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
	}
	if s.terminal != nil {
		ctx = tools.WithShellRunner(ctx, s.terminal)
	}
	res := s.s.Prompt(ctx, run.Turn{Prompt: text, Images: imgs, Sink: s.updates, Ask: s.asker.ask, Question: s.askQuestion})
	s.sendUsage()
	s.sendInfo()
	if ctx.Err() != nil || res.StopReason == event.StopInterrupted {
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	}
	if res.StopReason == event.StopError || res.StopReason == event.StopProviderError {
		err := res.Err
		if err == nil {
			err = errors.New(string(res.StopReason))
		}
		return acpsdk.PromptResponse{}, acpsdk.NewInternalError(err.Error())
	}
	return acpsdk.PromptResponse{StopReason: stopReason(res.StopReason)}, nil
}

// sendInfo tells the editor the session's title (once: its first
// prompt, as session/list gives it) and its last activity, after each
// prompt (session_info_update,
// https://agentclientprotocol.com/protocol/session-setup).
func (s *session) sendInfo() {
	m := s.s.Meta()
	info := acpsdk.SessionSessionInfoUpdate{}
	if !m.Updated.IsZero() {
		info.UpdatedAt = acpsdk.Ptr(m.Updated.UTC().Format(time.RFC3339))
	}
	if t := firstNonEmpty(m.Title, m.FirstPrompt); t != "" && !s.titled {
		info.Title, s.titled = &t, true
	}
	if info.Title != nil || info.UpdatedAt != nil {
		s.updates.send(acpsdk.SessionUpdate{SessionInfoUpdate: &info})
	}
}

// cancelPrompt cancels the prompt under way, if any.
func (s *session) cancelPrompt() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// endPrompt marks the prompt ended and applies what was switched during
// it; the editor hears of a model's thought levels.
func (s *session) endPrompt() {
	s.mu.Lock()
	s.cancel = nil
	q := s.next
	s.next = queued{}
	if q.mode != "" {
		s.s.SetMode(q.mode)
	}
	if q.model != "" {
		s.useModel(q.model)
	}
	if q.effort != nil {
		s.useEffort(*q.effort)
	}
	s.mu.Unlock()
	if q.model != "" || q.effort != nil {
		s.updates.send(acpsdk.SessionUpdate{ConfigOptionUpdate: &acpsdk.SessionConfigOptionUpdate{ConfigOptions: s.configOptions()}})
	}
}

// setMode switches the permission mode and tells the editor
// (current_mode_update, config_option_update). During a prompt the
// engine's rules apply at once (the next tool call, and a permission
// request still waiting, are decided in m) and the mode's tools and
// system prompt at the prompt's end (endPrompt).
func (s *session) setMode(m permission.Mode) {
	s.mu.Lock()
	running := s.cancel != nil
	if running {
		s.rt.Engine.SetMode(m)
		s.next.mode = m
	} else {
		s.s.SetMode(m)
	}
	s.mu.Unlock()
	if running {
		s.asker.modeChanged(m)
	}
	s.updates.send(acpsdk.SessionUpdate{CurrentModeUpdate: &acpsdk.SessionCurrentModeUpdate{CurrentModeId: acpsdk.SessionModeId(m)}})
	s.updates.send(acpsdk.SessionUpdate{ConfigOptionUpdate: &acpsdk.SessionConfigOptionUpdate{ConfigOptions: s.configOptions()}})
}

// close cancels the prompt under way and closes the session and its
// runtime: exec_command processes and MCP servers end.
func (s *session) close() {
	s.mu.Lock()
	s.closing = true
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.running.Wait()
	s.s.Close()
	s.rt.Close()
}
