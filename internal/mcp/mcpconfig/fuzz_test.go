package mcpconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzJSONConfigReader: no file makes the readers panic, and a Zero file
// that reads cleanly survives an edit: every entry it held is still
// there, plus the new one, and the result reads cleanly.
func FuzzJSONConfigReader(f *testing.F) {
	for _, p := range []string{"config/mcp.json", "home/.claude.json", "home/.gemini/settings.json", "project/.vscode/mcp.json", "project/.mcp.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "sources", p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("\xef\xbb\xbf{\r\n\"mcpServers\":{\"a\":{\"enabled\":false}}}\r\n"))
	f.Add([]byte(`{"mcpServers":{"a":{"command":"${X:-${Y}}","args":["$"]}},"x":[{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, sh := range []shape{shapeClaude, shapeZero, shapeGemini, shapeVSCode} {
			mcpServersAt(sh, "mcpServers")("f.json", data)
			mcpServersAt(sh, "projects", "/p", "mcpServers")("f.json", data)
		}
		uf := UserFile{Path: filepath.Join(t.TempDir(), "mcp.json")}
		if err := os.WriteFile(uf.Path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, before, err := uf.read()
		if err != nil {
			return
		}
		if err := uf.Add("fuzz-new-entry", json.RawMessage(`{"command":"x"}`)); err != nil {
			return // the name was there already
		}
		_, after, err := uf.read()
		if err != nil {
			t.Fatalf("an edit made the file unreadable: %v\n%s", err, readText(t, uf.Path))
		}
		if len(after) != len(before)+1 {
			t.Fatalf("%d entries before, %d after", len(before), len(after))
		}
		for i, m := range before {
			if after[i].Key != m.Key || string(compact(after[i].Value)) != string(compact(m.Value)) {
				t.Fatalf("entry %q changed: %s → %s", m.Key, m.Value, after[i].Value)
			}
		}
	})
}
