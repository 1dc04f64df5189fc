package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/permission"
)

// stdinApprover answers permission requests over stream-json (`zero exec
// -i stream-json`). The run's gate has already written the
// permission_request event to stdout; the approver waits for a line on in
// such as
//
//	{"type":"permission_decision","id":"<call id>","decision":"allow_once"|"allow_session"|"allow_always"|"deny","prefix":"go test","reason":"…"}
//
// allow_always saves the grant in grants.json; prefix (shell calls, with
// allow_session or allow_always) grants every command starting with those
// words instead of the exact line. Decision names are permission.ParseChoice's.
//
// Lines of other types, and lines for other calls, are ignored; a line
// with an unknown decision denies, saying so. End of input denies every
// later request (the run never blocks on a closed stdin).
type stdinApprover struct {
	mu    sync.Mutex
	lines *bufio.Scanner
	eof   bool
}

func newStdinApprover(in io.Reader) *stdinApprover {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	return &stdinApprover{lines: sc}
}

// decisionLine is one input line.
type decisionLine struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Prefix   string `json:"prefix"`
	Reason   string `json:"reason"`
}

// ask implements permission.Asker.
func (a *stdinApprover) ask(ctx context.Context, req permission.Request) permission.Decision {
	a.mu.Lock()
	defer a.mu.Unlock()
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
			if d.Type == string(event.PermissionDecision) && (d.ID == req.ID || d.ID == "") {
				ch <- line{d: d}
				return
			}
		}
		a.eof = true
		ch <- line{err: fmt.Errorf("input closed")}
	}()
	select {
	case <-ctx.Done():
		return permission.Decision{Choice: permission.Reject, Reason: "interrupted"}
	case l := <-ch:
		if l.err != nil {
			return permission.Decision{Choice: permission.Reject, Reason: "no permission_decision arrived on stdin (" + l.err.Error() + ")"}
		}
		c, err := permission.ParseChoice(l.d.Decision)
		if err != nil {
			return permission.Decision{Choice: permission.Reject, Reason: err.Error()}
		}
		return permission.Decision{Choice: c, Prefix: l.d.Prefix, Reason: l.d.Reason}
	}
}
