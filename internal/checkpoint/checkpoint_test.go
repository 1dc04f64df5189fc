package checkpoint

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
)

func TestStoreKeepsContentByHashAndRefusesDamage(t *testing.T) {
	s := Open(t.TempDir())
	data := []byte("\ufeffa\r\nb\r\n")
	h, err := s.Put(data)
	if err != nil || h != Hash(data) {
		t.Fatalf("put: %v %s", err, h)
	}
	if h2, _ := s.Put(data); h2 != h {
		t.Fatal("same content, different name")
	}
	got, err := s.Get(h)
	if err != nil || string(got) != string(data) {
		t.Fatalf("get: %q %v", got, err)
	}
	os.WriteFile(s.blobPath(h), []byte("tampered"), 0o600)
	if _, err := s.Get(h); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged content read back: %v", err)
	}
	if _, err := s.Get(Hash([]byte("never stored"))); err == nil {
		t.Fatal("missing content read back")
	}
}

func TestCollectRemovesOldThenLeastRecentlyUsed(t *testing.T) {
	s := Open(t.TempDir())
	now := time.Now()
	put := func(c string, age time.Duration) string {
		h, _ := s.Put([]byte(c))
		ts := now.Add(-age)
		os.Chtimes(s.blobPath(h), ts, ts)
		return h
	}
	old := put("old", 40*24*time.Hour)
	lru := put("least recent", 2*time.Hour)
	fresh := put("fresh", 0)
	tmp := filepath.Join(filepath.Dir(s.blobPath(fresh)), ".x.tmp-1")
	os.WriteFile(tmp, []byte("torn"), 0o600)
	ts := now.Add(-2 * time.Hour)
	os.Chtimes(tmp, ts, ts)
	if _, err := s.Collect(Limits{MaxAge: 30 * 24 * time.Hour, MaxBytes: int64(len("fresh"))}, now); err != nil {
		t.Fatal(err)
	}
	if s.Has(old) || s.Has(lru) || !s.Has(fresh) {
		t.Fatalf("after collect: old %v lru %v fresh %v", s.Has(old), s.Has(lru), s.Has(fresh))
	}
	if _, err := os.Stat(tmp); err == nil {
		t.Fatal("a crash's temporary file was kept")
	}
}

func TestDiffFindsChangedCreatedDeleted(t *testing.T) {
	st := func(size int64, mtime int64, mode uint32) Stat { return Stat{Size: size, Mtime: mtime, Mode: mode} }
	old := Index{
		"same":    {Stat: st(1, 1, 0o644)},
		"resized": {Stat: st(1, 1, 0o644)},
		"touched": {Stat: st(1, 1, 0o644)},
		"chmod":   {Stat: st(1, 1, 0o644)},
		"gone":    {Stat: st(1, 1, 0o644)},
	}
	for _, tc := range []struct {
		name string
		cur  map[string]Stat
		want []string
	}{
		{"nothing changed", map[string]Stat{"same": st(1, 1, 0o644), "resized": st(1, 1, 0o644), "touched": st(1, 1, 0o644), "chmod": st(1, 1, 0o644), "gone": st(1, 1, 0o644)}, nil},
		{"every kind", map[string]Stat{"same": st(1, 1, 0o644), "resized": st(2, 1, 0o644), "touched": st(1, 2, 0o644), "chmod": st(1, 1, 0o755), "new": st(1, 1, 0o644)},
			[]string{"chmod", "gone", "new", "resized", "touched"}},
		{"empty tree", map[string]Stat{}, []string{"chmod", "gone", "resized", "same", "touched"}},
	} {
		if got := Diff(old, tc.cur); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

type globIgnore struct{ dir string }

func (globIgnore) Enter(string) {}
func (g globIgnore) Ignored(abs string, isDir bool) bool {
	return isDir && filepath.Base(abs) == g.dir
}

func TestScanSkipsGitIgnoredAndLinks(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a.txt", "sub/b.txt", ".git/HEAD", "build/x"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(p), 0o644)
	}
	os.Symlink("a.txt", filepath.Join(root, "link"))
	got, err := Scan(root, globIgnore{"build"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for p := range got {
		names = append(names, p)
	}
	if len(names) != 2 || got["a.txt"].Size != 5 || got["sub/b.txt"].Size != 9 {
		t.Fatalf("scan: %v", got)
	}
}

func TestPlanRestoresFirstStateAndFlagsConflicts(t *testing.T) {
	st := func(h string) *event.FileState { return &event.FileState{Hash: h, Mode: 0o644} }
	changes := []event.FileChange{
		{Path: "edited", Before: st("v1")}, {Path: "edited", After: st("v2")},
		{Path: "edited", Before: st("v2")}, {Path: "edited", After: st("v3")},
		{Path: "created", Before: st(""), After: st("c")},
		{Path: "deleted", Before: st("d"), After: st("")},
		{Path: "user", Before: st("u1"), After: st("u2")},
		{Path: "back", Before: st("b1"), After: st("b1")},
		{Path: "pending", Before: st("p1")},
	}
	now := map[string]event.FileState{"edited": *st("v3"), "created": *st("c"), "user": *st("mine"), "back": *st("b1"), "pending": *st("p2")}
	acts, err := Plan(changes, func(rel string) (event.FileState, error) { return now[rel], nil })
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range acts {
		got[a.Path] = a.To.Hash + "|" + a.Conflict
	}
	want := map[string]string{
		"edited":  "v1|",
		"created": "|",
		"deleted": "d|",
		"user":    "u1|changed since Zero last wrote it",
		"pending": "p1|",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("plan %v, want %v", got, want)
	}
}

func TestTrackerRecordsShellChangesOnlyForChangedFiles(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a"), []byte("a\r\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b"), []byte("b"), 0o755)
	os.WriteFile(filepath.Join(root, "big"), make([]byte, 100), 0o644)
	var got []event.Checkpoint
	tr := NewTracker(Options{Root: root, Store: Open(t.TempDir()), MaxFileSize: 50, Emit: func(e event.Event) { got = append(got, *e.Checkpoint) }})
	if err := tr.BeforeShell(); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "a"))
	os.WriteFile(filepath.Join(root, "c"), []byte("c"), 0o600)
	os.WriteFile(filepath.Join(root, "big"), make([]byte, 101), 0o644)
	if err := tr.AfterShell(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("events %v", got)
	}
	cp := got[0]
	if len(cp.Changes) != 2 || cp.Changes[0].Path != "a" || cp.Changes[0].After.Hash != "" || cp.Changes[0].Before.Hash != Hash([]byte("a\r\n")) ||
		cp.Changes[1].Path != "c" || cp.Changes[1].Before.Hash != "" || cp.Changes[1].After.Mode != 0o600 {
		t.Fatalf("changes %+v", cp.Changes)
	}
	if !reflect.DeepEqual(cp.Skipped, []string{"big"}) {
		t.Fatalf("skipped %v", cp.Skipped)
	}
	got = nil
	tr.BeforeShell()
	tr.AfterShell()
	if len(got) != 0 {
		t.Fatalf("an unchanged tree was recorded: %v", got)
	}
}

func TestTrackerNeverRecordsGitOrOutside(t *testing.T) {
	root := t.TempDir()
	tr := NewTracker(Options{Root: root, Store: Open(t.TempDir())})
	rels, err := tr.BeforeWrite([]string{filepath.Join(root, ".git", "config"), filepath.Join(filepath.Dir(root), "x"), filepath.Join(root, "ok")})
	if err != nil || !reflect.DeepEqual(rels, []string{"ok"}) {
		t.Fatalf("recorded %v (%v)", rels, err)
	}
}

// TestSetTracksEachAddedRootOnItsOwn: an added root outside the
// workspace gets its own tracker (files named by absolute path); one
// inside the workspace is the workspace's; one holding the workspace is
// listed as untracked rather than scanned twice.
func TestSetTracksEachAddedRootOnItsOwn(t *testing.T) {
	base := t.TempDir()
	ws, other := filepath.Join(base, "ws"), filepath.Join(base, "other")
	os.MkdirAll(filepath.Join(ws, "inner"), 0o755)
	os.MkdirAll(other, 0o755)
	var got []event.Checkpoint
	s := NewSet(Options{Root: ws, Store: Open(t.TempDir()), Emit: func(e event.Event) { got = append(got, *e.Checkpoint) }},
		[]string{filepath.Join(ws, "inner"), other, base})
	if len(s.ts) != 2 || !reflect.DeepEqual(s.Untracked, []string{base}) {
		t.Fatalf("%d trackers, untracked %v", len(s.ts), s.Untracked)
	}
	if err := s.BeforeShell(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ws, "inner", "a"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(other, "b"), []byte("b"), 0o644)
	if err := s.AfterShell(); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, cp := range got {
		for _, c := range cp.Changes {
			paths = append(paths, c.Path)
		}
	}
	if want := []string{"inner/a", filepath.ToSlash(filepath.Join(other, "b"))}; !reflect.DeepEqual(paths, want) {
		t.Fatalf("recorded %v, want %v", paths, want)
	}
	abs, err := s.BeforeWrite([]string{filepath.Join(other, "b"), filepath.Join(base, "x")})
	if err != nil || !reflect.DeepEqual(abs, []string{filepath.Join(other, "b")}) {
		t.Fatalf("BeforeWrite recorded %v (%v)", abs, err)
	}
}
