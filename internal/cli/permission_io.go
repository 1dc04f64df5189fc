package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/tools"
)

// streamApprover answers permission requests over stream-json (`zero exec
// -i stream-json`): it emits a permission_request event and waits for a
// line on in such as
//
//	{"type":"permission_decision","id":"<call id>","decision":"allow_once"|"allow_session"|"allow_always"|"deny","prefix":"go test","reason":"…"}
//
// allow_always saves the grant in grants.json; prefix (shell calls, with
// allow_session or allow_always) grants every command starting with those
// words instead of the exact line.
//
// Lines of other types are ignored. End of input denies every later
// request (the run never blocks on a closed stdin).
type streamApprover struct {
	sink  event.Sink
	mu    sync.Mutex
	lines *bufio.Scanner
	eof   bool
}

func newStreamApprover(in io.Reader, sink event.Sink) *streamApprover {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	return &streamApprover{sink: sink, lines: sc}
}

// decisionLine is one input line.
type decisionLine struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Prefix   string `json:"prefix"`
	Reason   string `json:"reason"`
}

// ask implements askFunc.
func (a *streamApprover) ask(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) answer {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sink.Emit(event.Event{Type: event.PermissionRequest, SchemaVersion: event.SchemaVersion, Permission: &event.Permission{
		ID: call.ID, Tool: call.Name, Summary: oneLine(call.Arguments, 500), Reason: why,
	}})
	type line struct {
		d   decisionLine
		err error
	}
	ch := make(chan line, 1)
	go func() {
		for !a.eof && a.lines.Scan() {
			var d decisionLine
			if err := json.Unmarshal(a.lines.Bytes(), &d); err != nil {
				continue
			}
			if d.Type == string(event.PermissionDecision) && (d.ID == call.ID || d.ID == "") {
				ch <- line{d: d}
				return
			}
		}
		a.eof = true
		ch <- line{err: fmt.Errorf("input closed")}
	}()
	select {
	case <-ctx.Done():
		return answer{Reason: "interrupted"}
	case l := <-ch:
		if l.err != nil {
			return answer{Reason: "no permission_decision arrived on stdin (" + l.err.Error() + ")"}
		}
		switch strings.ToLower(l.d.Decision) {
		case "allow_once", "allow":
			return answer{Allow: true, Scope: sandbox.ScopeOnce}
		case "allow_session":
			return answer{Allow: true, Scope: sandbox.ScopeSession, Prefix: l.d.Prefix}
		case "allow_always":
			return answer{Allow: true, Scope: sandbox.ScopePersistent, Prefix: l.d.Prefix}
		}
		return answer{Reason: l.d.Reason}
	}
}
