//go:build linux

package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tools"
	"golang.org/x/sys/unix"
)

// watchedTracker is a tracker over a fresh tree that collects its
// checkpoints, with inotify on or off.
func watchedTracker(t *testing.T, noWatch bool, files map[string]string) (string, *Tracker, *[]event.Checkpoint) {
	t.Helper()
	root := t.TempDir()
	for p, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []event.Checkpoint
	tr := NewTracker(Options{Root: root, Store: Open(t.TempDir()), NoWatch: noWatch,
		Ignore: func(root string) Ignorer { return tools.NewIgnore(root) },
		Emit:   func(e event.Event) { got = append(got, *e.Checkpoint) }})
	t.Cleanup(func() { tr.Close() })
	return root, tr, &got
}

// command runs one shell command's checkpoint around do.
func command(t *testing.T, tr *Tracker, do func()) {
	t.Helper()
	if err := tr.BeforeShell(); err != nil {
		t.Fatal(err)
	}
	do()
	if err := tr.AfterShell(); err != nil {
		t.Fatal(err)
	}
}

// sameSizeEdit rewrites rel with content of the same length and sets its
// mtime back: only the ctime (or inotify) can tell.
func sameSizeEdit(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, rel)
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, info.ModTime(), info.ModTime())
}

// TestShellCheckpointCatchesASameSizeEditWithItsMtimeSetBack: a command
// that rewrites a file keeping its size and mtime is still recorded.
func TestShellCheckpointCatchesASameSizeEditWithItsMtimeSetBack(t *testing.T) {
	for _, noWatch := range []bool{false, true} {
		root, tr, got := watchedTracker(t, noWatch, map[string]string{"a.txt": "aaaa\n"})
		command(t, tr, func() {})
		command(t, tr, func() { sameSizeEdit(t, root, "a.txt", "bbbb\n") })
		if len(*got) != 1 || len((*got)[0].Changes) != 1 || (*got)[0].Changes[0].Before.Hash != Hash([]byte("aaaa\n")) || (*got)[0].Changes[0].After.Hash != Hash([]byte("bbbb\n")) {
			t.Errorf("noWatch %v: checkpoints %+v", noWatch, *got)
		}
	}
}

// TestChangesBetweenCommandsAreNotTheNextCommands: files changed between
// two commands (an edit keeping size and mtime, a new directory, a
// deletion, a chmod, an ignore rule dropped in .git/info/exclude) are
// taken into the index before the next command, whose checkpoint then
// holds only what it did itself.
func TestChangesBetweenCommandsAreNotTheNextCommands(t *testing.T) {
	for _, noWatch := range []bool{false, true} {
		root, tr, got := watchedTracker(t, noWatch, map[string]string{
			"a.txt": "aaaa\n", "gone.txt": "x\n", "mode.sh": "echo\n", "hidden.txt": "h\n",
			".git/info/exclude": "hidden.txt\n", "sub/b.txt": "b\n",
		})
		command(t, tr, func() {})
		sameSizeEdit(t, root, "a.txt", "cccc\n")
		os.MkdirAll(filepath.Join(root, "newdir"), 0o755)
		os.WriteFile(filepath.Join(root, "newdir", "n.txt"), []byte("user\n"), 0o644)
		os.Remove(filepath.Join(root, "gone.txt"))
		os.Chmod(filepath.Join(root, "mode.sh"), 0o755)
		os.WriteFile(filepath.Join(root, ".git/info/exclude"), nil, 0o644)
		command(t, tr, func() {
			os.WriteFile(filepath.Join(root, "newdir", "n.txt"), []byte("command\n"), 0o644)
		})
		want := event.FileChange{Path: "newdir/n.txt", Before: &event.FileState{Hash: Hash([]byte("user\n")), Mode: 0o644, Size: 5},
			After: &event.FileState{Hash: Hash([]byte("command\n")), Mode: 0o644, Size: 8}}
		if len(*got) != 1 || len((*got)[0].Changes) != 1 || *(*got)[0].Changes[0].Before != *want.Before || *(*got)[0].Changes[0].After != *want.After {
			t.Errorf("noWatch %v: the command's checkpoint holds others' changes: %+v", noWatch, *got)
		}
	}
}

// TestWatchedTreeReadsOnlyTheDirectoriesThatChanged: with inotify, a
// command in a quiet tree scans nothing; one that edits, creates,
// deletes and chmods files in existing directories is recorded whole
// from those directories alone (files the .gitignore of the root or of
// the directory ignore left out); a new directory scans the tree again.
func TestWatchedTreeReadsOnlyTheDirectoriesThatChanged(t *testing.T) {
	root, tr, got := watchedTracker(t, false, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n", "sub/gone.txt": "g\n", "other/c.txt": "c\n", "other/x.sh": "x\n",
		".gitignore": "*.o\n", "sub/.gitignore": "local.tmp\n"})
	command(t, tr, func() {})
	if tr.w == nil {
		t.Fatal("no inotify watcher on Linux")
	}
	scans := tr.scans
	command(t, tr, func() {})
	if tr.scans != scans || len(*got) != 0 {
		t.Fatalf("a quiet tree: %d full scans, checkpoints %+v", tr.scans-scans, *got)
	}
	command(t, tr, func() {
		os.WriteFile(filepath.Join(root, "sub", "b.txt"), []byte("B\n"), 0o644)
		os.WriteFile(filepath.Join(root, "sub", "new.txt"), []byte("n\n"), 0o644)
		os.Remove(filepath.Join(root, "sub", "gone.txt"))
		os.Chmod(filepath.Join(root, "other", "x.sh"), 0o755)
		os.WriteFile(filepath.Join(root, "sub", "gen.o"), []byte("o"), 0o644)     // the root's .gitignore
		os.WriteFile(filepath.Join(root, "sub", "local.tmp"), []byte("t"), 0o644) // sub's
	})
	if tr.scans != scans {
		t.Errorf("file changes in known directories cost %d full scans", tr.scans-scans)
	}
	if len(*got) != 1 || paths((*got)[0]) != "other/x.sh sub/b.txt sub/gone.txt sub/new.txt" {
		t.Fatalf("checkpoints %+v", *got)
	}
	if c := (*got)[0].Changes[2]; c.After.Hash != "" || c.Before.Hash != Hash([]byte("g\n")) {
		t.Errorf("the deletion: %+v %+v", c.Before, c.After)
	}
	command(t, tr, func() {
		os.MkdirAll(filepath.Join(root, "sub", "deep", "er"), 0o755)
		os.WriteFile(filepath.Join(root, "sub", "deep", "er", "d.txt"), []byte("d\n"), 0o644)
	})
	if tr.scans == scans || len(*got) != 2 || paths((*got)[1]) != "sub/deep/er/d.txt" {
		t.Fatalf("a new directory: %d full scans, checkpoints %+v", tr.scans-scans, *got)
	}
}

// paths lists a checkpoint's changed paths, space-separated.
func paths(cp event.Checkpoint) string {
	var out []string
	for _, c := range cp.Changes {
		out = append(out, c.Path)
	}
	return strings.Join(out, " ")
}

// TestSettleRecordsAWriteInotifyCannotSee: a command that writes a file
// through a shared memory map (no inotify event) is still recorded by
// the full scan that ends the prompt, once.
func TestSettleRecordsAWriteInotifyCannotSee(t *testing.T) {
	root, tr, got := watchedTracker(t, false, map[string]string{"m.bin": "aaaa"})
	command(t, tr, func() {})
	if err := tr.Settle(); err != nil {
		t.Fatal(err)
	}
	command(t, tr, func() {
		f, err := os.OpenFile(filepath.Join(root, "m.bin"), os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		m, err := unix.Mmap(int(f.Fd()), 0, 4, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
		if err != nil {
			t.Fatal(err)
		}
		copy(m, "bbbb")
		unix.Munmap(m)
	})
	if err := tr.Settle(); err != nil {
		t.Fatal(err)
	}
	if len(*got) != 1 || paths((*got)[0]) != "m.bin" || (*got)[0].Changes[0].After.Hash != Hash([]byte("bbbb")) {
		t.Fatalf("checkpoints %+v", *got)
	}
	if err := tr.Settle(); err != nil || len(*got) != 1 {
		t.Fatalf("a second Settle with no command since: %v, %+v", err, *got)
	}
}

// TestDroppedExcludeRuleIsSeenBeforeTheNextCommand: .git/info/exclude
// is outside the scanned tree but decides what it holds; dropping a rule
// there between commands makes the next command's scan before run, so
// the file it stops ignoring is not taken for one the command created.
func TestDroppedExcludeRuleIsSeenBeforeTheNextCommand(t *testing.T) {
	for _, noWatch := range []bool{false, true} {
		root, tr, got := watchedTracker(t, noWatch, map[string]string{"a.txt": "a\n", "hidden.txt": "h\n", ".git/info/exclude": "hidden.txt\n"})
		command(t, tr, func() {})
		os.WriteFile(filepath.Join(root, ".git/info/exclude"), nil, 0o644)
		command(t, tr, func() {})
		if len(*got) != 0 {
			t.Errorf("noWatch %v: a command that changed nothing recorded %+v", noWatch, *got)
		}
	}
}
