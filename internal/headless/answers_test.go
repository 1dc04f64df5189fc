package headless

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/permission"
)

// TestAnswerLinesAnswerTheirQuestion: an answer that names another
// question, or does not fit, gets a warning and the question stays open;
// the shorthand "answer" fills a one-field question; a permission
// decision on the same input still reaches its request.
func TestAnswerLinesAnswerTheirQuestion(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"answer","id":"q9","answer":"stray"}`,
		`{"type":"answer","id":"q1","values":{"count":"many"}}`,
		`{"type":"answer","id":"q1","values":{"count":"3"}}`,
		`{"type":"permission_decision","id":"c1","decision":"allow_once"}`,
		`{"type":"answer","id":"q2","answer":"2"}`,
		`{"type":"answer","id":"q3","action":"decline"}`,
	}, "\n")
	var warnings []string
	a := newStdinApprover(strings.NewReader(in), func(w string) { warnings = append(warnings, w) }, 0)
	ctx := context.Background()
	count := event.Question{ID: "q1", Fields: []event.QuestionField{{Name: "count", Kind: ask.KindInteger, Required: true}}}
	got := a.question(ctx, count)
	if got.Action != ask.Accept || !reflect.DeepEqual(got.Values, map[string]any{"count": int64(3)}) {
		t.Fatalf("q1: %+v", got)
	}
	if d := a.ask(ctx, permission.Request{ID: "c1"}); d.Choice != permission.AllowOnce {
		t.Fatalf("the decision after an answer: %+v", d)
	}
	pick := event.Question{ID: "q2", Fields: []event.QuestionField{{Name: "answer", Kind: ask.KindChoice, Choices: []string{"red", "green"}}}}
	if got := a.question(ctx, pick); got.Values["answer"] != "green" {
		t.Fatalf("q2: %+v", got)
	}
	if got := a.question(ctx, event.Question{ID: "q3"}); got.Action != ask.Decline {
		t.Fatalf("q3: %+v", got)
	}
	if got := a.question(ctx, event.Question{ID: "q4"}); got.Action != ask.Cancel {
		t.Fatalf("after the end of input: %+v", got)
	}
	want := []string{`answers "q9", but the open question is "q1"`, `count: many is not a number`, `stdin closed while question "q4"`}
	if len(warnings) != len(want) {
		t.Fatalf("warnings %q", warnings)
	}
	for i, w := range want {
		if !strings.Contains(warnings[i], w) {
			t.Errorf("warning %d = %q, want it to contain %q", i, warnings[i], w)
		}
	}
}
