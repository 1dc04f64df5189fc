package permission

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

func TestTrust(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "cfg")
	proj := filepath.Join(root, "proj")
	other := filepath.Join(root, "proj-evil")
	link := filepath.Join(root, "link")
	for _, d := range []string{proj, other, filepath.Join(proj, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	if IsTrusted(cfg, proj) {
		t.Fatal("trusted before zero trust")
	}
	if err := Trust(cfg, link); err != nil {
		t.Fatal(err)
	}
	if err := Trust(cfg, proj); err != nil { // idempotent
		t.Fatal(err)
	}
	if !IsTrusted(cfg, proj) || !IsTrusted(cfg, link) {
		t.Error("trusted folder not recognised (directly or through its link)")
	}
	if IsTrusted(cfg, other) || IsTrusted(cfg, filepath.Join(proj, "sub")) {
		t.Error("trust leaked to a sibling with the same prefix or a subfolder")
	}
	st, err := os.Stat(filepath.Join(cfg, TrustFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("trusted.json: %v %v", st, err)
	}
	os.WriteFile(filepath.Join(cfg, TrustFile), []byte("{"), 0o600)
	if IsTrusted(cfg, proj) {
		t.Error("corrupt trust file still trusts")
	}
	if err := Trust(cfg, proj); err == nil {
		t.Error("Trust over a corrupt file succeeded silently")
	}
}

// TestTrustFollowsContent: trust covers the content of .zero's rules,
// hooks and config; replacing one (as a git pull would) withdraws it
// until `zero trust` runs again, and TrustState names what changed.
func TestTrustFollowsContent(t *testing.T) {
	write := func(t *testing.T, p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		change  func(t *testing.T, proj string)
		changed []string
	}{
		{"nothing", func(*testing.T, string) {}, nil},
		{"hooks replaced", func(t *testing.T, p string) { write(t, filepath.Join(p, ".zero", "hooks.json"), `{"evil":1}`) }, []string{".zero/hooks.json"}},
		{"rules removed", func(t *testing.T, p string) { os.Remove(filepath.Join(p, ".zero", "rules.json")) }, []string{".zero/rules.json"}},
		{"config appears", func(t *testing.T, p string) { write(t, filepath.Join(p, ".zero", "config.json"), `{}`) }, []string{".zero/config.json"}},
		{"two change", func(t *testing.T, p string) {
			write(t, filepath.Join(p, ".zero", "config.json"), `{}`)
			write(t, filepath.Join(p, ".zero", "hooks.json"), `{"x":2}`)
		}, []string{".zero/hooks.json", ".zero/config.json"}},
		{"other files do not matter", func(t *testing.T, p string) { write(t, filepath.Join(p, "main.go"), "package x") }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			cfg, proj := filepath.Join(root, "cfg"), filepath.Join(root, "proj")
			write(t, filepath.Join(proj, ".zero", "hooks.json"), `{"ok":1}`)
			write(t, filepath.Join(proj, ".zero", "rules.json"), `{"rules":[]}`)
			if st, ch := TrustState(cfg, proj); st != TrustNever || ch != nil {
				t.Fatalf("before trust: %v %v", st, ch)
			}
			if err := Trust(cfg, proj); err != nil {
				t.Fatal(err)
			}
			tt.change(t, proj)
			st, ch := TrustState(cfg, proj)
			want := TrustOK
			if tt.changed != nil {
				want = TrustChanged
			}
			if st != want || !slices.Equal(ch, tt.changed) || IsTrusted(cfg, proj) != (want == TrustOK) {
				t.Fatalf("TrustState = %v %v (IsTrusted %v), want %v %v", st, ch, IsTrusted(cfg, proj), want, tt.changed)
			}
			if err := Trust(cfg, proj); err != nil {
				t.Fatal(err)
			}
			if st, ch := TrustState(cfg, proj); st != TrustOK || ch != nil || !IsTrusted(cfg, proj) {
				t.Errorf("after trusting again: %v %v", st, ch)
			}
		})
	}
}

// TestTrustOldEntry: an entry written before content hashes counts as
// changed, naming the files that exist.
func TestTrustOldEntry(t *testing.T) {
	root := t.TempDir()
	cfg, proj := filepath.Join(root, "cfg"), filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(proj, ".zero"), 0o755)
	os.MkdirAll(cfg, 0o700)
	c, _ := filepath.EvalSymlinks(proj)
	old := `{"version":1,"folders":[{"path":` + strconv.Quote(c) + `,"trusted":"2026-01-01T00:00:00Z"}]}`
	if err := os.WriteFile(filepath.Join(cfg, TrustFile), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, ch := TrustState(cfg, proj); st != TrustChanged || ch != nil {
		t.Errorf("old entry, no files: %v %v", st, ch)
	}
	os.WriteFile(filepath.Join(proj, ".zero", "hooks.json"), []byte("{}"), 0o644)
	if st, ch := TrustState(cfg, proj); st != TrustChanged || !slices.Equal(ch, []string{".zero/hooks.json"}) {
		t.Errorf("old entry with hooks: %v %v", st, ch)
	}
	if err := Trust(cfg, proj); err != nil || !IsTrusted(cfg, proj) {
		t.Errorf("re-trust: %v", err)
	}
}
