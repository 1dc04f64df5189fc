package toolsearch

import (
	"encoding/json"
	"os"
	"testing"
)

// catalogue200 loads testdata/tools200.json: 200 tools of well-known MCP
// servers (testdata/SOURCES.md), named as Zero exposes them.
func catalogue200(t testing.TB) []Entry {
	t.Helper()
	b, err := os.ReadFile("testdata/tools200.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []struct {
		Server      string          `json:"server"`
		Tool        string          `json:"tool"`
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
		ReadOnly    bool            `json:"readOnly"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	out := make([]Entry, len(raw))
	for i, r := range raw {
		out[i] = Entry{Server: r.Server, Tool: r.Tool, Name: "mcp__" + r.Server + "__" + r.Tool,
			Description: r.Description, Schema: r.Schema, ReadOnly: r.ReadOnly}
	}
	if len(out) != 200 {
		t.Fatalf("fixture has %d tools, want 200", len(out))
	}
	return out
}

func names(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}
