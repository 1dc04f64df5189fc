package sessions

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// listIDs returns the ids List gives.
func listIDs(t *testing.T, st *Store) []string {
	t.Helper()
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range list {
		ids = append(ids, m.ID)
	}
	return ids
}

// storeEntries lists every name in the store directory, hidden ones too.
func storeEntries(t *testing.T, st *Store) []string {
	t.Helper()
	ents, err := os.ReadDir(st.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestPromptlessSessionRemovedOnClose: the app opened and quit without a
// prompt (a hook ran, a warning was logged) leaves no directory, nothing
// hidden either.
func TestPromptlessSessionRemovedOnClose(t *testing.T) {
	st, _ := testStore(t)
	s, err := st.Create(Metadata{Workspace: t.TempDir()})
	must(t, err)
	must(t, s.Append(event.Event{Type: event.Hook, HookRun: &event.HookRun{Event: "sessionStart", Command: "true"}}))
	must(t, s.Append(event.Event{Type: event.Warning, Text: "no AGENTS.md"}))
	must(t, s.Close())
	if !s.Removed() || exists(s.Dir()) {
		t.Fatalf("Removed() = %v, dir exists = %v; want removed", s.Removed(), exists(s.Dir()))
	}
	if names := storeEntries(t, st); len(names) != 0 {
		t.Errorf("store holds %v after the removal", names)
	}
	must(t, s.Close()) // a second Close is harmless
}

// TestSessionKeptWhenUserSaidSomething: a prompt (however it was
// recorded), a `!cmd` alone, or a fork of a conversation keeps the
// session on Close, and List shows it.
func TestSessionKeptWhenUserSaidSomething(t *testing.T) {
	user := llm.TextMessage(llm.RoleUser, "fix it")
	tests := []struct {
		name string
		evs  []event.Event
	}{
		{"prompt", []event.Event{{Type: event.RunStart, Prompt: "fix it"}, {Type: event.Message, Message: &user}}},
		{"run_start only (run failed before its message)", []event.Event{{Type: event.RunStart, Prompt: "fix it"}}},
		{"user message only", []event.Event{{Type: event.Message, Message: &user}}},
		{"!cmd only", []event.Event{{Type: event.UserShell, Text: "go test ./...", Result: &event.ToolOutcome{Name: "bash", Content: "ok"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, _ := testStore(t)
			s, err := st.Create(Metadata{})
			must(t, err)
			for _, ev := range tt.evs {
				must(t, s.Append(ev))
			}
			must(t, s.Close())
			if s.Removed() || !exists(s.Dir()) {
				t.Fatalf("session removed (Removed() = %v)", s.Removed())
			}
			if ids := listIDs(t, st); !slices.Equal(ids, []string{s.ID()}) {
				t.Errorf("List = %v, want [%s]", ids, s.ID())
			}
		})
	}
	t.Run("fork", func(t *testing.T) {
		st, _ := testStore(t)
		src, err := st.Create(Metadata{})
		must(t, err)
		sendPrompt(t, src, "fix it")
		must(t, src.Close())
		fk, err := st.Fork(src.ID())
		must(t, err)
		must(t, fk.Close()) // no new prompt: the copied ones keep it
		if fk.Removed() || !exists(fk.Dir()) || fk.Meta().Turns != 1 {
			t.Fatalf("fork removed = %v, meta %+v", fk.Removed(), fk.Meta())
		}
		if ids := listIDs(t, st); len(ids) != 2 {
			t.Errorf("List = %v, want the source and the fork", ids)
		}
	})
}

// TestUserShellRecordsWorkspace: a session holding only a `!cmd` is
// flushed at once and, its metadata lost, is rebuilt with its workspace
// (the `zero sessions --all` column) from the user_shell line.
func TestUserShellRecordsWorkspace(t *testing.T) {
	st, _ := testStore(t)
	ws := canonical(t.TempDir())
	s, err := st.Create(Metadata{Workspace: ws})
	must(t, err)
	must(t, s.Append(event.Event{Type: event.UserShell, Text: "ls", Result: &event.ToolOutcome{Name: "bash", Content: "a\n"}}))
	var onDisk Metadata
	data, _ := os.ReadFile(filepath.Join(s.Dir(), MetadataFile))
	if err := json.Unmarshal(data, &onDisk); err != nil || onDisk.ShellCommands != 1 {
		t.Fatalf("metadata.json before Close = %s (%v); want shellCommands 1", data, err)
	}
	must(t, s.Close())
	must(t, os.Remove(filepath.Join(s.Dir(), MetadataFile)))
	list, err := st.List()
	must(t, err)
	if len(list) != 1 || list[0].Workspace != ws || list[0].ShellCommands != 1 {
		t.Fatalf("List = %+v; want one session in %s with one !cmd", list, ws)
	}
}

// TestLatestSkipsPromptlessSessions: opening the app and leaving it open
// (or quitting it) does not change what --resume continues.
func TestLatestSkipsPromptlessSessions(t *testing.T) {
	st, _ := testStore(t)
	ws := t.TempDir()
	real, err := st.Create(Metadata{Workspace: ws})
	must(t, err)
	sendPrompt(t, real, "the real one")
	must(t, real.Close())
	open, err := st.Create(Metadata{Workspace: ws}) // newer, still open
	must(t, err)
	must(t, open.Append(event.Event{Type: event.Warning, Text: "w"}))
	for _, w := range []string{ws, ""} {
		got, err := st.Latest(w)
		if err != nil || got.ID() != real.ID() {
			t.Errorf("Latest(%q) = %v, %v; want %s", w, got, err, real.ID())
		}
	}
	if ids := listIDs(t, st); !slices.Equal(ids, []string{real.ID()}) {
		t.Errorf("List = %v, want only %s", ids, real.ID())
	}
	if !exists(open.Dir()) {
		t.Fatal("List removed a session this process holds open")
	}
	must(t, open.Close())
	if !open.Removed() {
		t.Error("the prompt-less session outlived its Close")
	}
	if got, err := st.Latest(ws); err != nil || got.ID() != real.ID() {
		t.Errorf("Latest after the quit = %v, %v", got, err)
	}
}

// TestKeepHelperProcess is not a test: the tests below run the test binary
// with ZERO_KEEP_HELPER_DIR=<store> to create a prompt-less session in
// another process and hold it until killed.
func TestKeepHelperProcess(t *testing.T) {
	dir := os.Getenv("ZERO_KEEP_HELPER_DIR")
	if dir == "" {
		return
	}
	s, err := Open(dir).Create(Metadata{Workspace: "/w"})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	_ = s.Append(event.Event{Type: event.Warning, Text: "from the helper"})
	fmt.Println("created", s.ID())
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0) // no Close: what a crash leaves
}

// TestListLeavesAnotherProcessSessionAlone: a prompt-less session another
// process holds is hidden from List but not deleted; once that process
// dies without closing it (a crash), the next List removes it.
func TestListLeavesAnotherProcessSessionAlone(t *testing.T) {
	st := Open(t.TempDir())
	cmd := exec.Command(os.Args[0], "-test.run=^TestKeepHelperProcess$")
	cmd.Env = append(os.Environ(), "ZERO_KEEP_HELPER_DIR="+st.Dir())
	in, err := cmd.StdinPipe()
	must(t, err)
	defer in.Close()
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	id, ok := strings.CutPrefix(strings.TrimSpace(line), "created ")
	if !ok {
		t.Fatalf("helper: %q", line)
	}
	dir := filepath.Join(st.Dir(), id)
	if ids := listIDs(t, st); len(ids) != 0 {
		t.Errorf("List = %v; want the prompt-less session hidden", ids)
	}
	if _, err := st.Latest(""); !errors.Is(err, ErrNotFound) {
		t.Errorf("Latest = %v; want ErrNotFound", err)
	}
	if !exists(dir) {
		t.Fatal("List deleted a session another process holds")
	}
	must(t, cmd.Process.Kill())
	_ = cmd.Wait()
	if !exists(dir) {
		t.Fatal("the helper's session vanished before any List")
	}
	if ids := listIDs(t, st); len(ids) != 0 {
		t.Errorf("List after the crash = %v", ids)
	}
	if exists(dir) {
		t.Error("List kept the prompt-less session a crash left")
	}
	if names := storeEntries(t, st); len(names) != 0 {
		t.Errorf("store holds %v after the prune", names)
	}
}

// abandon releases s's lock without closing it, as the kernel does when
// the process dies.
func abandon(t *testing.T, s *Session) {
	t.Helper()
	must(t, s.Unlock())
}

// TestStaleMetadataNeverHidesConversation: a crash after a run_start
// (not fsynced, so metadata.json still says no prompt) leaves a session
// that List shows, List does not prune, and a resume that adds nothing
// does not remove.
func TestStaleMetadataNeverHidesConversation(t *testing.T) {
	st, _ := testStore(t)
	s, err := st.Create(Metadata{Workspace: t.TempDir()})
	must(t, err)
	must(t, s.Append(event.Event{Type: event.RunStart, Prompt: "refactor the parser"}))
	abandon(t, s)
	list, err := st.List()
	must(t, err)
	if len(list) != 1 || list[0].FirstPrompt != "refactor the parser" {
		t.Fatalf("List = %+v; want the session with its prompt", list)
	}
	again, err := st.Load(s.ID())
	must(t, err)
	must(t, again.Lock())
	must(t, again.Close())
	if again.Removed() || !exists(s.Dir()) {
		t.Fatal("a resume that added nothing removed a conversation")
	}
}

// TestPromptlessSessionWithOtherFilesKept: a session directory holding a
// file the store did not write (a spilled output, a saved torn tail, a
// user's note) is never deleted, by Close or by List; List still hides it.
func TestPromptlessSessionWithOtherFilesKept(t *testing.T) {
	for _, via := range []string{"Close", "List"} {
		t.Run(via, func(t *testing.T) {
			st, _ := testStore(t)
			s, err := st.Create(Metadata{})
			must(t, err)
			must(t, os.WriteFile(filepath.Join(s.Dir(), "notes.txt"), []byte("mine"), 0o600))
			if via == "Close" {
				must(t, s.Close())
			} else {
				abandon(t, s)
			}
			if ids := listIDs(t, st); len(ids) != 0 {
				t.Errorf("List = %v, want it hidden", ids)
			}
			if s.Removed() || !exists(filepath.Join(s.Dir(), "notes.txt")) {
				t.Error("a directory holding a foreign file was removed")
			}
		})
	}
}

// TestLoadPrefixSkipsPromptlessSessions: a prefix naming one conversation
// and a prompt-less session is not ambiguous; the exact id still loads the
// prompt-less one.
func TestLoadPrefixSkipsPromptlessSessions(t *testing.T) {
	st, _ := testStore(t)
	real, err := st.Create(Metadata{ID: "20261130-051200-aaaaaa"})
	must(t, err)
	sendPrompt(t, real, "hi")
	empty, err := st.Create(Metadata{ID: "20261130-051200-aaaabb"})
	must(t, err)
	if got, err := st.Load("20261130-0512"); err != nil || got.ID() != real.ID() {
		t.Errorf("Load(prefix) = %v, %v; want %s", got, err, real.ID())
	}
	if got, err := st.Load(empty.ID()); err != nil || got.ID() != empty.ID() {
		t.Errorf("Load(exact) = %v, %v; want %s", got, err, empty.ID())
	}
}

// TestInWorkspace: what a resume checks before warning that the session
// was recorded elsewhere.
func TestInWorkspace(t *testing.T) {
	here := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	must(t, os.Symlink(here, link))
	tests := []struct {
		name, recorded, dir string
		want                bool
	}{
		{"same", canonical(here), here, true},
		{"through a symlink", canonical(here), link, true},
		{"elsewhere", canonical(t.TempDir()), here, false},
		{"not recorded", "", here, true},
	}
	for _, tt := range tests {
		if got := (Metadata{Workspace: tt.recorded}).InWorkspace(tt.dir); got != tt.want {
			t.Errorf("%s: InWorkspace = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestCreateTakenID: Create of an id in use fails with fs.ErrExist and
// leaves no temporary directory; a fresh Create is locked at once.
func TestCreateTakenID(t *testing.T) {
	st, _ := testStore(t)
	s, err := st.Create(Metadata{ID: "20261130-051200-aaaaaa"})
	must(t, err)
	if _, err := st.Create(Metadata{ID: s.ID()}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second Create = %v; want fs.ErrExist", err)
	}
	if names := storeEntries(t, st); !slices.Equal(names, []string{s.ID()}) {
		t.Errorf("store holds %v", names)
	}
	other, err := st.Load(s.ID())
	must(t, err)
	if err := other.Lock(); !errors.Is(err, ErrInUse) {
		t.Errorf("Lock of a just-created session = %v; want ErrInUse", err)
	}
}

// TestListDuringCreateRemovesNothing: Lists running while sessions are
// created never remove one (Create makes a session visible only once it
// holds its lock), so every Create and its first prompt succeed.
func TestListDuringCreateRemovesNothing(t *testing.T) {
	st := Open(t.TempDir())
	const n = 50
	done := make(chan struct{})
	listed := make(chan error, 1)
	go func() {
		defer close(listed)
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := st.List(); err != nil {
				listed <- err
				return
			}
		}
	}()
	for range n {
		s, err := st.Create(Metadata{})
		if err != nil {
			close(done)
			t.Fatal(err)
		}
		sendPrompt(t, s, "hi")
		must(t, s.Close())
	}
	close(done)
	if err := <-listed; err != nil {
		t.Fatal(err)
	}
	if ids := listIDs(t, st); len(ids) != n {
		t.Errorf("%d sessions listed, want %d", len(ids), n)
	}
}
