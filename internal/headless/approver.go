package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/permission"
)

// DefaultPermissionTimeout is how long a permission_request waits for its
// permission_decision on stdin before the call is denied (`zero exec
// --permission-timeout`; docs/stream-json.md).
const DefaultPermissionTimeout = 5 * time.Minute

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
// Input mistakes are loud: a line that is not JSON, a line of another
// type, a decision for a call id no request is waiting for, and an
// unknown decision (which denies the call) each get a warning event
// naming the problem. A request waits at most timeout, then is denied
// with a warning; the end of input denies every later request. The run
// never hangs on an answer that will not come.
type stdinApprover struct {
	in io.Reader
	// warn emits a warning event into the run (stamped with its run id
	// and turn, logged in the session).
	warn func(string)
	// timeout bounds each wait; 0 waits until ctx ends.
	timeout time.Duration
	start   sync.Once
	// lines carries every input line, parsed, from the one reader
	// goroutine; it is closed at the end of input. One reader for the
	// whole run, so a request abandoned on interrupt leaves no scanner
	// behind to race the next one. Problems are reported by ask, while a
	// request waits, so a warning never follows run_end.
	lines chan inputLine
	mu    sync.Mutex
	// asked holds the ids of the requests asked so far.
	asked map[string]bool
	// closedWarned: the end of input was reported once.
	closedWarned bool
}

func newStdinApprover(in io.Reader, warn func(string), timeout time.Duration) *stdinApprover {
	if warn == nil {
		warn = func(string) {}
	}
	return &stdinApprover{in: in, warn: warn, timeout: timeout, lines: make(chan inputLine), asked: map[string]bool{}}
}

// decisionLine is one permission_decision line.
type decisionLine struct {
	Type     string `json:"type"`
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Prefix   string `json:"prefix"`
	Reason   string `json:"reason"`
}

// inputLine is one non-blank input line: its number, and a decision,
// an answer (to a question event, answers.go) or the problem that makes
// it neither.
type inputLine struct {
	n       int
	d       decisionLine
	answer  *answerLine
	problem string
}

// read scans in until its end, passing on every non-blank line.
func (a *stdinApprover) read() {
	defer close(a.lines)
	sc := bufio.NewScanner(a.in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		a.lines <- parseInputLine(n, b)
	}
	if err := sc.Err(); err != nil {
		a.lines <- inputLine{n: n + 1, problem: fmt.Sprintf("stdin could not be read past line %d (%v)", n, err)}
	}
}

// parseInputLine reads line n of the input.
func parseInputLine(n int, b []byte) inputLine {
	var d decisionLine
	if err := json.Unmarshal(b, &d); err != nil {
		return inputLine{n: n, problem: fmt.Sprintf("stdin line %d is not JSON (%v): %s", n, err, clipLine(b))}
	}
	if d.Type == string(event.QuestionAnswered) {
		var l answerLine
		if err := json.Unmarshal(b, &l); err != nil {
			return inputLine{n: n, problem: fmt.Sprintf("stdin line %d is not an answer (%v): %s", n, err, clipLine(b))}
		}
		return inputLine{n: n, answer: &l}
	}
	if d.Type != string(event.PermissionDecision) {
		return inputLine{n: n, problem: fmt.Sprintf("stdin line %d has type %q; only %q and %q lines are read", n, d.Type, event.PermissionDecision, event.QuestionAnswered)}
	}
	return inputLine{n: n, d: d}
}

func clipLine(b []byte) string {
	if len(b) > 120 {
		return string(b[:120]) + "…"
	}
	return string(b)
}

// ask implements permission.Asker.
func (a *stdinApprover) ask(ctx context.Context, req permission.Request) permission.Decision {
	a.start.Do(func() { go a.read() })
	a.mu.Lock()
	a.asked[req.ID] = true
	a.mu.Unlock()
	var expired <-chan time.Time
	if a.timeout > 0 {
		t := time.NewTimer(a.timeout)
		defer t.Stop()
		expired = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return permission.Decision{Choice: permission.Reject, Reason: "interrupted"}
		case <-expired:
			why := fmt.Sprintf("no permission_decision for call %q arrived on stdin within %s", req.ID, a.timeout)
			a.warn(why + "; the call is denied")
			return permission.Decision{Choice: permission.Reject, Reason: why}
		case l, ok := <-a.lines:
			if !ok {
				a.mu.Lock()
				first := !a.closedWarned
				a.closedWarned = true
				a.mu.Unlock()
				if first {
					a.warn(fmt.Sprintf("stdin closed while call %q waited for a permission_decision; it and every later request are denied", req.ID))
				}
				return permission.Decision{Choice: permission.Reject, Reason: "no permission_decision arrived on stdin (input closed)"}
			}
			if d, done := a.answer(req, l); done {
				return d
			}
		}
	}
}

// answer applies input line l to the waiting request req: done is false
// when the line does not answer it (a warning then says why).
func (a *stdinApprover) answer(req permission.Request, l inputLine) (permission.Decision, bool) {
	if l.problem != "" {
		a.warn(l.problem + "; it is ignored")
		return permission.Decision{}, false
	}
	if l.answer != nil {
		a.warn(fmt.Sprintf("stdin line %d answers question %q, but call %q waits for a permission_decision; it is ignored", l.n, l.answer.ID, req.ID))
		return permission.Decision{}, false
	}
	d := l.d
	if d.ID != req.ID && d.ID != "" {
		a.mu.Lock()
		decided := a.asked[d.ID]
		a.mu.Unlock()
		if decided {
			a.warn(fmt.Sprintf("stdin line %d answers call %q, which was already decided; it is ignored (waiting for %q)", l.n, d.ID, req.ID))
		} else {
			a.warn(fmt.Sprintf("stdin line %d answers call id %q, which no permission_request asked for; it is ignored (waiting for %q)", l.n, d.ID, req.ID))
		}
		return permission.Decision{}, false
	}
	c, err := permission.ParseChoice(d.Decision)
	if err != nil {
		a.warn(fmt.Sprintf("stdin line %d: %v; call %q is denied", l.n, err, req.ID))
		return permission.Decision{Choice: permission.Reject, Reason: err.Error()}, true
	}
	return permission.Decision{Choice: c, Prefix: d.Prefix, Reason: d.Reason}, true
}
