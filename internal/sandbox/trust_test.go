package sandbox

import (
	"os"
	"path/filepath"
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
