package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree builds base/{ws,outside,extra,ws-evil} with links of every kind.
func tree(t testing.TB) (base string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"ws/sub/deep", "outside", "extra", "ws-evil"} {
		must(t, os.MkdirAll(filepath.Join(base, d), 0o755))
	}
	for f, body := range map[string]string{
		"ws/sub/a.txt":    "a",
		"outside/s.txt":   "secret",
		"extra/e.txt":     "extra",
		"ws-evil/s.txt":   "evil",
		"ws/sub/deep/d.x": "d",
	} {
		must(t, os.WriteFile(filepath.Join(base, f), []byte(body), 0o644))
	}
	for link, target := range map[string]string{
		"ws/up":       "../outside",
		"ws/abs":      filepath.Join(base, "outside"),
		"ws/dangle":   "../outside/none.txt",
		"ws/in":       "sub/a.txt",
		"ws/indir":    "sub",
		"ws/loop":     "loop",
		"ws/chain":    "in",
		"ws/toextra":  "../extra",
		"ws/sub/back": "..",
		"ws/sub/esc":  "../../outside",
	} {
		must(t, os.Symlink(target, filepath.Join(base, link)))
	}
	return base
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	base := tree(t)
	ws := filepath.Join(base, "ws")
	w, err := New(ws, filepath.Join(base, "extra"))
	must(t, err)
	defer w.Close()
	tests := []struct {
		path     string
		forWrite bool
		want     string // relative to base; "" means an error is expected
		errHas   string
	}{
		{path: "", want: "ws"},
		{path: ".", want: "ws"},
		{path: "sub/a.txt", want: "ws/sub/a.txt"},
		{path: "./sub/../sub/a.txt", want: "ws/sub/a.txt"},
		{path: "in", want: "ws/sub/a.txt"},
		{path: "chain", want: "ws/sub/a.txt"},
		{path: "indir/a.txt", want: "ws/sub/a.txt"},
		{path: "indir/new/file.go", forWrite: true, want: "ws/sub/new/file.go"},
		{path: "sub/back/sub/a.txt", want: "ws/sub/a.txt"},
		{path: "nope/../sub/a.txt", want: "ws/sub/a.txt"},
		{path: filepath.Join(base, "ws/sub/a.txt"), want: "ws/sub/a.txt"},
		{path: "toextra/e.txt", want: "extra/e.txt"},
		{path: filepath.Join(base, "extra/new.txt"), forWrite: true, want: "extra/new.txt"},
		{path: "../outside/s.txt", errHas: "path ../outside/s.txt is outside the workspace " + ws},
		{path: "sub/../../outside/s.txt", errHas: "outside the workspace"},
		{path: "../ws-evil/s.txt", errHas: "outside the workspace"},
		{path: filepath.Join(base, "ws-evil"), errHas: "outside the workspace"},
		{path: "up/s.txt", errHas: "symlink"},
		{path: "up/new.txt", forWrite: true, errHas: "symlink"},
		{path: "abs/s.txt", errHas: "symlink"},
		{path: "dangle", forWrite: true, errHas: "symlink"},
		{path: "sub/esc/s.txt", errHas: "outside the workspace"},
		{path: "indir/back/up", errHas: "outside the workspace"},
		{path: "loop", errHas: "too many levels"},
		{path: ".", forWrite: true, errHas: "workspace directory itself"},
		{path: "/etc/passwd", errHas: "outside the workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := w.Resolve(tt.path, tt.forWrite)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("Resolve(%q) = %q, %v; want error containing %q", tt.path, got, err, tt.errHas)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.path, err)
			}
			if want := filepath.Join(base, tt.want); got != want {
				t.Fatalf("Resolve(%q) = %q, want %q", tt.path, got, want)
			}
		})
	}
}

func TestOutsideErrorType(t *testing.T) {
	base := tree(t)
	w, err := New(filepath.Join(base, "ws"))
	must(t, err)
	defer w.Close()
	_, err = w.Resolve("up/s.txt", false)
	var oe *OutsideError
	if !errors.As(err, &oe) || !oe.ViaLink || oe.Resolved != filepath.Join(base, "outside/s.txt") {
		t.Fatalf("err = %#v, want *OutsideError via link to outside/s.txt", err)
	}
	_, err = w.Resolve("../outside/s.txt", false)
	if !errors.As(err, &oe) || oe.ViaLink {
		t.Fatalf("err = %#v, want *OutsideError without link", err)
	}
}

func TestRootThroughSymlink(t *testing.T) {
	base := tree(t)
	link := filepath.Join(base, "wslink")
	must(t, os.Symlink("ws", link))
	w, err := New(link)
	must(t, err)
	defer w.Close()
	if w.Root() != filepath.Join(base, "ws") {
		t.Fatalf("Root() = %q, want resolved %q", w.Root(), filepath.Join(base, "ws"))
	}
	// An absolute path spelled through the unresolved root is still inside.
	got, err := w.Resolve(filepath.Join(link, "sub/a.txt"), false)
	must(t, err)
	if got != filepath.Join(base, "ws/sub/a.txt") {
		t.Fatalf("got %q", got)
	}
}

func TestRel(t *testing.T) {
	base := tree(t)
	w, err := New(filepath.Join(base, "ws"), filepath.Join(base, "extra"))
	must(t, err)
	defer w.Close()
	for abs, want := range map[string]string{
		filepath.Join(base, "ws"):            ".",
		filepath.Join(base, "ws/sub/a.txt"):  "sub/a.txt",
		filepath.Join(base, "extra/e.txt"):   filepath.Join(base, "extra/e.txt"),
		filepath.Join(base, "ws-evil/s.txt"): filepath.Join(base, "ws-evil/s.txt"),
	} {
		if got := w.Rel(abs); got != want {
			t.Errorf("Rel(%q) = %q, want %q", abs, got, want)
		}
	}
}

func TestWriteFile(t *testing.T) {
	base := tree(t)
	w, err := New(filepath.Join(base, "ws"))
	must(t, err)
	defer w.Close()
	tests := []struct {
		path, body string
		mode       os.FileMode
	}{
		{path: "new/dir/f.txt", body: "hello", mode: 0o644},
		{path: "sub/a.txt", body: "replaced", mode: 0o600},
	}
	must(t, os.Chmod(filepath.Join(base, "ws/sub/a.txt"), 0o600))
	for _, tt := range tests {
		abs, err := w.Resolve(tt.path, true)
		must(t, err)
		must(t, w.WriteFile(abs, []byte(tt.body)))
		got, err := w.ReadFile(abs)
		must(t, err)
		if string(got) != tt.body {
			t.Errorf("%s = %q, want %q", tt.path, got, tt.body)
		}
		fi, err := os.Stat(abs)
		must(t, err)
		if fi.Mode().Perm() != tt.mode {
			t.Errorf("%s mode = %v, want %v", tt.path, fi.Mode().Perm(), tt.mode)
		}
	}
	entries, err := os.ReadDir(filepath.Join(base, "ws/sub"))
	must(t, err)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".zero-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// TestOpenRefusesSwappedLink checks the open-time guard: a path that was
// resolved inside, then replaced by an escaping symlink, is refused by I/O.
func TestOpenRefusesSwappedLink(t *testing.T) {
	base := tree(t)
	w, err := New(filepath.Join(base, "ws"))
	must(t, err)
	defer w.Close()
	abs, err := w.Resolve("sub/deep", false)
	must(t, err)
	must(t, os.RemoveAll(abs))
	must(t, os.Symlink("../../../outside", abs))
	if _, err := w.ReadFile(filepath.Join(abs, "s.txt")); err == nil {
		t.Fatal("ReadFile through a swapped escaping link succeeded")
	}
	if err := w.WriteFile(filepath.Join(abs, "x.txt"), []byte("x")); err == nil {
		t.Fatal("WriteFile through a swapped escaping link succeeded")
	}
	if _, err := os.Stat(filepath.Join(base, "outside/x.txt")); err == nil {
		t.Fatal("file created outside")
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("New on a missing dir succeeded")
	}
}
