package headless

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/permission"
)

// TestStdinApproverAnswersInOrder: decisions are matched to their request
// by id (or taken as they come without one), other lines are skipped, an
// unknown decision denies saying why, and the end of input denies.
func TestStdinApproverAnswersInOrder(t *testing.T) {
	in := strings.Join([]string{
		`not json`,
		`{"type":"something_else"}`,
		`{"type":"permission_decision","id":"other","decision":"allow_once"}`,
		`{"type":"permission_decision","id":"c1","decision":"allow_session","prefix":"go test"}`,
		`{"type":"permission_decision","decision":"deny","reason":"no"}`,
		`{"type":"permission_decision","id":"c3","decision":"bogus"}`,
	}, "\n")
	a := newStdinApprover(strings.NewReader(in))
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
}

// TestStdinApproverInterruptLeavesOneReader: a request abandoned on
// interrupt does not eat the next request's answer (one reader for the
// run; run with -race).
func TestStdinApproverInterruptLeavesOneReader(t *testing.T) {
	r, w := io.Pipe()
	a := newStdinApprover(r)
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
