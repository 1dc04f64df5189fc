package loops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// newLoop makes an armed loop whose loop.toml is config.
func newLoop(t *testing.T, config string) *Loop {
	t.Helper()
	root := t.TempDir()
	l, err := Create(root, "demo", "watcher", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.Path(ConfigFile), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Arm(time.Now()); err != nil {
		t.Fatal(err)
	}
	return l
}

// banker is a fake wake that appends a proper state row, recording when
// it woke; tokens is what each wake reports.
type banker struct {
	l      *Loop
	tokens int
	times  []time.Time
	prompt []string
}

func (b *banker) wake(_ context.Context, in WakeInput) WakeOutput {
	b.times = append(b.times, time.Now())
	b.prompt = append(b.prompt, in.Prompt)
	f, _ := os.OpenFile(b.l.Path(StateFile), os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintf(f, "\n## Wake %d\nmeasured\nNEXT ACTION: wake %d\n", in.N, in.N+1)
	f.Close()
	return WakeOutput{Session: fmt.Sprint("s", in.N), Outcome: "completed", InputTokens: b.tokens, OutputTokens: 0}
}

func gateValue(v string, pass bool) func(context.Context, Gate, string) GateResult {
	return func(_ context.Context, g Gate, _ string) GateResult {
		return GateResult{Name: g.Name, Value: v, Pass: pass, Bar: g.Pass}
	}
}

func ticks(t *testing.T, l *Loop) []Tick {
	t.Helper()
	data, err := os.ReadFile(l.Path(TicksFile))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := ParseTicks(data)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestRunWakesOnEveryHeartbeatUntilTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		deadline := start.Add(2 * time.Hour).Format(time.RFC3339)
		l := newLoop(t, "[schedule]\nheartbeat = \"30m\"\ndeadline = \""+deadline+"\"\n")
		b := &banker{l: l}
		end, err := (&Runner{Loop: l, Wake: b.wake, Gate: gateValue("1", true)}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if end.Kind != KindStop || !strings.Contains(end.Reason, "past the deadline") {
			t.Fatalf("end %+v", end)
		}
		var got []time.Duration
		for _, w := range b.times {
			got = append(got, w.Sub(start))
		}
		want := []time.Duration{0, 30 * time.Minute, time.Hour, 90 * time.Minute}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("woke at %v, want %v", got, want)
		}
		ts := ticks(t, l)
		if len(ts) != 6 || ts[0].Kind != KindArm || ts[4].Kind != KindWake || ts[4].Wake != 4 || ts[5].Kind != KindStop {
			t.Fatalf("ticks %+v", ts)
		}
	})
}

func TestRunPausesWhenAWakeBanksNoStateRow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLoop(t, "[schedule]\nheartbeat = \"1m\"\n")
		silent := func(context.Context, WakeInput) WakeOutput { return WakeOutput{Outcome: "completed"} }
		end, err := (&Runner{Loop: l, Wake: silent}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if end.Kind != KindPause || !strings.Contains(end.Reason, "contract broken: wake 1 banked no state row") {
			t.Fatalf("end %+v", end)
		}
		led, _ := l.Ledger()
		if led.Wakes != 1 || !strings.HasPrefix(led.Status(), "paused: contract broken") {
			t.Fatalf("ledger %+v", led)
		}
	})
}

func TestRunPausesWhenTheWakeBudgetIsUsed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		l := newLoop(t, "[schedule]\nheartbeat = \"1h\"\n[budget]\nmax_wakes = 2\n")
		b := &banker{l: l}
		end, err := (&Runner{Loop: l, Wake: b.wake}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if end.Kind != KindPause || !strings.Contains(end.Reason, "2 of 2 wakes used") || len(b.times) != 2 {
			t.Fatalf("end %+v after %d wakes", end, len(b.times))
		}
		if d := time.Since(start); d != time.Hour {
			t.Fatalf("ran for %v, want one heartbeat", d)
		}
		// running it again wakes no more: it pauses at once, saying why
		end, err = (&Runner{Loop: l, Wake: b.wake}).Run(context.Background())
		if err != nil || end.Kind != KindPause || len(b.times) != 2 {
			t.Fatalf("second run %+v %v after %d wakes", end, err, len(b.times))
		}
	})
}

func TestRunPausesWhenTheTokenBudgetIsUsed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLoop(t, "[schedule]\nheartbeat = \"1m\"\n[budget]\nmax_tokens = 100\n")
		b := &banker{l: l, tokens: 60}
		end, err := (&Runner{Loop: l, Wake: b.wake}).Run(context.Background())
		if err != nil || end.Kind != KindPause || !strings.Contains(end.Reason, "120 of 100 tokens used") {
			t.Fatalf("end %+v %v", end, err)
		}
	})
}

func TestRunStopsWhenEveryGatePasses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := "[stop]\nwhen_gates_pass = true\n[[gate]]\nname = \"q\"\nrun = \"m\"\nparse = \"json:.v\"\npass = \">= 1\"\n"
		l := newLoop(t, cfg)
		b := &banker{l: l}
		end, err := (&Runner{Loop: l, Wake: b.wake, Gate: gateValue("1.5", true)}).Run(context.Background())
		if err != nil || end.Kind != KindStop || !strings.Contains(end.Reason, "goal met") {
			t.Fatalf("end %+v %v", end, err)
		}
		ts := ticks(t, l)
		if w := ts[1]; w.Gates[0].Value != "1.5" || !w.Gates[0].Pass || w.Session != "s1" {
			t.Fatalf("wake tick %+v", w)
		}
	})
}

func TestRunFeedsLastGatesAndStateIntoTheNextPrompt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := "[budget]\nmax_wakes = 2\n[[gate]]\nname = \"quality\"\nrun = \"m\"\nparse = \"json:.v\"\npass = \">= 0.99\"\n"
		l := newLoop(t, cfg)
		os.WriteFile(l.Path(SpecFile), []byte("MISSION: raise quality"), 0o644)
		os.WriteFile(l.Path(RulesFile), []byte("RULE: measure twice"), 0o644)
		b := &banker{l: l}
		if _, err := (&Runner{Loop: l, Wake: b.wake, Gate: gateValue("0.97", false)}).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		first, second := b.prompt[0], b.prompt[1]
		for _, want := range []string{"MISSION: raise quality", "RULE: measure twice", "No wake has run the gates yet", "## Wake 1 — ", l.Path(StateFile)} {
			if !strings.Contains(first, want) {
				t.Errorf("first prompt lacks %q:\n%s", want, first)
			}
		}
		for _, want := range []string{"- quality: 0.97 (needs >= 0.99): FAIL", "NEXT ACTION: wake 2", "## Wake 2 — "} {
			if !strings.Contains(second, want) {
				t.Errorf("second prompt lacks %q:\n%s", want, second)
			}
		}
	})
}

func TestRunRefusesUnarmedLoopAndEditedGates(t *testing.T) {
	root := t.TempDir()
	l, _ := Create(root, "demo", "", t.TempDir())
	woke := false
	wake := func(context.Context, WakeInput) WakeOutput { woke = true; return WakeOutput{} }
	if _, err := (&Runner{Loop: l, Wake: wake}).Run(context.Background()); !errors.Is(err, ErrNotArmed) || !strings.Contains(err.Error(), "zero loop arm demo") {
		t.Fatalf("unarmed: %v", err)
	}
	l.Arm(time.Now())
	data, _ := os.ReadFile(l.Path(ConfigFile))
	os.WriteFile(l.Path(ConfigFile), []byte(strings.Replace(string(data), "<= 1000", "<= 100000000000", 1)), 0o644)
	if _, err := (&Runner{Loop: l, Wake: wake}).Run(context.Background()); !errors.Is(err, ErrGatesChanged) || !strings.Contains(err.Error(), "without re-arming") {
		t.Fatalf("edited gates: %v", err)
	}
	if woke {
		t.Fatal("a refused run woke the agent")
	}
}

func TestRunPausesWhenTheWakeEditsTheGates(t *testing.T) {
	l := newLoop(t, "[[gate]]\nname = \"g\"\nrun = \"true\"\n")
	b := &banker{l: l}
	cheat := func(ctx context.Context, in WakeInput) WakeOutput {
		os.WriteFile(l.Path(ConfigFile), []byte("[[gate]]\nname = \"g\"\nrun = \"true\"\npass = \"!= 0\"\n"), 0o644)
		return b.wake(ctx, in)
	}
	end, err := (&Runner{Loop: l, Wake: cheat, Gate: gateValue("0", true)}).Run(context.Background())
	if err != nil || end.Kind != KindPause || !strings.Contains(end.Reason, "wake 1 changed the armed gates") {
		t.Fatalf("end %+v %v", end, err)
	}
}

func TestRunStopsWhenInterruptedBetweenWakes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLoop(t, "[schedule]\nheartbeat = \"1h\"\n")
		b := &banker{l: l}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan End)
		go func() {
			end, _ := (&Runner{Loop: l, Wake: b.wake}).Run(ctx)
			done <- end
		}()
		synctest.Wait() // the first wake is done and the runner sleeps
		cancel()
		if end := <-done; end.Kind != KindStop || end.Reason != "interrupted" || len(b.times) != 1 {
			t.Fatalf("end %+v after %d wakes", end, len(b.times))
		}
	})
}

func TestRunPausesWhenTheWakeFails(t *testing.T) {
	l := newLoop(t, "[[gate]]\nname = \"g\"\nrun = \"true\"\n")
	fail := func(context.Context, WakeInput) WakeOutput {
		return WakeOutput{Outcome: "provider_error", Err: errors.New("no server is listening on 127.0.0.1:8080")}
	}
	end, err := (&Runner{Loop: l, Wake: fail, Gate: gateValue("0", true)}).Run(context.Background())
	if err != nil || end.Kind != KindPause || end.Reason != "wake 1 failed: no server is listening on 127.0.0.1:8080" {
		t.Fatalf("end %+v %v", end, err)
	}
	if ts := ticks(t, l); ts[1].Error == "" || ts[1].Outcome != "provider_error" {
		t.Fatalf("wake tick %+v", ts[1])
	}
}

func TestRunRefusesASecondRunOfTheSameLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLoop(t, "[schedule]\nheartbeat = \"1h\"\n")
		b := &banker{l: l}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			(&Runner{Loop: l, Wake: b.wake}).Run(ctx)
			close(done)
		}()
		synctest.Wait() // the first run sleeps after its wake, holding the lock
		if _, err := (&Runner{Loop: l, Wake: b.wake}).Run(context.Background()); !errors.Is(err, ErrRunning) {
			t.Fatalf("second run: %v", err)
		}
		report, _ := Report(filepath.Dir(l.Dir))
		if !strings.Contains(report, "demo  running") {
			t.Fatalf("report while running:\n%s", report)
		}
		cancel()
		<-done
		if l.Running() {
			t.Fatal("the lock outlived the run")
		}
		if _, err := (&Runner{Loop: l, Wake: b.wake, Once: true}).Run(context.Background()); err != nil || len(b.times) != 2 {
			t.Fatalf("a run after the first ended: %v, %d wakes", err, len(b.times))
		}
	})
}
