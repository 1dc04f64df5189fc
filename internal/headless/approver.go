package headless

import (
	"bufio"
	"context"
	"encoding/json"
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
	in    io.Reader
	start sync.Once
	// lines carries the decision lines one reader goroutine scans from
	// in; it is closed at the end of input. One reader for the whole run,
	// so a request abandoned on interrupt leaves no scanner behind to
	// race the next one.
	lines chan decisionLine
}

func newStdinApprover(in io.Reader) *stdinApprover {
	return &stdinApprover{in: in, lines: make(chan decisionLine)}
}

// decisionLine is one input line.
type decisionLine struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Prefix   string `json:"prefix"`
	Reason   string `json:"reason"`
}

// read scans in until its end, passing on permission_decision lines.
func (a *stdinApprover) read() {
	defer close(a.lines)
	sc := bufio.NewScanner(a.in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var d decisionLine
		if json.Unmarshal(sc.Bytes(), &d) == nil && d.Type == string(event.PermissionDecision) {
			a.lines <- d
		}
	}
}

// ask implements permission.Asker.
func (a *stdinApprover) ask(ctx context.Context, req permission.Request) permission.Decision {
	a.start.Do(func() { go a.read() })
	for {
		select {
		case <-ctx.Done():
			return permission.Decision{Choice: permission.Reject, Reason: "interrupted"}
		case d, ok := <-a.lines:
			if !ok {
				return permission.Decision{Choice: permission.Reject, Reason: "no permission_decision arrived on stdin (input closed)"}
			}
			if d.ID != req.ID && d.ID != "" {
				continue // an answer to another request
			}
			c, err := permission.ParseChoice(d.Decision)
			if err != nil {
				return permission.Decision{Choice: permission.Reject, Reason: err.Error()}
			}
			return permission.Decision{Choice: c, Prefix: d.Prefix, Reason: d.Reason}
		}
	}
}
