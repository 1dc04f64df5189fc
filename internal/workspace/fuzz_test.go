package workspace

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve checks Resolve against the kernel's view: whenever
// filepath.EvalSymlinks can resolve the joined path, Resolve must return
// the same path when it is inside a root and an *OutsideError otherwise;
// and whatever Resolve accepts lies inside a root.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"", ".", "sub/a.txt", "in", "chain", "up/s.txt", "abs/s.txt", "dangle", "loop",
		"../outside/s.txt", "sub/../../outside/s.txt", "../ws-evil/s.txt", "sub/back/sub/a.txt",
		"indir/back/up", "toextra/e.txt", "nope/../in", "/etc/passwd", "sub/esc", "//sub///a.txt/",
		"/proc/self/root/etc/hostname", "sub/a.txt/..", "in/../sub",
	} {
		f.Add(s)
	}
	base := tree(f)
	w, err := New(filepath.Join(base, "ws"), filepath.Join(base, "extra"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { w.Close() })
	f.Fuzz(func(t *testing.T, p string) {
		if strings.ContainsRune(p, 0) {
			return
		}
		got, err := w.Resolve(p, false)
		if err == nil && !w.Contains(got) {
			t.Fatalf("Resolve(%q) = %q, outside every root", p, got)
		}
		joined := p
		if !filepath.IsAbs(joined) {
			joined = filepath.Join(w.Root(), p)
		}
		want, kerr := filepath.EvalSymlinks(joined)
		if kerr != nil {
			return
		}
		if w.Contains(want) {
			if err != nil || got != want {
				t.Fatalf("Resolve(%q) = %q, %v; kernel resolves to %q", p, got, err, want)
			}
			return
		}
		var oe *OutsideError
		if !errors.As(err, &oe) {
			t.Fatalf("Resolve(%q) = %q, %v; kernel resolves outside to %q", p, got, err, want)
		}
	})
}
