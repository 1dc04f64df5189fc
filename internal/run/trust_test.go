package run

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/testbin"
	"github.com/zero-agent/zero/internal/workspace"
)

// TestTrustIsReadOnceAtStartUp: the trust state LoadConfig read for
// the config is the one newSafety uses. The trust file is removed between
// the two steps, so a second read would find the folder untrusted; the
// config and the permission engine must still agree on the first read.
func TestTrustIsReadOnceAtStartUp(t *testing.T) {
	for _, tc := range []struct {
		name        string
		trust       bool
		editAfter   bool // change .zero/config.json after `zero trust`
		wantTrusted bool
		wantModel   string // the project file's model counts only when trusted
		wantNote    string
	}{
		{name: "never trusted", wantModel: "", wantNote: "this folder has project rules, hooks or permission settings (.zero/rules.json); they are ignored until you run `zero trust` here"},
		{name: "trusted", trust: true, wantTrusted: true, wantModel: "project-model"},
		{name: "changed since trusted", trust: true, editAfter: true, wantModel: "", wantNote: ".zero/config.json changed since you trusted this folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testbin.Isolate(t)
			dir := CanonicalDir(t.TempDir())
			os.MkdirAll(filepath.Join(dir, ".zero"), 0o755)
			project := filepath.Join(dir, ".zero", "config.json")
			if err := os.WriteFile(project, []byte(`{"model": "project-model"}`), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".zero", "rules.json"), []byte(`{"rules": []}`), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.trust {
				if err := permission.Trust(config.Dir(), dir); err != nil {
					t.Fatal(err)
				}
			}
			if tc.editAfter {
				os.WriteFile(project, []byte(`{"model": "project-model", "maxTurns": 7}`), 0o644)
			}
			cfg, trust, err := LoadConfig(dir, config.Overrides{})
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Model != tc.wantModel {
				t.Errorf("config model %q, want %q", cfg.Model, tc.wantModel)
			}
			os.Remove(filepath.Join(config.Dir(), permission.TrustFile))

			ws, err := workspace.New(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			var stderr bytes.Buffer
			sf, err := newSafety(&stderr, ws, cfg, trust, permission.ModeNormal, ToolFlags{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sf.trusted != tc.wantTrusted {
				t.Errorf("safety trusted = %v, want %v (the config read the folder as %v)", sf.trusted, tc.wantTrusted, trust.OK())
			}
			if tc.wantNote == "" && stderr.Len() > 0 || !strings.Contains(stderr.String(), tc.wantNote) {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.wantNote)
			}
		})
	}
}
