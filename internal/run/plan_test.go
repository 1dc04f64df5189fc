package run

import (
	"context"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

func TestResumedSessionHasItsPlan(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{})
	sess, err := rt.OpenSession(Which{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Script(
		llmtest.Reply(llmtest.ToolCall(tools.UpdatePlanName, `{"plan":[{"step":"read","status":"completed"},{"step":"fix","status":"in_progress"}]}`)),
		llmtest.Reply(llmtest.Text("Fixing next.")),
	)
	sess.Prompt(context.Background(), Turn{Prompt: "plan it"})
	sess.Close()
	again := openSession(t, rt, Which{Latest: true})
	p := again.Plan()
	if p == nil || len(p.Steps) != 2 || p.Text() != "[x] read\n[>] fix\n" {
		t.Fatalf("resumed plan %+v", p)
	}
}

func TestClosingTheSessionEndsItsProcesses(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{AutoApprove: true})
	sess, err := rt.OpenSession(Which{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Script(
		llmtest.Reply(llmtest.ToolCall(tools.ExecCommandName, `{"cmd":"sleep 1000","yield_time_ms":100}`)),
		llmtest.Reply(llmtest.Text("started")),
	)
	sess.Prompt(context.Background(), Turn{Prompt: "start it"})
	ps := sess.Procs()
	if len(ps) != 1 || !ps[0].Running || ps[0].Command != "sleep 1000" {
		t.Fatalf("/ps after the run: %+v", ps)
	}
	sess.Close() // returns once every process was reaped
	if ps := sess.Procs(); len(ps) != 1 || ps[0].Running || ps[0].ExitCode != 128+9 {
		t.Fatalf("/ps after Close: %+v", ps)
	}
}
