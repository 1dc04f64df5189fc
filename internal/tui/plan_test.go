package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

func planEvent(statuses ...event.StepStatus) event.Event {
	p := &event.TaskPlan{}
	for i, s := range statuses {
		p.Steps = append(p.Steps, event.PlanStep{Step: fmt.Sprintf("step %d", i+1), Status: s})
	}
	return event.Event{Type: event.Plan, Plan: p}
}

// indexOf is the row of the first line of lines containing s, or -1.
func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

func TestPlanPanelShowsStepsAboveTheInput(t *testing.T) {
	f := newFake()
	d := newDriver(t, f, Options{})
	g := newGate()
	f.script["go"] = g.play
	d.typeText("go")
	d.press("enter")
	d.emit(g, planEvent(event.StepCompleted, event.StepInProgress, event.StepPending))
	live := d.live()
	head, input := indexOf(live, "plan · 1/3 done"), indexOf(live, "›")
	if head < 0 || input < head {
		t.Fatalf("no plan panel above the input:\n%s", strings.Join(live, "\n"))
	}
	mustContain(t, "live", live, "  ✓ step 1", "  ▸ step 2", "  ○ step 3")
	d.finish(g, event.StopCompleted)
	if indexOf(d.live(), "plan · 1/3 done") < 0 {
		t.Fatal("an unfinished plan left the panel when the turn ended")
	}
	// All done: the panel goes and the finished plan stays in the
	// transcript.
	f.script["more"] = g.play
	d.typeText("more")
	d.press("enter")
	d.emit(g, planEvent(event.StepCompleted, event.StepCompleted, event.StepCompleted))
	if indexOf(d.live(), "plan ·") >= 0 {
		t.Fatalf("a finished plan is still in the panel:\n%s", strings.Join(d.live(), "\n"))
	}
	mustContain(t, "scrollback", d.plainScrollback(), "plan · 3/3 done", "  ✓ step 3")
	d.finish(g, event.StopCompleted)
}

func TestPlanPanelWindowsALongPlan(t *testing.T) {
	f := newFake()
	d := newDriver(t, f, Options{Height: 40})
	g := newGate()
	f.script["go"] = g.play
	d.typeText("go")
	d.press("enter")
	var st []event.StepStatus
	for i := 0; i < 20; i++ {
		switch {
		case i < 12:
			st = append(st, event.StepCompleted)
		case i == 12:
			st = append(st, event.StepInProgress)
		default:
			st = append(st, event.StepPending)
		}
	}
	d.emit(g, planEvent(st...))
	live := d.live()
	mustContain(t, "live", live, "plan · 12/20 done", "… 11 earlier", "▸ step 13", "… 1 more")
	if indexOf(live, "step 3 ") >= 0 || indexOf(live, "step 20") >= 0 {
		t.Fatalf("rows outside the window shown:\n%s", strings.Join(live, "\n"))
	}
	d.finish(g, event.StopCompleted)
}

func TestResumedPlanReturnsAndNewSessionClearsIt(t *testing.T) {
	f := newFake()
	f.resumed = Resumed{ID: "s9", History: []llm.Message{llm.TextMessage(llm.RoleUser, "earlier")},
		Plan: planEvent(event.StepInProgress, event.StepPending).Plan}
	d := newDriver(t, f, Options{})
	d.typeText("/resume s9")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	mustContain(t, "live", d.live(), "plan · 0/2 done", "▸ step 1")
	d.typeText("/new")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	if indexOf(d.live(), "plan ·") >= 0 {
		t.Fatal("the old session's plan survived /new")
	}
	// `zero --resume` opens with the plan too.
	d = newDriver(t, newFake(), Options{Resumed: &f.resumed})
	mustContain(t, "live", d.live(), "plan · 0/2 done")
}

// procFake is the fake backend with processes for /ps and /stop.
type procFake struct {
	*fakeBackend
	list    []tools.ProcInfo
	stopped []int
}

func (p *procFake) Procs() []tools.ProcInfo { return p.list }
func (p *procFake) StopProc(id int) error {
	if id != 2 {
		return errors.New("no process 7 (/ps lists them)")
	}
	p.stopped = append(p.stopped, id)
	return nil
}

func TestPsListsAndStopEndsProcesses(t *testing.T) {
	now := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	f := &procFake{fakeBackend: newFake(), list: []tools.ProcInfo{
		{ID: 2, Command: "python3 -m http.server 8000", Started: now.Add(-90 * time.Second), Running: true},
		{ID: 3, Command: "make build", Started: now.Add(-2 * time.Second), ExitCode: 2},
	}}
	d := newDriver(t, f, Options{Now: func() time.Time { return now }})
	run := func(line string) {
		d.typeText(line)
		d.press("enter")
		d.until(func() bool { return !d.m.turn.running })
		d.settle()
	}
	run("/ps")
	mustContain(t, "scrollback", d.plainScrollback(), "python3 -m http.server 8000", "running", "exited 2", "make build", "end one with /stop ID")
	run("/stop 2")
	run("/stop 7")
	run("/stop x")
	mustContain(t, "scrollback", d.plainScrollback(), "stopped process 2", "no process 7", "usage: /stop ID")
	if len(f.stopped) != 1 || f.stopped[0] != 2 {
		t.Fatalf("stopped %v", f.stopped)
	}
}
