package headless

import (
	"context"
	"fmt"
	"time"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/event"
)

// answerLine is a stream-json input line answering a question event:
//
//	{"type":"answer","id":"q1","action":"accept","values":{"answer":"yes"}}
//	{"type":"answer","id":"q1","answer":"yes"}   (one-field questions)
//	{"type":"answer","id":"q1","action":"decline"}
//
// Values are by field name (the question event lists the fields); text
// is typed as the field says ("yes", "3", a choice's number).
type answerLine struct {
	ID     string         `json:"id"`
	Action string         `json:"action"`
	Values map[string]any `json:"values"`
	Answer any            `json:"answer"`
}

// question implements ask.Asker over stream-json: the question event is
// already on stdout (the run layer emitted it); it waits for the answer
// line naming it, up to the permission timeout when one is set. An
// answer that does not fit the question gets a warning and the question
// stays open; the end of input or the timeout cancels it.
func (a *stdinApprover) question(ctx context.Context, q event.Question) event.QuestionAnswer {
	a.start.Do(func() { go a.read() })
	var expired <-chan time.Time
	if a.timeout > 0 {
		t := time.NewTimer(a.timeout)
		defer t.Stop()
		expired = t.C
	}
	cancel := event.QuestionAnswer{Action: ask.Cancel}
	for {
		select {
		case <-ctx.Done():
			return cancel
		case <-expired:
			a.warn(fmt.Sprintf("no answer to question %q arrived on stdin within %s; it is cancelled", q.ID, a.timeout))
			return cancel
		case l, ok := <-a.lines:
			if !ok {
				a.warn(fmt.Sprintf("stdin closed while question %q waited for an answer; it is cancelled", q.ID))
				return cancel
			}
			switch {
			case l.problem != "":
				a.warn(l.problem + "; it is ignored")
			case l.answer == nil:
				a.warn(fmt.Sprintf("stdin line %d is a permission_decision, but question %q waits for an answer; it is ignored", l.n, q.ID))
			case l.answer.ID != q.ID:
				a.warn(fmt.Sprintf("stdin line %d answers %q, but the open question is %q; it is ignored", l.n, l.answer.ID, q.ID))
			default:
				ans, err := answerOf(q, *l.answer)
				if err == nil {
					return ans
				}
				a.warn(fmt.Sprintf("stdin line %d: the answer to %s was not used: %v; send another", l.n, q.ID, err))
			}
		}
	}
}

// answerOf reads l as an answer to q, checked against its fields.
func answerOf(q event.Question, l answerLine) (event.QuestionAnswer, error) {
	action := l.Action
	if action == "" {
		action = ask.Accept
	}
	switch action {
	case ask.Decline, ask.Cancel:
		return event.QuestionAnswer{Action: action}, nil
	case ask.Accept:
	default:
		return event.QuestionAnswer{}, fmt.Errorf("unknown action %q (accept, decline or cancel)", action)
	}
	values := l.Values
	if l.Answer != nil {
		if len(q.Fields) != 1 {
			return event.QuestionAnswer{}, fmt.Errorf(`"answer" fits one-field questions; this one has %d fields: use "values"`, len(q.Fields))
		}
		values = map[string]any{q.Fields[0].Name: l.Answer}
	}
	checked, err := ask.Check(q, values)
	if err != nil {
		return event.QuestionAnswer{}, err
	}
	return event.QuestionAnswer{Action: ask.Accept, Values: checked}, nil
}
