package run

import (
	"context"
	"slices"
	"sync"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/event"
)

// questions route the questions of the model (ask_user) and of MCP
// servers (elicitations) to the person at the surface of the prompt
// under way, and record each question and its answer in the session log
// and on the surface. A session without a surface that can answer (a
// headless run without stream-json input) gets nil from asker: ask_user
// then tells the model to go on, and an elicitation is declined.
type questions struct {
	mu  sync.Mutex
	ask ask.Asker
	ctx context.Context // the prompt's: ending it cancels its questions
}

// set installs the asker of a prompt; set(nil, nil) clears it.
func (q *questions) set(ctx context.Context, a ask.Asker) {
	q.mu.Lock()
	q.ask, q.ctx = a, ctx
	q.mu.Unlock()
}

// asker is the session's question asker now, recording what it asks;
// nil when no one can answer.
func (s *Session) asker() ask.Asker {
	s.questions.mu.Lock()
	a, pctx := s.questions.ask, s.questions.ctx
	s.questions.mu.Unlock()
	if a == nil {
		return nil
	}
	return func(ctx context.Context, q event.Question) event.QuestionAnswer {
		if pctx != nil {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			defer context.AfterFunc(pctx, cancel)()
			defer cancel()
		}
		s.chain.Emit(event.Event{Type: event.QuestionAsked, Question: &q})
		ans := a(ctx, q)
		if ctx.Err() != nil || ans.Action == "" {
			ans = event.QuestionAnswer{Action: ask.Cancel}
		}
		if ans.Action == ask.Accept {
			values, err := ask.Check(q, ans.Values)
			if err != nil {
				s.chain.Emit(event.Event{Type: event.Warning, Text: "the answer to " + q.ID + " was not used: " + err.Error()})
				ans = event.QuestionAnswer{Action: ask.Cancel}
			} else {
				ans.Values = values
			}
		}
		done := q
		done.Answer = &ans
		s.chain.Emit(event.Event{Type: event.QuestionAnswered, Question: &done})
		return ans
	}
}

// asking are the sessions with a prompt under way, latest last, so an
// MCP server's elicitation reaches the person using Zero now.
type asking struct {
	mu       sync.Mutex
	sessions []*Session
}

func (a *asking) push(s *Session) {
	a.mu.Lock()
	a.sessions = append(a.sessions, s)
	a.mu.Unlock()
}

func (a *asking) pop(s *Session) {
	a.mu.Lock()
	if i := slices.Index(a.sessions, s); i >= 0 {
		a.sessions = slices.Delete(a.sessions, i, i+1)
	}
	a.mu.Unlock()
}

// elicit puts an MCP server's elicitation to the latest prompting
// session that can ask; with none it is declined.
func (rt *Runtime) elicit(ctx context.Context, q event.Question) event.QuestionAnswer {
	rt.asking.mu.Lock()
	var a ask.Asker
	for i := len(rt.asking.sessions) - 1; i >= 0 && a == nil; i-- {
		a = rt.asking.sessions[i].asker()
	}
	rt.asking.mu.Unlock()
	if a == nil {
		return ask.Declined()
	}
	return a(ctx, q)
}
