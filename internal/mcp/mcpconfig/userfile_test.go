package mcpconfig

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Add, SetEnabled and Remove keep every other entry and top-level key as
// written and in order; the file is 0600 (entries may hold tokens).
func TestUserFileEditsKeepOtherEntries(t *testing.T) {
	dir := t.TempDir()
	f := NewUserFile(dir)
	os.WriteFile(f.Path, []byte("\xef\xbb\xbf{\r\n  \"comment\": \"mine\",\r\n  \"mcpServers\": {\r\n    \"zeta\": {\"command\": \"z\", \"x-custom\": [1, 2]},\r\n    \"alpha\": {\"url\": \"https://a\"}\r\n  },\r\n  \"later\": true\r\n}\r\n"), 0o644)
	if err := f.Add("mid", json.RawMessage(`{"command":"npx","args":["-y","pkg"],"env":{"T":"${T}"}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.SetEnabled("alpha", false); err != nil {
		t.Fatal(err)
	}
	want := `{
  "comment": "mine",
  "mcpServers": {
    "zeta": {
      "command": "z",
      "x-custom": [
        1,
        2
      ]
    },
    "alpha": {
      "url": "https://a",
      "enabled": false
    },
    "mid": {
      "command": "npx",
      "args": [
        "-y",
        "pkg"
      ],
      "env": {
        "T": "${T}"
      }
    }
  },
  "later": true
}
`
	if got := readText(t, f.Path); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	if st, _ := os.Stat(f.Path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	if _, err := f.SetEnabled("alpha", true); err != nil {
		t.Fatal(err)
	}
	if err := f.Remove("zeta"); err != nil {
		t.Fatal(err)
	}
	got := readText(t, f.Path)
	if strings.Contains(got, "zeta") || strings.Contains(got, "enabled") || !strings.Contains(got, `"later": true`) || !strings.Contains(got, `"mid"`) {
		t.Errorf("after enable and remove:\n%s", got)
	}
}

// SetEnabled on a name the file does not hold writes an override entry
// ({"enabled": false}); enabling it again keeps the override, now true.
func TestSetEnabledWritesOverrideForOtherSources(t *testing.T) {
	f := NewUserFile(filepath.Join(t.TempDir(), "new", "dir"))
	over, err := f.SetEnabled("sentry", false)
	if err != nil || !over {
		t.Fatalf("override %v, err %v", over, err)
	}
	if got := readText(t, f.Path); got != "{\n  \"mcpServers\": {\n    \"sentry\": {\n      \"enabled\": false\n    }\n  }\n}\n" {
		t.Errorf("file:\n%s", got)
	}
	if over, err := f.SetEnabled("sentry", true); err != nil || !over {
		t.Fatalf("override %v, err %v", over, err)
	}
	if got := readText(t, f.Path); !strings.Contains(got, `"enabled": true`) {
		t.Errorf("file:\n%s", got)
	}
}

// A file that does not parse is never written over: each edit fails
// naming the file and line, and the bytes stay as they were.
func TestUserFileRefusesToWriteOverMalformed(t *testing.T) {
	f := NewUserFile(t.TempDir())
	bad := "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}\n"
	os.WriteFile(f.Path, []byte(bad), 0o600)
	for name, edit := range map[string]func() error{
		"add":     func() error { return f.Add("c", json.RawMessage(`{"command":"c"}`)) },
		"remove":  func() error { return f.Remove("a") },
		"disable": func() error { _, err := f.SetEnabled("a", false); return err },
	} {
		err := edit()
		if err == nil || !strings.Contains(err.Error(), f.Path+":4:") || !strings.Contains(err.Error(), "will not write over") {
			t.Errorf("%s: %v", name, err)
		}
		if readText(t, f.Path) != bad {
			t.Fatalf("%s changed the malformed file", name)
		}
	}
	os.WriteFile(f.Path, []byte(`{"mcpServers": "oops"}`), 0o600)
	if err := f.Remove("a"); err == nil || !strings.Contains(err.Error(), "expected a JSON object") {
		t.Errorf("mcpServers not an object: %v", err)
	}
}

// Add refuses a name already there and an entry that is no server; Remove
// a name that is not there.
func TestUserFileAddAndRemoveErrors(t *testing.T) {
	f := NewUserFile(t.TempDir())
	if err := f.Add("a", json.RawMessage(`{"command":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if err := f.Add("a", json.RawMessage(`{"command":"y"}`)); !errors.Is(err, ErrExists) {
		t.Errorf("add twice: %v", err)
	}
	if err := f.Remove("nope"); !errors.Is(err, ErrNoEntry) {
		t.Errorf("remove missing: %v", err)
	}
	for _, tc := range []struct{ name, raw, want string }{
		{"b", `{"enabled": false}`, `neither "command" nor "url"`},
		{"b", `["command"]`, "expected a JSON object"},
		{"b", `{"command": "x"} trailing`, "text after the JSON object"},
		{"b", `{"type": "sse"}`, `type "sse" needs a "url"`},
		{"b", `{"command": "x", "toolTimeout": -1}`, "toolTimeout must be seconds"},
		{"b", ``, "expected a JSON object"},
		{"has space", `{"command": "x"}`, "server name"},
	} {
		if err := f.Add(tc.name, json.RawMessage(tc.raw)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("add %s %s: %v, want %q", tc.name, tc.raw, err, tc.want)
		}
	}
}

// Entry writes a Server in Claude's shape with Zero's keys only where
// they differ from the defaults; reading it back gives the same server.
func TestEntryRoundTrip(t *testing.T) {
	s := Server{
		Name: "r", Transport: HTTP, URL: "https://x/mcp", Headers: map[string]string{"X": "${X}"},
		BearerTokenEnv: "TOK", Enabled: false, Required: true, DisabledTools: []string{"rm"},
		AlwaysLoadTools: []string{"get"}, StartupTimeout: 90 * time.Second, ToolTimeout: 1500 * time.Millisecond,
	}
	raw := Entry(s)
	want := `{"type":"http","url":"https://x/mcp","headers":{"Authorization":"Bearer ${TOK}","X":"${X}"},"enabled":false,"required":true,"disabledTools":["rm"],"alwaysLoad":["get"],"startupTimeout":90,"toolTimeout":1.5}`
	if string(raw) != want {
		t.Errorf("entry %s\nwant  %s", raw, want)
	}
	back, err := ParseEntry("r", raw)
	if err != nil {
		t.Fatal(err)
	}
	if back.URL != s.URL || back.Enabled || !back.Required || back.StartupTimeout != s.StartupTimeout || back.ToolTimeout != s.ToolTimeout || back.AlwaysLoadTools[0] != "get" || back.Headers["Authorization"] != "Bearer ${TOK}" {
		t.Errorf("read back %+v", back)
	}
	if got := string(Entry(Server{Transport: Stdio, Command: "c", Enabled: true})); got != `{"type":"stdio","command":"c"}` {
		t.Errorf("minimal entry %s", got)
	}
}

// Import copies another tool's servers into Zero's file as written
// (${VAR} references, not their values), skipping names already there,
// and writes nothing when nothing is new.
func TestImportFromCodexAndClaude(t *testing.T) {
	o := fixture(t)
	path, done, err := Import(o, "codex")
	if err != nil || !strings.HasSuffix(path, filepath.Join(".codex", "config.toml")) {
		t.Fatal(path, err)
	}
	var added, skipped []string
	for _, d := range done {
		if d.Added {
			added = append(added, d.Name)
		} else {
			skipped = append(skipped, d.Name+": "+d.Reason)
		}
	}
	if strings.Join(added, ",") != "context7,figma,off" || len(skipped) != 2 || !strings.Contains(skipped[0], "shared: already in") || !strings.Contains(skipped[1], "broken: has neither") {
		t.Errorf("added %q skipped %q", added, skipped)
	}
	text := readText(t, NewUserFile(o.ConfigDir).Path)
	for _, want := range []string{`"Authorization": "Bearer ${FIGMA_OAUTH_TOKEN}"`, `"X-Trace": "${TRACE_ID}"`, `"startupTimeout": 20`, `"enabled": false`, `"github": {`} {
		if !strings.Contains(text, want) {
			t.Errorf("Zero's file lacks %s:\n%s", want, text)
		}
	}
	if _, done, err := Import(o, "codex"); err != nil || done[0].Added {
		t.Errorf("second import: %v %+v", err, done)
	}
	if _, done, _ := Import(o, "claude"); len(done) != 3 || !done[1].Added || done[1].Name != "airtable" {
		t.Errorf("claude import: %+v", done)
	}
	if !strings.Contains(readText(t, NewUserFile(o.ConfigDir).Path), `"AIRTABLE_API_KEY": "${AIRTABLE_API_KEY}"`) {
		t.Error("import expanded a variable into Zero's file")
	}
	if _, _, err := Import(o, "cursor"); err == nil || !strings.Contains(err.Error(), "claude, codex, desktop, gemini") {
		t.Errorf("unknown --from: %v", err)
	}
}
