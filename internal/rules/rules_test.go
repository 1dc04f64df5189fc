package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const projectRules = `{
  // comments and trailing commas are fine
  "rules": [
    {"id": "no-prod", "on": "command", "match": "*--context prod*", "action": "block", "reason": "never touch prod"},
    {"id": "pnpm", "on": "command", "match": "npm *", "action": "rewrite", "rewrite": ["npm ", "pnpm "]},
    {"id": "migrations", "on": "edit", "match": "db/migrations/**", "action": "confirm", "reason": "migrations are reviewed"},
    {"id": "make-ok", "on": "command", "match": "/^make( |$)/", "action": "allow"},
    {"id": "shared", "on": "tool", "match": "web_*", "action": "block", "reason": "project says no"},
  ],
}`

const userRules = `[
  {"id": "shared", "on": "tool", "match": "web_fetch", "action": "allow"}
]`

func writeRules(t *testing.T) (ws, home string) {
	t.Helper()
	root := t.TempDir()
	ws, home = filepath.Join(root, "ws"), filepath.Join(root, "home")
	for dir, body := range map[string]string{ws: projectRules, home: userRules} {
		if err := os.MkdirAll(filepath.Join(dir, ".zero"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".zero", "rules.json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws, home
}

func TestEvaluate(t *testing.T) {
	ws, home := writeRules(t)
	s, err := Load(ws, home)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		on      On
		subject string
		action  Action
		id      string
		command string
	}{
		{OnCommand, "kubectl apply --context prod -f x.yaml", Block, "no-prod", ""},
		{OnCommand, "npm install left-pad", Rewrite, "pnpm", "pnpm install left-pad"},
		{OnCommand, "make -j4", Allow, "make-ok", ""},
		{OnCommand, "makefile-lint", "", "", ""},
		{OnCommand, "go test ./...", "", "", ""},
		{OnEdit, "db/migrations/0001_init.sql", Confirm, "migrations", ""},
		{OnEdit, "db/schema.sql", "", "", ""},
		{OnTool, "web_fetch", Allow, "shared", ""}, // the user's rule replaced the project's
		{OnTool, "web_search", "", "", ""},
	}
	for _, tt := range tests {
		r := s.Evaluate(tt.on, tt.subject)
		id := ""
		if r.Rule != nil {
			id = r.Rule.ID
		}
		if r.Action != tt.action || id != tt.id || r.Command != tt.command {
			t.Errorf("Evaluate(%s, %q) = %s/%s/%q, want %s/%s/%q", tt.on, tt.subject, r.Action, id, r.Command, tt.action, tt.id, tt.command)
		}
	}
	why, ok := s.Why("no-prod")
	if !ok || !strings.Contains(why, "never touch prod") || !strings.Contains(why, filepath.Join(ws, ".zero", "rules.json")) {
		t.Errorf("Why = %q, %v", why, ok)
	}
	if _, ok := s.Why("nope"); ok {
		t.Error("Why of unknown id")
	}
}

func TestParseErrors(t *testing.T) {
	tests := map[string]string{
		`{"rules":[{"on":"command","match":"x","action":"block"}]}`:                                                           "missing id",
		`{"rules":[{"id":"a","on":"file","match":"x","action":"block"}]}`:                                                     "on must be",
		`{"rules":[{"id":"a","on":"command","match":"x","action":"nuke"}]}`:                                                   "action must be",
		`{"rules":[{"id":"a","on":"command","match":"/(/","action":"block"}]}`:                                                "bad regex",
		`{"rules":[{"id":"a","on":"command","match":"x","action":"rewrite"}]}`:                                                "rewrite needs",
		`{"rules":[{"id":"a","on":"edit","match":"x","action":"rewrite","rewrite":["a","b"]}]}`:                               "only command rules",
		`{"rules":[{"id":"a","on":"tool","match":"x","action":"block"},{"id":"a","on":"tool","match":"y","action":"block"}]}`: "twice",
		`{"rules": [`: "not valid JSON",
	}
	for in, want := range tests {
		if _, err := Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) err = %v, want %q", in, err, want)
		}
	}
}

func TestLoadMissingAndBadFiles(t *testing.T) {
	root := t.TempDir()
	s, err := Load(filepath.Join(root, "nows"), filepath.Join(root, "nohome"))
	if err != nil || len(s.Rules()) != 0 {
		t.Fatalf("missing files: %v %v", s.Rules(), err)
	}
	bad := filepath.Join(root, "ws")
	os.MkdirAll(filepath.Join(bad, ".zero"), 0o755)
	os.WriteFile(filepath.Join(bad, ".zero", "rules.json"), []byte(`{"rules":[{"id":"x"}]}`), 0o644)
	if _, err := Load(bad, ""); err == nil || !strings.Contains(err.Error(), filepath.Join(bad, ".zero", "rules.json")) {
		t.Errorf("bad file error = %v, want it to name the file", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(projectRules))
	f.Add([]byte(userRules))
	f.Fuzz(func(t *testing.T, b []byte) {
		rs, err := Parse(b)
		if err != nil {
			return
		}
		s := New(rs, nil)
		for _, on := range []On{OnCommand, OnEdit, OnTool} {
			s.Evaluate(on, "npm test --context prod")
		}
	})
}
