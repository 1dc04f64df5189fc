package headless

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/zero-agent/zero/internal/permission"
)

// warnings records what an approver warns about.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) add(s string) {
	w.mu.Lock()
	w.list = append(w.list, s)
	w.mu.Unlock()
}

func (w *warnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.list...)
}

// TestStdinApproverAnswersInOrder: decisions are matched to their request
// by id (or taken as they come without one), an unknown decision denies
// saying why, and the end of input denies.
func TestStdinApproverAnswersInOrder(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"permission_decision","id":"c1","decision":"allow_session","prefix":"go test"}`,
		`{"type":"permission_decision","decision":"deny","reason":"no"}`,
		`{"type":"permission_decision","id":"c3","decision":"bogus"}`,
	}, "\n")
	w := &warnings{}
	a := newStdinApprover(strings.NewReader(in), w.add, 0)
	ctx := context.Background()
	for _, tc := range []struct {
		id   string
		want permission.Decision
	}{
		{"c1", permission.Decision{Choice: permission.AllowSession, Prefix: "go test"}},
		{"c2", permission.Decision{Choice: permission.Reject, Reason: "no"}},
	} {
		if got := a.ask(ctx, permission.Request{ID: tc.id}); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.id, got, tc.want)
		}
	}
	if got := a.ask(ctx, permission.Request{ID: "c3"}); got.Choice != permission.Reject || !strings.Contains(got.Reason, "unknown decision") {
		t.Errorf("bogus decision: %+v", got)
	}
	if got := a.ask(ctx, permission.Request{ID: "c4"}); got.Choice != permission.Reject || !strings.Contains(got.Reason, "input closed") {
		t.Errorf("after the end of input: %+v", got)
	}
	if got := a.ask(ctx, permission.Request{ID: "c5"}); got.Choice != permission.Reject {
		t.Errorf("a second request after the end of input: %+v", got)
	}
	ws := w.all()
	if len(ws) != 2 || !strings.Contains(ws[0], `unknown decision "bogus"`) || !strings.Contains(ws[0], `"c3" is denied`) ||
		!strings.Contains(ws[1], "stdin closed") {
		t.Errorf("warnings = %q, want the unknown decision, then the end of input once", ws)
	}
}

// TestStdinApproverWarnsOnInputMistakes: a line that is not JSON, a line
// of another type, an answer for a call id nobody asked about, one for a
// call already decided, and an unknown decision each get a warning that
// names the problem; the request still gets its real answer.
func TestStdinApproverWarnsOnInputMistakes(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"permission_decision","id":"c1","decision":"allow_once"}`,
		`not json`,
		``,
		`{"type":"user","message":"hi"}`,
		`{"type":"permission_decision","id":"call_typo","decision":"allow_once"}`,
		`{"type":"permission_decision","id":"c1","decision":"deny"}`,
		`{"type":"permission_decision","id":"c2","decision":"allow_forever"}`,
	}, "\n")
	w := &warnings{}
	a := newStdinApprover(strings.NewReader(in), w.add, 0)
	ctx := context.Background()
	if got := a.ask(ctx, permission.Request{ID: "c1"}); got.Choice != permission.AllowOnce {
		t.Fatalf("c1: %+v", got)
	}
	got := a.ask(ctx, permission.Request{ID: "c2"})
	if got.Choice != permission.Reject || !strings.Contains(got.Reason, `unknown decision "allow_forever"`) {
		t.Fatalf("c2: %+v, want a denial naming the decision", got)
	}
	want := []string{
		"stdin line 2 is not JSON",
		`stdin line 4 has type "user"; only "permission_decision" and "answer" lines are read`,
		`stdin line 5 answers call id "call_typo", which no permission_request asked for; it is ignored (waiting for "c2")`,
		`stdin line 6 answers call "c1", which was already decided`,
		`stdin line 7: unknown decision "allow_forever"`,
	}
	ws := w.all()
	if len(ws) != len(want) {
		t.Fatalf("warnings = %q, want %d", ws, len(want))
	}
	for i := range want {
		if !strings.Contains(ws[i], want[i]) {
			t.Errorf("warning %d = %q, want it to contain %q", i, ws[i], want[i])
		}
	}
}

// TestStdinApproverTimesOut: a request no line answers is denied after
// the timeout, with a warning, and the next request waits afresh.
func TestStdinApproverTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, pw := io.Pipe()
		w := &warnings{}
		a := newStdinApprover(r, w.add, 5*time.Minute)
		start := time.Now()
		got := a.ask(context.Background(), permission.Request{ID: "c1"})
		if got.Choice != permission.Reject || !strings.Contains(got.Reason, "within 5m0s") {
			t.Fatalf("%+v, want a denial after the timeout", got)
		}
		if waited := time.Since(start); waited != 5*time.Minute {
			t.Errorf("denied after %s, want exactly the 5m timeout", waited)
		}
		if ws := w.all(); len(ws) != 1 || !strings.Contains(ws[0], `call "c1"`) || !strings.Contains(ws[0], "denied") {
			t.Errorf("warnings = %q", ws)
		}
		go func() {
			time.Sleep(4 * time.Minute)
			io.WriteString(pw, `{"type":"permission_decision","id":"c2","decision":"allow_once"}`+"\n")
			pw.Close()
		}()
		if got := a.ask(context.Background(), permission.Request{ID: "c2"}); got.Choice != permission.AllowOnce {
			t.Fatalf("an answer within the timeout: %+v", got)
		}
		synctest.Wait()
	})
}

// TestStdinApproverWithoutTimeoutWaits: timeout 0 waits until the run is
// interrupted.
func TestStdinApproverWithoutTimeoutWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, pw := io.Pipe()
		a := newStdinApprover(r, nil, 0)
		ctx, cancel := context.WithTimeout(context.Background(), 24*time.Hour)
		defer cancel()
		if got := a.ask(ctx, permission.Request{ID: "c1"}); got.Reason != "interrupted" {
			t.Fatalf("%+v", got)
		}
		pw.Close()
		synctest.Wait()
	})
}

// TestStdinApproverInterruptLeavesOneReader: a request abandoned on
// interrupt does not eat the next request's answer (one reader for the
// run; run with -race).
func TestStdinApproverInterruptLeavesOneReader(t *testing.T) {
	r, w := io.Pipe()
	a := newStdinApprover(r, nil, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := a.ask(ctx, permission.Request{ID: "c1"}); got.Reason != "interrupted" {
		t.Fatalf("%+v", got)
	}
	go func() {
		io.WriteString(w, `{"type":"permission_decision","id":"c2","decision":"allow_once"}`+"\n")
		w.Close()
	}()
	if got := a.ask(context.Background(), permission.Request{ID: "c2"}); got.Choice != permission.AllowOnce {
		t.Fatalf("the next request got %+v", got)
	}
}
