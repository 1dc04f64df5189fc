package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
)

// longTurn starts prompt as a gated turn and moves the app's clock on by
// d while it runs, with no key pressed meanwhile.
func longTurn(t *testing.T, opts Options, d time.Duration) (*driver, *gate) {
	t.Helper()
	f := newFake()
	g := newGate()
	f.script["work"] = g.play
	dr := newDriver(t, f, opts)
	dr.typeText("work")
	dr.press("enter")
	dr.clock = dr.clock.Add(d)
	return dr, g
}

// A turn that ran over ten seconds without a key from the user rings the
// bell once when it ends and Zero waits for the next prompt.
func TestLongTurnRingsTheBellWhenItEnds(t *testing.T) {
	d, g := longTurn(t, Options{}, 11*time.Second)
	d.finish(g, event.StopCompleted)
	if !slices.Equal(d.raw, []string{"\a"}) {
		t.Fatalf("wrote %q, want one BEL", d.raw)
	}
}

// A short turn, or one the user typed into lately (type-ahead: they are
// watching), ends without a bell.
func TestShortOrWatchedTurnIsQuiet(t *testing.T) {
	d, g := longTurn(t, Options{}, 9*time.Second)
	d.finish(g, event.StopCompleted)
	d2, g2 := longTurn(t, Options{}, 30*time.Second)
	d2.typeText("x") // the user is at the keyboard
	d2.finish(g2, event.StopCompleted)
	if len(d.raw)+len(d2.raw) > 0 {
		t.Fatalf("wrote %q and %q, want nothing", d.raw, d2.raw)
	}
}

// A permission prompt opening after a long stretch of work notifies, here
// as an OSC 9 desktop notification; off turns notifications off, and
// NotifyAfter moves the threshold.
func TestWaitingForPermissionNotifies(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want []string
	}{
		{Options{Notify: NotifyOSC9}, []string{"\x1b]9;zero: permission\a"}},
		{Options{Notify: NotifyOff}, nil},
		{Options{NotifyAfter: time.Minute}, nil},
	} {
		f := newFake()
		d := newDriver(t, f, c.opts)
		asked, worked := make(chan Decision, 1), make(chan struct{})
		f.script["work"] = func(ctx context.Context, turn Turn, sink event.Sink) event.StopReason {
			<-worked
			asked <- turn.Approve(ctx, PermissionRequest{Tool: "bash", Command: "make"})
			return event.StopCompleted
		}
		d.typeText("work")
		d.press("enter")
		d.clock = d.clock.Add(20 * time.Second) // worked a while
		close(worked)
		d.until(func() bool { return d.m.perm != nil })
		d.settle()
		if !slices.Equal(d.raw, c.want) {
			t.Errorf("%+v: wrote %q, want %q", c.opts, d.raw, c.want)
		}
		d.press("esc")
		<-asked
		d.until(func() bool { return !d.m.turn.running })
	}
}

// ZERO_NOTIFY and ZERO_NOTIFY_AFTER set what Options leave unset; a bad
// value keeps the default and says so.
func TestNotifyFromEnv(t *testing.T) {
	env := func(kind, after string) func(string) string {
		return func(k string) string {
			return map[string]string{"ZERO_NOTIFY": kind, "ZERO_NOTIFY_AFTER": after}[k]
		}
	}
	var o Options
	if w := notifyFromEnv(&o, env("OSC9", "30s")); len(w) > 0 || o.Notify != NotifyOSC9 || o.NotifyAfter != 30*time.Second {
		t.Errorf("osc9/30s: %+v %q", o, w)
	}
	o = Options{Notify: NotifyOff}
	if notifyFromEnv(&o, env("bell", "")); o.Notify != NotifyOff {
		t.Errorf("the environment beat the option: %q", o.Notify)
	}
	o = Options{}
	w := notifyFromEnv(&o, env("loud", "soon"))
	if o.Notify != "" || o.NotifyAfter != 0 || len(w) != 2 || !strings.Contains(w[0], `ZERO_NOTIFY="loud"`) || !strings.Contains(w[1], fmt.Sprint(defaultNotifyAfter)) {
		t.Errorf("bad values: %+v %q", o, w)
	}
}
