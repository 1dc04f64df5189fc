package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/loops"
)

// /loops lists the loops in $ZERO_LOOPS_DIR with their status, read-only.
func TestLoopsCommandListsTheLoops(t *testing.T) {
	root := t.TempDir()
	t.Setenv("ZERO_LOOPS_DIR", root)
	out, err := loopsList()
	if err != nil || !strings.Contains(out, "no loops in "+root) {
		t.Fatalf("no loops: %q %v", out, err)
	}
	for _, name := range []string{"bench", "ci-watch"} {
		if _, err := loops.Create(root, name, "", t.TempDir()); err != nil {
			t.Fatal(err)
		}
	}
	l, _ := loops.Open(root, "bench")
	if _, err := l.Arm(time.Now()); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, newFake(), Options{})
	d.typeText("/loops")
	d.press("enter")
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "NAME      STATUS           WAKES  TOKENS  NEXT ACTION",
		"bench     armed            0      0       -", "ci-watch  new (not armed)  0      0       -", "drive one with zero loop run NAME in a terminal")
}
