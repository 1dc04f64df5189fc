package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tools"
)

// textBatch is how much answer text is held before a progress
// notification carries it (one per batch, not one per streamed token).
const textBatch = 400

// heartbeat is how long a run may go without a notification before one
// says it is still working: a model thinking for minutes must not look
// like a hung server to a client that resets its timeout on progress.
const heartbeat = 15 * time.Second

// progress turns a run's events into progress notifications
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress)
// for a call that sent a progress token: one per tool call, one per batch
// of answer text, and one after every silence of a heartbeat. Without a
// token it sends nothing.
type progress struct {
	ctx   context.Context
	ss    *mcp.ServerSession
	token any
	start time.Time
	done  chan struct{}

	mu   sync.Mutex
	n    float64
	text strings.Builder
	last time.Time
}

// newProgress starts the heartbeat (every: its period); end stops it.
func newProgress(ctx context.Context, req *mcp.CallToolRequest, every time.Duration) *progress {
	now := time.Now()
	p := &progress{ctx: ctx, ss: req.Session, token: req.Params.GetProgressToken(), start: now, last: now, done: make(chan struct{})}
	if p.token != nil && every > 0 {
		go p.beat(every)
	}
	return p
}

// beat notes each silence of every until the run ends.
func (p *progress) beat(every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-p.ctx.Done():
			return
		case now := <-tick.C:
			p.mu.Lock()
			if now.Sub(p.last) >= every {
				p.notify(fmt.Sprintf("still working (%s)", now.Sub(p.start).Round(time.Second)))
			}
			p.mu.Unlock()
		}
	}
}

// Emit implements event.Sink.
func (p *progress) Emit(e event.Event) {
	if p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Type {
	case event.Text:
		p.text.WriteString(e.Text)
		if p.text.Len() >= textBatch {
			p.flushLocked()
		}
	case event.ToolCall:
		p.flushLocked()
		if e.ToolCall != nil {
			p.notify("tool " + e.ToolCall.Name + " " + oneLine(e.ToolCall.Arguments, 200))
		}
	case event.PermissionRequest:
		p.flushLocked()
		if e.Permission != nil {
			p.notify("approval needed for " + e.Permission.Tool)
		}
	}
}

// end sends the text held back and stops the heartbeat, at the run's end.
func (p *progress) end() {
	close(p.done)
	if p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flushLocked()
}

func (p *progress) flushLocked() {
	if p.text.Len() == 0 {
		return
	}
	msg := p.text.String()
	p.text.Reset()
	p.notify(msg)
}

// notify sends one notification; a failure (the client went away) is
// not the run's: the call's context ends it.
func (p *progress) notify(msg string) {
	p.n++
	p.last = time.Now()
	_ = p.ss.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: p.n, Message: msg})
}

// oneLine is s on one line, cut to at most n bytes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// changes collects the files a run wrote: the path argument of each call
// to a write tool whose result is not an error (apply_patch: the files its
// patch names).
type changes struct {
	reg  *tools.Registry
	root string

	mu      sync.Mutex
	pending map[string][]string // call id → paths
	written []string
}

func newChanges(reg *tools.Registry, root string) *changes {
	return &changes{reg: reg, root: root, pending: map[string][]string{}}
}

// targets are the files call would write.
func (c *changes) targets(name, args string) []string {
	if name == tools.ApplyPatchName {
		files, _ := tools.PatchPaths(json.RawMessage(args))
		return files
	}
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal([]byte(args), &a) != nil || a.Path == "" {
		return nil
	}
	return []string{a.Path}
}

// Emit implements event.Sink.
func (c *changes) Emit(e event.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case e.Type == event.ToolCall && e.ToolCall != nil:
		t, ok := c.reg.Get(e.ToolCall.Name)
		if !ok || t.SideEffect() != tools.SideWrite {
			return
		}
		if paths := c.targets(e.ToolCall.Name, e.ToolCall.Arguments); len(paths) > 0 {
			c.pending[e.ToolCall.ID] = paths
		}
	case e.Type == event.ToolResult && e.Result != nil:
		paths := c.pending[e.Result.CallID]
		delete(c.pending, e.Result.CallID)
		if e.Result.IsError {
			return
		}
		for _, p := range paths {
			if !slices.Contains(c.written, c.rel(p)) {
				c.written = append(c.written, c.rel(p))
			}
		}
	}
}

// rel is p relative to the workspace when it lies inside it.
func (c *changes) rel(p string) string {
	if !filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if r, err := filepath.Rel(c.root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// paths are the written files in the order first written (never nil, so
// the structured output always has the array).
func (c *changes) paths() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string{}, c.written...)
}
