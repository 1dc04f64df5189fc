package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/run"
)

// Task is the `zero` tool's arguments.
type Task struct {
	Prompt         string `json:"prompt"`
	Cwd            string `json:"cwd,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	Model          string `json:"model,omitempty"`
}

// Reply is the `zero_reply` tool's arguments.
type Reply struct {
	ThreadID string `json:"threadId"`
	Prompt   string `json:"prompt"`
}

// Outcome is what both tools answer (structured content; the text content
// is the answer).
type Outcome struct {
	// ThreadID is the session id: zero_reply continues it, and `zero
	// --resume ID` opens it in the app.
	ThreadID string `json:"threadId"`
	Answer   string `json:"answer"`
	// Status is the run's stop reason: completed, max_turns,
	// interrupted, provider_error, stuck or error.
	Status string `json:"status"`
	// ChangedFiles are the paths the run's write tools changed.
	ChangedFiles []string `json:"changedFiles"`
	// Error says why a run that did not complete stopped.
	Error string `json:"error,omitempty"`
}

// The tools' input schemas, written out so permission_mode can list its
// values (the SDK's inference has no enum tag).
var (
	taskSchema = json.RawMessage(`{"type":"object","required":["prompt"],"additionalProperties":false,"properties":{
"prompt":{"type":"string","description":"The task for Zero, as you would type it in its app."},
"cwd":{"type":"string","description":"The workspace directory (default: the server's working directory)."},
"permission_mode":{"type":"string","enum":["normal","auto-accept","plan"],"description":"normal asks before edits and commands (the approval is asked of you as an elicitation, or denied when you cannot elicit); auto-accept runs them; plan is read-only. Default: the user's configured mode, normal unless set."},
"model":{"type":"string","description":"The model (an id, or provider/model); default: the configured one."}}}`)
	replySchema = json.RawMessage(`{"type":"object","required":["threadId","prompt"],"additionalProperties":false,"properties":{
"threadId":{"type":"string","description":"The threadId a zero call answered with."},
"prompt":{"type":"string","description":"The next message in that thread."}}}`)
)

// addAgentTools registers `zero` and `zero_reply`.
func (s *Server) addAgentTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "zero",
		Title:       "Run Zero",
		Description: "Run a coding task with Zero, a local-first coding agent, in a new thread: it reads, edits and runs code in the workspace and answers with threadId, answer, status and changedFiles.",
		InputSchema: taskSchema,
	}, s.handleTask)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "zero_reply",
		Title:       "Reply to Zero",
		Description: "Continue a Zero thread (the threadId a zero call answered with) with another message.",
		InputSchema: replySchema,
	}, s.handleReply)
}

// thread is one open session and the runtime it runs in (each `zero`
// call can name its own workspace, mode and model, which the runtime
// fixes). One prompt runs at a time: busy is held while it runs.
type thread struct {
	rt   *run.Runtime
	sess *run.Session
	busy sync.Mutex
	// used is when its last prompt began (guarded by Server.mu).
	used time.Time
}

// maxThreads is how many threads stay open (each holds a runtime and its
// MCP servers); past it the least recently used idle one is closed, and
// a zero_reply to it reopens it from the session store.
const maxThreads = 8

// close waits for the prompt under way (interrupted by then) and closes
// the session.
func (th *thread) close() {
	th.busy.Lock()
	th.closeLocked()
}

func (th *thread) closeLocked() {
	defer th.busy.Unlock()
	th.sess.Close()
	th.rt.Close()
}

func (s *Server) handleTask(ctx context.Context, req *mcp.CallToolRequest, in Task) (*mcp.CallToolResult, Outcome, error) {
	if strings.TrimSpace(in.Prompt) == "" {
		return nil, Outcome{}, fmt.Errorf("prompt is empty: say what Zero should do")
	}
	o := s.opts.Run
	if in.Cwd != "" {
		o.Workdir = in.Cwd
	}
	if in.PermissionMode != "" {
		if err := s.mayUse(in.PermissionMode); err != nil {
			return nil, Outcome{}, err
		}
		o.Mode, o.AutoApprove = in.PermissionMode, false
	}
	if in.Model != "" {
		o.Overrides.Model = in.Model
	}
	th, err := s.open(o, run.Which{})
	if err != nil {
		return nil, Outcome{}, err
	}
	defer th.busy.Unlock()
	return s.prompt(ctx, req, th, in.Prompt)
}

func (s *Server) handleReply(ctx context.Context, req *mcp.CallToolRequest, in Reply) (*mcp.CallToolResult, Outcome, error) {
	if strings.TrimSpace(in.Prompt) == "" {
		return nil, Outcome{}, fmt.Errorf("prompt is empty: say what Zero should do next")
	}
	th, err := s.acquire(in.ThreadID)
	if err != nil {
		return nil, Outcome{}, err
	}
	defer th.busy.Unlock()
	return s.prompt(ctx, req, th, in.Prompt)
}

// strictness orders the permission modes, strictest first.
var strictness = map[permission.Mode]int{permission.ModePlan: 0, permission.ModeNormal: 1, permission.ModeAutoAccept: 2}

// mayUse: a client may ask for a mode as strict as, or stricter than, the
// one the server was started with on its command line (the person who
// configured `zero mcp serve --permission-mode plan` decided that), and
// for any mode when none was given there.
func (s *Server) mayUse(mode string) error {
	asked, err := permission.ParseMode(mode)
	if err != nil {
		return err
	}
	base := permission.Mode(s.opts.Run.Mode)
	if s.opts.Run.AutoApprove && base == "" {
		base = permission.ModeAutoAccept
	}
	if base == "" {
		return nil
	}
	if b, err := permission.ParseMode(string(base)); err == nil && strictness[asked] > strictness[b] {
		return fmt.Errorf("permission_mode %s is looser than the server's --permission-mode %s: a client may only tighten it", asked, b)
	}
	return nil
}

// open opens a runtime and a session in it, and keeps them as a thread,
// returned busy (the caller unlocks it).
func (s *Server) open(o run.Options, w run.Which) (*thread, error) {
	rt, err := run.Open(o)
	if err != nil {
		return nil, err
	}
	sess, err := rt.OpenSession(w)
	if err != nil {
		rt.Close()
		return nil, err
	}
	th := &thread{rt: rt, sess: sess, used: time.Now()}
	th.busy.Lock()
	s.mu.Lock()
	s.threads[sess.ID()] = th
	s.mu.Unlock()
	s.evict()
	return th, nil
}

// evict closes the least recently used idle threads past maxThreads.
func (s *Server) evict() {
	s.mu.Lock()
	var idle []*thread
	for _, th := range s.threads {
		idle = append(idle, th)
	}
	slices.SortFunc(idle, func(a, b *thread) int { return a.used.Compare(b.used) })
	var closing []*thread
	for n := len(s.threads); n > maxThreads && len(idle) > 0; idle = idle[1:] {
		if th := idle[0]; th.busy.TryLock() {
			delete(s.threads, th.sess.ID())
			closing = append(closing, th)
			n--
		}
	}
	s.mu.Unlock()
	for _, th := range closing {
		th.closeLocked()
	}
}

// acquire is the open thread id names, or the stored session of that id
// opened in its own workspace (a thread closed by evict, or of an earlier
// server process), returned busy (the caller unlocks it).
func (s *Server) acquire(id string) (*thread, error) {
	id = strings.TrimSpace(id)
	s.mu.Lock()
	th, ok := s.threads[id]
	if ok && !th.busy.TryLock() {
		s.mu.Unlock()
		return nil, fmt.Errorf("thread %s is still running a prompt: wait for its answer", id)
	}
	if ok {
		th.used = time.Now()
	}
	s.mu.Unlock()
	if ok {
		return th, nil
	}
	if id == "" {
		return nil, fmt.Errorf("threadId is empty: pass the threadId a zero call answered with")
	}
	o := s.opts.Run
	if ws, err := sessionWorkspace(id); err == nil && ws != "" {
		o.Workdir = ws
	}
	return s.open(o, run.Which{ID: id})
}

// sessionWorkspace is the workspace the stored session id ran in.
func sessionWorkspace(id string) (string, error) {
	st, err := run.OpenStore()
	if err != nil {
		return "", err
	}
	log, err := st.Load(id)
	if err != nil {
		return "", err
	}
	defer log.Close()
	return log.Meta().Workspace, nil
}

// prompt runs one prompt in th (busy, held by the caller): progress goes
// to the client while it runs, approvals are asked of it.
func (s *Server) prompt(ctx context.Context, req *mcp.CallToolRequest, th *thread, prompt string) (*mcp.CallToolResult, Outcome, error) {
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	progress := newProgress(ctx, req, s.heartbeat)
	changes := newChanges(th.rt.Tools(), th.rt.Workspace.Root())
	res := th.sess.Prompt(ctx, run.Turn{Prompt: prompt, Sink: event.Multi{progress, changes}, Ask: asker(req)})
	progress.end()
	out := Outcome{ThreadID: th.sess.ID(), Answer: res.Final, Status: string(res.StopReason), ChangedFiles: changes.paths()}
	if res.Err != nil {
		out.Error = res.Err.Error()
	}
	text := res.Final
	if res.StopReason != event.StopCompleted {
		text = fmt.Sprintf("Zero stopped (%s): %s\n%s", res.StopReason, out.Error, res.Final)
	}
	failed := res.StopReason == event.StopProviderError || res.StopReason == event.StopError
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: failed}, out, nil
}
