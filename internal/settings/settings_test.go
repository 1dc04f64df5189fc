package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlacesListUserFilesBeforeProjectFiles(t *testing.T) {
	got := Places("/w", "/h", "/h/.config/zero")
	want := []Place{{Path: "/h/.claude/settings.json"}, {Path: "/h/.config/zero/settings.json"},
		{Path: "/w/.claude/settings.json", Project: true}, {Path: "/w/.claude/settings.local.json", Project: true},
		{Path: "/w/.zero/settings.json", Project: true}}
	if len(got) != len(want) {
		t.Fatalf("Places = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Places[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestReadTakesHooksAndPermissionsOnly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte(`{
	  // Claude's other keys are ignored
	  "model": "opus", "env": {"X": "1"},
	  "permissions": {"allow": ["Bash(go test:*)"], "deny": ["Read(./.env)"], "defaultMode": "acceptEdits"},
	  "hooks": {"Stop": []},
	}`), 0o644)
	f, ok, err := Read(Place{Path: p})
	if err != nil || !ok || f.Empty() || f.Allow[0] != "Bash(go test:*)" || f.Deny[0] != "Read(./.env)" || string(f.Hooks) != `{"Stop": []}` {
		t.Fatalf("Read = %+v %v %v", f, ok, err)
	}
	if len(f.Unapplied) != 1 || !strings.Contains(f.Unapplied[0], `defaultMode "acceptEdits" is not applied`) {
		t.Errorf("the unapplied defaultMode is not named: %q", f.Unapplied)
	}
	if _, ok, err := Read(Place{Path: filepath.Join(dir, "missing.json")}); ok || err != nil {
		t.Errorf("missing file: %v %v", ok, err)
	}
	os.WriteFile(p, []byte(`{"permissions": {"allow": "Bash"}}`), 0o644)
	want := p + ": not a settings object (hooks, permissions: {allow, ask, deny} lists of strings): line 1, column 27: permissions.allow must be a list of strings, not a string"
	if _, _, err := Read(Place{Path: p}); err == nil || err.Error() != want {
		t.Errorf("a bad file's error = %v, want %s", err, want)
	}
}

// FuzzParse: any content parses or errors, never panics, and what parses
// keeps only strings in the rule lists and a JSON hooks value.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"permissions": {"allow": ["Bash(go test:*)"]}, "hooks": {"Stop": []}}`))
	f.Add([]byte(`{"hooks": null, "permissions": null}`))
	f.Add([]byte(`// c` + "\n" + `{"permissions": {"deny": ["Read(./.env)",],},}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Parse(b)
		if err != nil {
			return
		}
		if file.Hooks != nil && !json.Valid(file.Hooks) {
			t.Fatalf("hooks %q is not JSON", file.Hooks)
		}
	})
}
