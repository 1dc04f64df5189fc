package permission

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
		removed []string
	}{
		{"nothing", func(*testing.T, string) {}, nil, nil},
		{"hooks replaced", func(t *testing.T, p string) { write(t, filepath.Join(p, ".zero", "hooks.json"), `{"evil":1}`) }, []string{".zero/hooks.json"}, nil},
		{"rules removed", func(t *testing.T, p string) { os.Remove(filepath.Join(p, ".zero", "rules.json")) }, nil, []string{".zero/rules.json"}},
		{".zero removed", func(t *testing.T, p string) { os.RemoveAll(filepath.Join(p, ".zero")) }, nil, []string{".zero/rules.json", ".zero/hooks.json"}},
		{"hooks removed, config appears", func(t *testing.T, p string) {
			os.Remove(filepath.Join(p, ".zero", "hooks.json"))
			write(t, filepath.Join(p, ".zero", "config.json"), `{}`)
		}, []string{".zero/config.json"}, []string{".zero/hooks.json"}},
		{".mcp.json appears", func(t *testing.T, p string) { write(t, filepath.Join(p, ".mcp.json"), `{"mcpServers":{}}`) }, []string{".mcp.json"}, nil},
		{"claude settings appear", func(t *testing.T, p string) {
			write(t, filepath.Join(p, ".claude", "settings.json"), `{"hooks":{}}`)
			write(t, filepath.Join(p, ".claude", "settings.local.json"), `{}`)
		}, []string{".claude/settings.json", ".claude/settings.local.json"}, nil},
		{"gemini and vscode servers appear", func(t *testing.T, p string) {
			write(t, filepath.Join(p, ".gemini", "settings.json"), `{}`)
			write(t, filepath.Join(p, ".vscode", "mcp.json"), `{}`)
		}, []string{".gemini/settings.json", ".vscode/mcp.json"}, nil},
		{"config appears", func(t *testing.T, p string) { write(t, filepath.Join(p, ".zero", "config.json"), `{}`) }, []string{".zero/config.json"}, nil},
		{"two change", func(t *testing.T, p string) {
			write(t, filepath.Join(p, ".zero", "config.json"), `{}`)
			write(t, filepath.Join(p, ".zero", "hooks.json"), `{"x":2}`)
		}, []string{".zero/hooks.json", ".zero/config.json"}, nil},
		{"other files do not matter", func(t *testing.T, p string) { write(t, filepath.Join(p, "main.go"), "package x") }, nil, nil},
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
			r := TrustCheck(cfg, proj)
			want := TrustOK
			if tt.changed != nil {
				want = TrustChanged
			}
			if r.State != want || !slices.Equal(r.Changed, tt.changed) || !slices.Equal(r.Removed, tt.removed) || IsTrusted(cfg, proj) != (want == TrustOK) {
				t.Fatalf("TrustCheck = %+v (IsTrusted %v), want %v changed %v removed %v", r, IsTrusted(cfg, proj), want, tt.changed, tt.removed)
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

// TestRemovedFilesAreRecordedOnce: a deleted .zero/ is reported as
// removed until RecordRemoved pins the files as absent; then the folder
// checks clean, and a file coming back is a change that withdraws trust.
func TestRemovedFilesAreRecordedOnce(t *testing.T) {
	root := t.TempDir()
	cfg, proj := filepath.Join(root, "cfg"), filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(proj, ".zero"), 0o755)
	hooks := filepath.Join(proj, ".zero", "hooks.json")
	os.WriteFile(hooks, []byte(`{"ok":1}`), 0o644)
	os.WriteFile(filepath.Join(proj, ".mcp.json"), []byte(`{}`), 0o644)
	if err := Trust(cfg, proj); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(proj, ".zero"))
	r := TrustCheck(cfg, proj)
	if r.State != TrustOK || !slices.Equal(r.Removed, []string{".zero/hooks.json"}) {
		t.Fatalf("after rm -r .zero: %+v", r)
	}
	if err := RecordRemoved(cfg, proj, r.Removed); err != nil {
		t.Fatal(err)
	}
	if r := TrustCheck(cfg, proj); r.State != TrustOK || r.Removed != nil || r.Changed != nil {
		t.Fatalf("after recording the removal: %+v, want clean", r)
	}
	os.MkdirAll(filepath.Join(proj, ".zero"), 0o755)
	os.WriteFile(hooks, []byte(`{"ok":1}`), 0o644)
	if r := TrustCheck(cfg, proj); r.State != TrustChanged || !slices.Equal(r.Changed, []string{".zero/hooks.json"}) {
		t.Fatalf("the file came back: %+v, want changed", r)
	}
	// Recording a removal that is no longer true changes nothing.
	if err := RecordRemoved(cfg, proj, []string{".zero/hooks.json"}); err != nil {
		t.Fatal(err)
	}
	if st, _ := TrustState(cfg, proj); st != TrustChanged {
		t.Fatalf("RecordRemoved of a file that exists accepted it: %v", st)
	}
}

// TestTrustListAndUntrust: TrustedFolders lists each folder with its
// state (a deleted checkout as missing); Untrust forgets a folder, even
// one that no longer exists, and says when none matched.
func TestTrustListAndUntrust(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "cfg")
	a, b, gone := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "gone")
	for _, d := range []string{a, b, gone} {
		os.MkdirAll(d, 0o755)
		if err := Trust(cfg, d); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(b, ".mcp.json"), []byte(`{}`), 0o644)
	os.RemoveAll(gone)
	list, err := TrustedFolders(cfg)
	if err != nil || len(list) != 3 {
		t.Fatalf("TrustedFolders = %+v, %v", list, err)
	}
	if list[0].State != TrustOK || list[1].State != TrustChanged || !slices.Equal(list[1].Changed, []string{".mcp.json"}) || !list[2].Missing {
		t.Errorf("states: %+v", list)
	}
	for _, d := range []string{gone, a} {
		if ok, err := Untrust(cfg, d); !ok || err != nil {
			t.Errorf("Untrust(%s) = %v, %v", d, ok, err)
		}
	}
	if ok, err := Untrust(cfg, a); ok || err != nil {
		t.Errorf("Untrust of a folder no longer trusted = %v, %v", ok, err)
	}
	if IsTrusted(cfg, a) {
		t.Error("a is still trusted")
	}
	if list, _ := TrustedFolders(cfg); len(list) != 1 || !strings.HasSuffix(list[0].Path, "b") {
		t.Errorf("after removing two: %+v", list)
	}
}
