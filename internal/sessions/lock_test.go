package sessions

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// TestLockHelperProcess is not a test: TestLockAcrossProcesses runs the
// test binary with ZERO_LOCK_HELPER=<id> and ZERO_LOCK_HELPER_DIR=<store> to hold a session's lock in
// another process until its stdin closes.
func TestLockHelperProcess(t *testing.T) {
	spec := os.Getenv("ZERO_LOCK_HELPER")
	if spec == "" {
		return
	}
	dir, id := os.Getenv("ZERO_LOCK_HELPER_DIR"), spec
	s, err := Open(dir).Load(id)
	if err == nil {
		err = s.Lock()
	}
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	_ = s.Append(event.Event{Type: event.Warning, Text: "from the helper"})
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = s.Close()
	os.Exit(0)
}

func TestLockAcrossProcesses(t *testing.T) {
	st := Open(t.TempDir())
	s, err := st.Create(Metadata{Workspace: "/w"})
	must(t, err)
	sendPrompt(t, s, "hi")
	must(t, s.Close())
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), "ZERO_LOCK_HELPER="+s.ID(), "ZERO_LOCK_HELPER_DIR="+st.Dir())
	in, err := cmd.StdinPipe()
	must(t, err)
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("helper: %q", line)
	}
	second, err := st.Load(s.ID())
	must(t, err)
	err = second.Lock()
	want := fmt.Sprintf("session %s is in use by another zero process (pid %d)", s.ID(), cmd.Process.Pid)
	if !errors.Is(err, ErrInUse) || err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Lock while another process holds it: %v; want %q", err, want)
	}
	in.Close()
	must(t, cmd.Wait())
	// Released when the holder closes (or dies): this process gets it.
	must(t, second.Lock())
	must(t, second.Close())
}

func TestLockWithinProcess(t *testing.T) {
	st := Open(t.TempDir())
	a, err := st.Create(Metadata{Workspace: "/w"})
	must(t, err)
	must(t, a.Lock())
	must(t, a.Lock()) // held already: no-op
	b, err := st.Load(a.ID())
	must(t, err)
	if err := b.Lock(); !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), fmt.Sprintf("(pid %d)", os.Getpid())) {
		t.Fatalf("second Session of one process: %v", err)
	}
	prompt := llm.TextMessage(llm.RoleUser, "a")
	must(t, a.Append(event.Event{Type: event.Message, Message: &prompt}))
	must(t, a.Unlock())
	must(t, b.Lock())
	if err := a.Lock(); !errors.Is(err, ErrInUse) {
		t.Fatalf("lock moved to b, a got it too: %v", err)
	}
	must(t, b.Close())
	must(t, a.Lock())
	must(t, a.Close())
	evs, _, err := a.Events()
	must(t, err)
	if len(evs) != 1 {
		t.Fatalf("events %d", len(evs))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
