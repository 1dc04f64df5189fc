package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseReadsClaudeSettingsShape(t *testing.T) {
	c, warns, err := Parse([]byte(`{
	  // Claude Code's settings.json, with other keys beside hooks
	  "model": "sonnet",
	  "hooks": {
	    "PreToolUse": [{"matcher": "Bash|Edit", "hooks": [
	      {"type": "command", "command": "./check.sh", "timeout": 5, "onError": "block"},
	      {"type": "command", "command": "./log.sh"}]}],
	    "Stop": [{"hooks": [{"type": "command", "command": "./verify.sh"}]}],
	  }
	}`), "settings.json")
	if err != nil || len(warns) != 0 {
		t.Fatalf("Parse: %v %v", err, warns)
	}
	pre := c[PreToolUse]
	if len(pre) != 2 || pre[0].Matcher != "Bash|Edit" || pre[0].Timeout.Seconds() != 5 || !pre[0].FailClosed || pre[1].FailClosed || pre[0].Source != "settings.json" {
		t.Errorf("PreToolUse = %+v", pre)
	}
	if len(c[Stop]) != 1 || c.Len() != 3 {
		t.Errorf("Stop = %+v, Len %d", c[Stop], c.Len())
	}
}

func TestParseErrorsNameTheFileAndHook(t *testing.T) {
	for in, want := range map[string]string{
		`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": ""}]}]}}`:     "PreToolUse group 1 hook 1: has no command",
		`{"hooks": {"PreToolUse": [{"hooks": [{"command": "x", "timeout": -1}]}]}}`:        "negative timeout",
		`{"hooks": {"PreToolUse": [{"matcher": "(", "hooks": [{"command": "x"}]}]}}`:       "bad matcher",
		`{"hooks": {"PreToolUse": [{"hooks": [{"command": "x", "onError": "explode"}]}]}}`: "onError",
		`{"hooks": {"PreToolUse": {"matcher": "x"}}}`:                                      "f.json: PreToolUse must be a list of {matcher, hooks} groups, not an object",
		`{"hooks": {"PreToolUse": [{"hooks": [{"command": 5}]}]}}`:                         "f.json: PreToolUse: hooks.command must be a string, not a number",
		`{"hooks": ["PreToolUse"]}`: "f.json: hooks must be an object of events (PreToolUse, ...), not a list",
		`{"hooks": `:                "not valid JSON",
		`{"hooks": {"beforeTool": [{"command": "x", "matcher": "/(/"}]}}`: "bad matcher",
	} {
		if _, _, err := Parse([]byte(in), "f.json"); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "f.json") || strings.Contains(err.Error(), "Go ") {
			t.Errorf("Parse(%s) err = %v, want %q and the file", in, err, want)
		}
	}
}

func TestParseWarnsOfHooksThatWouldNeverRun(t *testing.T) {
	c, warns, err := Parse([]byte(`{"hooks": {
	  "PreToolUze": [{"hooks": [{"command": "x"}]}],
	  "Stop": [{"hooks": [{"type": "prompt", "prompt": "is it done?"}]}]}}`), "f.json")
	if err != nil || c.Len() != 0 || len(warns) != 2 {
		t.Fatalf("Parse = %v %v %v", c, warns, err)
	}
	if !strings.Contains(warns[0], `unknown hook event "PreToolUze"`) || !strings.Contains(warns[1], `type "prompt"`) {
		t.Errorf("warnings = %q", warns)
	}
}

func TestEarlierFormatStillWorksWithAWarning(t *testing.T) {
	c, warns, err := Parse([]byte(`{"hooks": {"beforeTool": [{"matcher": "bash|write_*", "command": "./check.sh", "timeout": 5}], "sessionEnd": [{"command": "echo bye"}]}}`), ".zero/hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(c[PreToolUse]) != 1 || !c[PreToolUse][0].Legacy || len(c[SessionEnd]) != 1 {
		t.Fatalf("converted = %+v", c)
	}
	if len(warns) != 2 || !strings.Contains(warns[0], "earlier hook format") || !strings.Contains(warns[0], `"PreToolUse"`) {
		t.Errorf("warnings = %q", warns)
	}
	inner, _, err := ParseValue([]byte(`{"afterTool": [{"command": "true"}]}`), "config.json (hooks)")
	if err != nil || len(inner[PostToolUse]) != 1 {
		t.Errorf("inner form: %+v %v", inner, err)
	}
}

func TestMatcherUsesClaudeNamesForZeroTools(t *testing.T) {
	tests := []struct {
		matcher, tool string
		legacy        bool
		want          bool
	}{
		{"", "bash", false, true},
		{"*", "mcp__x__y", false, true},
		{"Bash", "bash", false, true},
		{"bash", "bash", false, true}, // Zero's own name works too
		{"Bash", "read_file", false, false},
		{"Bash", "exec_command", false, true},
		{"Read", "read_file", false, true},
		{"Edit|Write", "edit_file", false, true},
		{"Edit|Write", "write_file", false, true},
		{"Edit", "apply_patch", false, true},
		{"Write", "apply_patch", false, true},
		{"MultiEdit", "edit_file", false, true},
		{"Edit", "read_file", false, false},
		{"Glob|Grep", "grep", false, true},
		{"WebFetch", "web_fetch", false, true},
		{"Web.*", "web_fetch", false, true},
		{"mcp__github__.*", "mcp__github__create_issue", false, true},
		{"mcp__github__.*", "mcp__gitlab__create_issue", false, false},
		{"mcp__.*__write.*", "mcp__fs__write_file", false, true},
		{"Bas", "bash", false, false}, // a plain word is an exact name
		{"bash|write_*", "write_file", true, true},
		{"bash|write_*", "edit_file", true, false},
		{"/(edit|write)_file/", "edit_file", true, true},
		{"Bash", "bash", true, false}, // the earlier format matched Zero's names only
	}
	for _, tt := range tests {
		h, err := newHook(PreToolUse, tt.matcher, settingsHook{Command: "x"}, tt.legacy, "t")
		if err != nil {
			t.Fatal(err)
		}
		subj := Input{Tool: tt.tool}.subjects(PreToolUse)
		if tt.legacy {
			subj = []string{tt.tool}
		}
		if got := h.Matches(subj...); got != tt.want {
			t.Errorf("matcher %q (legacy %v) on %q = %v, want %v", tt.matcher, tt.legacy, tt.tool, got, tt.want)
		}
	}
}

func TestToolInputInClaudeFieldNames(t *testing.T) {
	tests := []struct {
		tool, zero, claude string
	}{
		{"read_file", `{"path":"a.go","offset":3}`, `{"file_path":"a.go","offset":3}`},
		{"write_file", `{"path":"a.go","content":"x"}`, `{"content":"x","file_path":"a.go"}`},
		{"edit_file", `{"path":"a.go","old_string":"a","new_string":"b"}`, `{"file_path":"a.go","new_string":"b","old_string":"a"}`},
		{"bash", `{"command":"ls","timeout_ms":5}`, `{"command":"ls","timeout":5}`},
		{"exec_command", `{"cmd":"npm run dev","yield_time_ms":500}`, `{"command":"npm run dev","yield_time_ms":500}`},
		{"grep", `{"pattern":"x","ignore_case":true}`, `{"-i":true,"pattern":"x"}`},
		{"mcp__s__t", `{"path":"keep"}`, `{"path":"keep"}`},
	}
	for _, tt := range tests {
		got := ClaudeInput(tt.tool, json.RawMessage(tt.zero), nil)
		if string(got) != tt.claude {
			t.Errorf("ClaudeInput(%s, %s) = %s, want %s", tt.tool, tt.zero, got, tt.claude)
		}
		back, err := ZeroInput(tt.tool, got)
		var a, b any
		json.Unmarshal(back, &a)
		json.Unmarshal([]byte(tt.zero), &b)
		if err != nil || !jsonEqual(a, b) {
			t.Errorf("ZeroInput(%s) = %s %v, want %s", got, back, err, tt.zero)
		}
	}
	for zero, claude := range map[string]string{"bash": "Bash", "read_file": "Read", "apply_patch": "Edit", "mcp__a__b": "mcp__a__b", "update_plan": "update_plan", "exec_command": "exec_command"} {
		if got := ClaudeName(zero); got != claude {
			t.Errorf("ClaudeName(%s) = %s, want %s", zero, got, claude)
		}
	}
	if ZeroName("Bash") != "bash" || ZeroName("Edit") != "edit_file" || ZeroName("read_file") != "read_file" {
		t.Error("ZeroName does not map back")
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// fire runs one PreToolUse hook with command and returns the result.
func fire(t *testing.T, ev Event, command string, failClosed bool, in Input) (Result, string) {
	t.Helper()
	dir := t.TempDir()
	h, err := newHook(ev, "", settingsHook{Command: command, Timeout: 5}, false, "t")
	if err != nil {
		t.Fatal(err)
	}
	h.FailClosed = failClosed
	r := &Runner{Dir: dir, Config: Config{ev: {h}}}
	return r.Fire(context.Background(), ev, in), dir
}

func TestDecisionsFromExitCodesAndJSON(t *testing.T) {
	bash := Input{Tool: "bash", Args: json.RawMessage(`{"command":"rm -rf build"}`)}
	tests := []struct {
		name, command string
		failClosed    bool
		check         func(Result) bool
	}{
		{"exit 2 blocks with stderr", `echo "no rm here" >&2; exit 2`, false,
			func(r Result) bool { return r.Blocked && r.Reason == "no rm here" && r.Runs[0].Decision == "block" }},
		{"exit 1 goes on", `echo oops >&2; exit 1`, false,
			func(r Result) bool { return !r.Blocked && r.Runs[0].ExitCode == 1 }},
		{"exit 1 with onError block blocks", `echo oops >&2; exit 1`, true,
			func(r Result) bool {
				return r.Blocked && strings.Contains(r.Reason, "onError: block") && strings.Contains(r.Reason, "oops")
			}},
		{"bad JSON goes on", `echo '{"hookSpecificOutput": '`, false,
			func(r Result) bool { return !r.Blocked && strings.Contains(r.Runs[0].Error, "JSON") }},
		{"bad JSON with onError block blocks", `echo '{"hookSpecificOutput": '`, true,
			func(r Result) bool { return r.Blocked && strings.Contains(r.Reason, "JSON") }},
		{"a crash with onError block blocks", `kill -9 $$`, true,
			func(r Result) bool { return r.Blocked }},
		{"permissionDecision deny", `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "use make clean"}}'`, false,
			func(r Result) bool { return r.Blocked && r.Reason == "use make clean" }},
		{"permissionDecision allow", `echo '{"hookSpecificOutput": {"permissionDecision": "allow", "permissionDecisionReason": "fine"}}'`, false,
			func(r Result) bool {
				return !r.Blocked && r.Permission == "allow" && r.PermissionReason == "fine" && r.Runs[0].Decision == "allow"
			}},
		{"permissionDecision ask", `echo '{"hookSpecificOutput": {"permissionDecision": "ask"}}'`, false,
			func(r Result) bool { return r.Permission == "ask" }},
		{"updatedInput and additionalContext", `echo '{"hookSpecificOutput": {"updatedInput": {"command": "rm -rf ./build"}, "additionalContext": "build is generated"}}'`, false,
			func(r Result) bool {
				return string(r.UpdatedInput) == `{"command": "rm -rf ./build"}` && len(r.Context) == 1 && r.Context[0] == "build is generated"
			}},
		{"continue false stops", `echo '{"continue": false, "stopReason": "quota reached"}'`, false,
			func(r Result) bool { return r.Stop && r.StopReason == "quota reached" && r.Runs[0].Decision == "stop" }},
		{"decision block", `echo '{"decision": "block", "reason": "not yet"}'`, false,
			func(r Result) bool { return r.Blocked && r.Reason == "not yet" }},
		{"plain stdout is not a decision", `echo hello`, false,
			func(r Result) bool { return !r.Blocked && r.Permission == "" && len(r.Context) == 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := fire(t, PreToolUse, tt.command, tt.failClosed, bash)
			if len(res.Runs) != 1 || !tt.check(res) {
				t.Errorf("Result = %+v", res)
			}
		})
	}
}

func TestTimeoutBlocksOnlyWhenFailClosed(t *testing.T) {
	for _, closed := range []bool{false, true} {
		h, _ := newHook(PreToolUse, "", settingsHook{Command: "sleep 30", Timeout: 0.1}, false, "t")
		h.FailClosed = closed
		r := &Runner{Dir: t.TempDir(), Config: Config{PreToolUse: {h}}}
		res := r.Fire(context.Background(), PreToolUse, Input{Tool: "bash"})
		if !res.Runs[0].TimedOut || res.Blocked != closed {
			t.Errorf("failClosed %v: %+v", closed, res)
		}
	}
}

func TestHookReadsClaudeJSONOnStdinWithProjectDir(t *testing.T) {
	in := Input{SessionID: "s1", TranscriptPath: "/tmp/t.jsonl", Cwd: "/w", PermissionMode: "default",
		Tool: "read_file", Args: json.RawMessage(`{"path":"a.go"}`), ToolUseID: "call_1"}
	_, dir := fire(t, PreToolUse, `cat > stdin.json; echo "$CLAUDE_PROJECT_DIR|$ZERO_PROJECT_DIR" > env.txt`, false, in)
	var got map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, "stdin.json"))
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("stdin %s: %v", b, err)
	}
	want := map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "/w", "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_use_id": "call_1", "tool_input": map[string]any{"file_path": "a.go"}}
	if !jsonEqual(got, want) {
		t.Errorf("stdin = %s", b)
	}
	env, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
	if strings.TrimSpace(string(env)) != dir+"|"+dir {
		t.Errorf("env = %q, want the project dir twice", env)
	}
	for ev, key := range map[Event]string{UserPromptSubmit: `"prompt":"hi"`, Stop: `"stop_hook_active":true`, PreCompact: `"trigger":"auto"`, SessionStart: `"source":"resume"`} {
		_, dir := fire(t, ev, `cat > stdin.json`, false, Input{Prompt: "hi", StopHookActive: true, Trigger: "auto", Source: "resume"})
		b, _ := os.ReadFile(filepath.Join(dir, "stdin.json"))
		if !strings.Contains(string(b), key) || !strings.Contains(string(b), `"hook_event_name":"`+string(ev)+`"`) {
			t.Errorf("%s stdin = %s, want %s", ev, b, key)
		}
	}
}

func TestBlockStopsLaterHooksAndLegacyPayload(t *testing.T) {
	dir := t.TempDir()
	c, _, err := Parse([]byte(`{
	  "beforeTool": [{"command": "cat > legacy.json"}],
	  "PreToolUse": [{"matcher": "Bash", "hooks": [
	    {"command": "grep -q 'rm -rf' || exit 0; echo 'no rm -rf in this repo' >&2; exit 2"},
	    {"command": "touch ran-after-block"}]}]}`), "t")
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Dir: dir, Config: c}
	res := r.Fire(context.Background(), PreToolUse, Input{SessionID: "s1", Tool: "bash", Args: json.RawMessage(`{"command":"rm -rf build"}`)})
	if !res.Blocked || res.Reason != "no rm -rf in this repo" || len(res.Runs) != 1 {
		t.Fatalf("Fire = %+v", res)
	}
	for _, f := range []string{"ran-after-block", "legacy.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("a hook after the blocking one ran (%s)", f)
		}
	}
	if res := r.Fire(context.Background(), PreToolUse, Input{SessionID: "s1", Tool: "bash", Args: json.RawMessage(`{"command":"ls"}`)}); res.Blocked || len(res.Runs) != 3 {
		t.Errorf("harmless call: %+v", res)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "legacy.json"))
	if !strings.Contains(string(b), `"event":"beforeTool"`) || !strings.Contains(string(b), `"tool":"bash"`) || !strings.Contains(string(b), `"sessionId":"s1"`) {
		t.Errorf("legacy payload = %s", b)
	}
}

func TestMerge(t *testing.T) {
	a := Config{SessionStart: {{Command: "a"}}}
	b := Config{SessionStart: {{Command: "b"}}, Stop: {{Command: "c"}}}
	m := Merge(a, b)
	if len(m[SessionStart]) != 2 || m[SessionStart][0].Command != "a" || len(m[Stop]) != 1 {
		t.Errorf("Merge = %+v", m)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"hooks":{"beforeTool":[{"matcher":"bash|w*","command":"x"}]}}`))
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash|mcp__.*","hooks":[{"type":"command","command":"x","timeout":3,"onError":"block"}]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, _, err := Parse(b, "f")
		if err != nil {
			return
		}
		for ev, hs := range c {
			if _, err := ParseEvent(string(ev)); err != nil {
				t.Fatalf("Parse accepted event %q", ev)
			}
			for _, h := range hs {
				if strings.TrimSpace(h.Command) == "" || h.Timeout < 0 {
					t.Fatalf("Parse accepted %+v", h)
				}
				h.Matches("Bash", "bash")
			}
		}
	})
}
