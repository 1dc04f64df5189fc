package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	c, err := Parse([]byte(`{
	  // project hooks
	  "hooks": {
	    "beforeTool": [{"matcher": "bash|write_*", "command": "./check.sh", "timeout": 5},],
	    "sessionEnd": [{"command": "echo bye"}]
	  }
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.BeforeTool) != 1 || c.BeforeTool[0].Matcher != "bash|write_*" || c.BeforeTool[0].Timeout != 5 || len(c.SessionEnd) != 1 {
		t.Errorf("Parse = %+v", c)
	}
	inner, err := Parse([]byte(`{"afterTool": [{"command": "true"}]}`))
	if err != nil || len(inner.AfterTool) != 1 {
		t.Errorf("inner form: %+v %v", inner, err)
	}
	for in, want := range map[string]string{
		`{"beforeTool": [{"command": ""}]}`:                    "no command",
		`{"beforeTool": [{"command": "x", "timeout": -1}]}`:    "negative timeout",
		`{"beforeTool": [{"command": "x", "matcher": "/(/"}]}`: "bad matcher",
		`{"beforeTool": `: "not valid JSON",
	} {
		if _, err := Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) err = %v, want %q", in, err, want)
		}
	}
}

func TestMatcher(t *testing.T) {
	tests := []struct {
		matcher, tool string
		want          bool
	}{
		{"", "bash", true},
		{"*", "anything", true},
		{"bash", "bash", true},
		{"bash", "bash2", false},
		{"bash|write_*", "write_file", true},
		{"bash|write_*", "edit_file", false},
		{"/(edit|write)_file/", "edit_file", true},
		{"/edit/", "edit_file", false},
		{"mcp__*", "mcp__github__create_issue", true},
	}
	for _, tt := range tests {
		re, err := compileMatcher(tt.matcher)
		if err != nil {
			t.Fatal(err)
		}
		if got := re == nil || re.MatchString(tt.tool); got != tt.want {
			t.Errorf("matcher %q on %q = %v, want %v", tt.matcher, tt.tool, got, tt.want)
		}
	}
}

func TestFire(t *testing.T) {
	dir := t.TempDir()
	r := &Runner{Dir: dir, Config: Config{
		BeforeTool: []Hook{
			{Matcher: "*", Command: "cat > payload.json"},
			{Matcher: "bash", Command: `grep -q 'rm -rf' payload.json && { echo "hook: no rm -rf in this repo" >&2; exit 2; }; exit 0`},
			{Matcher: "bash", Command: "touch ran-after-block"},
		},
		AfterTool:    []Hook{{Matcher: "write_*", Command: "exit 1"}},
		SessionStart: []Hook{{Command: "sleep 10", Timeout: 0.2}},
	}}
	ctx := context.Background()

	blocked, reason, runs := r.Fire(ctx, BeforeTool, Payload{SessionID: "s1", Tool: "bash", Arguments: json.RawMessage(`{"command":"rm -rf build"}`)})
	if !blocked || reason != "hook: no rm -rf in this repo" || len(runs) != 2 || !runs[1].Blocked || runs[1].ExitCode != BlockExit {
		t.Fatalf("Fire = %v %q %+v", blocked, reason, runs)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran-after-block")); err == nil {
		t.Error("a hook after the blocking one ran")
	}
	var got Payload
	b, _ := os.ReadFile(filepath.Join(dir, "payload.json"))
	if err := json.Unmarshal(b, &got); err != nil || got.Event != BeforeTool || got.Tool != "bash" || got.SessionID != "s1" ||
		!strings.Contains(string(got.Arguments), "rm -rf build") {
		t.Errorf("payload = %s (%v)", b, err)
	}

	blocked, _, runs = r.Fire(ctx, BeforeTool, Payload{Tool: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)})
	if blocked || len(runs) != 3 {
		t.Errorf("harmless call: blocked=%v runs=%d", blocked, len(runs))
	}

	// afterTool: a failing hook is recorded, never blocks.
	blocked, _, runs = r.Fire(ctx, AfterTool, Payload{Tool: "write_file", Result: &ToolResult{Content: "ok"}})
	if blocked || len(runs) != 1 || runs[0].ExitCode != 1 {
		t.Errorf("afterTool = %v %+v", blocked, runs)
	}
	if _, _, runs = r.Fire(ctx, AfterTool, Payload{Tool: "read_file"}); len(runs) != 0 {
		t.Errorf("matcher ignored: %+v", runs)
	}

	// A hook past its timeout is killed and reported, not a block.
	blocked, _, runs = r.Fire(ctx, SessionStart, Payload{})
	if blocked || len(runs) != 1 || !runs[0].TimedOut || runs[0].Error == "" {
		t.Errorf("timeout = %v %+v", blocked, runs)
	}
}

func TestLoadFileAndMerge(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hooks.json")
	os.WriteFile(p, []byte(`{"hooks":{"sessionStart":[{"command":"echo hi"}]}}`), 0o644)
	c, err := LoadFile(p)
	if err != nil || len(c.SessionStart) != 1 || c.SessionStart[0].Source != p {
		t.Fatalf("LoadFile = %+v %v", c, err)
	}
	if c, err := LoadFile(filepath.Join(dir, "missing.json")); err != nil || len(c.SessionStart) != 0 {
		t.Errorf("missing file: %+v %v", c, err)
	}
	m := Merge(Config{SessionStart: []Hook{{Command: "a"}}}, c)
	if len(m.SessionStart) != 2 || m.SessionStart[0].Command != "a" {
		t.Errorf("Merge = %+v", m)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"hooks":{"beforeTool":[{"matcher":"bash|w*","command":"x"}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil {
			return
		}
		for _, h := range c.BeforeTool {
			if _, err := compileMatcher(h.Matcher); err != nil {
				t.Fatalf("Parse accepted a bad matcher %q", h.Matcher)
			}
		}
	})
}
