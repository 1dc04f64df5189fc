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
	"github.com/zero-agent/zero/internal/tools"
)

// streamApprover answers permission requests over stream-json (`zero exec
// -i stream-json`): it emits a permission_request event and waits for a
// line on in such as
//
//	{"type":"permission_decision","id":"<call id>","decision":"allow_once"|"allow_session"|"deny","reason":"…"}
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
	Reason   string `json:"reason"`
}

// ask implements askFunc.
func (a *streamApprover) ask(ctx context.Context, call llm.ToolCall, t tools.Tool, why string) (bool, bool, string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sink.Emit(event.Event{Type: event.PermissionRequest, SchemaVersion: event.SchemaVersion, Permission: &event.Permission{
		ID: call.ID, Tool: call.Name, Summary: oneLine(call.Arguments, 500), Reason: why,
	}})
	type answer struct {
		d   decisionLine
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		for !a.eof && a.lines.Scan() {
			var d decisionLine
			if err := json.Unmarshal(a.lines.Bytes(), &d); err != nil {
				continue
			}
			if d.Type == string(event.PermissionDecision) && (d.ID == call.ID || d.ID == "") {
				ch <- answer{d: d}
				return
			}
		}
		a.eof = true
		ch <- answer{err: fmt.Errorf("input closed")}
	}()
	select {
	case <-ctx.Done():
		return false, false, "interrupted"
	case ans := <-ch:
		if ans.err != nil {
			return false, false, "no permission_decision arrived on stdin (" + ans.err.Error() + ")"
		}
		switch strings.ToLower(ans.d.Decision) {
		case "allow_once", "allow":
			return true, false, ""
		case "allow_session":
			return true, true, ""
		}
		return false, false, ans.d.Reason
	}
}
