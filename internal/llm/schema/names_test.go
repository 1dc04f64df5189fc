package schema

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

var wirePattern = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)

func TestSanitizeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"calendar.list_events", "calendar_list_events"},
		{"github/create issue", "github_create_issue"},
		{"read_file", "read_file"},
		{"kebab-case-9", "kebab-case-9"},
		{"1password.lookup", "_1password_lookup"},
		{"-x", "_-x"},
		{"", "_"},
		{"日本.語", "____"}, // four runes, each one "_"
	}
	for _, tc := range tests {
		got := sanitizeName(tc.in)
		if got != tc.want {
			t.Errorf("sanitizeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNameMap(t *testing.T) {
	long := strings.Repeat("very.long.tool.name.", 5) // 100 bytes
	m := NewNameMap()
	adds := []Entry{
		{"cal", "calendar.list_events"},
		{"other", "calendar.list_events"}, // same tool name on another server: server prefix
		{"", "calendar_list_events"},      // a built-in that collides with the first wire name
		{"a", long},
		{"b", long},
		{"", "read_file"},
	}
	seen := map[string]Entry{}
	for _, e := range adds {
		w := m.Add(e.Server, e.Tool)
		if !wirePattern.MatchString(w) {
			t.Errorf("Add(%q, %q) = %q, does not match %s", e.Server, e.Tool, w, wirePattern)
		}
		if prev, dup := seen[w]; dup {
			t.Errorf("wire name %q given to %+v and %+v", w, prev, e)
		}
		seen[w] = e
		if again := m.Add(e.Server, e.Tool); again != w {
			t.Errorf("second Add(%q, %q) = %q, first gave %q", e.Server, e.Tool, again, w)
		}
		if got, ok := m.Lookup(w); !ok || got != e {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", w, got, ok, e)
		}
	}
	if w, _ := m.Wire("read_file"); w != "read_file" {
		t.Errorf("Wire(read_file) = %q; a valid name is sent unchanged", w)
	}
	if w, _ := m.Wire("calendar.list_events"); w != "calendar_list_events" {
		t.Errorf("Wire(calendar.list_events) = %q", w)
	}
	if w, ok := m.Wire("x"); ok || w != "" {
		t.Errorf("Wire of an unknown tool = %q, %v", w, ok)
	}
	if e, _ := m.Lookup("other__calendar_list_events"); e.Server != "other" {
		t.Errorf("second server's tool not under server prefix: %+v", e)
	}
	// A colliding or over-long name is cut and ends in _ and 8 hex digits.
	hashed := regexp.MustCompile(`_[0-9a-f]{8}$`)
	for w, e := range seen {
		if (e.Tool == long || (e.Server == "" && e.Tool == "calendar_list_events")) && !hashed.MatchString(w) {
			t.Errorf("%+v got %q, want a hashed name", e, w)
		}
		if len(w) > MaxNameLen {
			t.Errorf("%q is longer than %d", w, MaxNameLen)
		}
	}
	// Real accepts the real name too (a model that copied it from a description).
	if r, ok := m.Real("read_file"); !ok || r != "read_file" {
		t.Errorf("Real(read_file) = %q, %v", r, ok)
	}
	if _, ok := m.Real("nope"); ok {
		t.Error("Real of an unknown name reported ok")
	}
	// Same Add sequence, same wire names: prompt caches stay warm.
	m2 := NewNameMap()
	for _, e := range adds {
		w := m2.Add(e.Server, e.Tool)
		if seen[w] != e {
			t.Errorf("second map gave %q to %+v", w, e)
		}
	}
	if got := m.Renamed(); got["read_file"] != (Entry{}) || got["calendar_list_events"].Tool != "calendar.list_events" {
		t.Errorf("Renamed = %+v", got)
	}
}

func TestPrepareTools(t *testing.T) {
	tools := []llm.ToolSpec{
		{Name: "read_file", Description: "Read", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		{Name: "bad.scalar", Description: "top level is a string", Parameters: json.RawMessage(`{"type":"string"}`)},
		{Name: "broken", Parameters: json.RawMessage(`{"type":`)},
		{Name: "read_file", Description: "duplicate", Parameters: json.RawMessage(`{}`)},
		{Name: "mcp.search", Description: "Search", Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":["string","null"]}}}`)},
		{Name: "no_params", Description: "none"},
	}
	for _, d := range []Dialect{OpenAI, Anthropic, Gemini} {
		specs, names, warnings := PrepareTools(d, tools)
		var got []string
		for _, s := range specs {
			got = append(got, s.Name)
			if err := checkDialect(d, s.Parameters); err != nil {
				t.Errorf("%s %s: %v", d, s.Name, err)
			}
		}
		if strings.Join(got, ",") != "read_file,mcp_search,no_params" {
			t.Errorf("%s: tools sent %v", d, got)
		}
		if specs[0].Description != "Read" {
			t.Errorf("%s: description changed to %q", d, specs[0].Description)
		}
		if r, _ := names.Real("mcp_search"); r != "mcp.search" {
			t.Errorf("%s: Real(mcp_search) = %q", d, r)
		}
		joined := strings.Join(warnings, "\n")
		for _, want := range []string{
			`tool "bad.scalar": disabled for ` + string(d) + `: schema: $: tool parameters must be an object schema`,
			`tool "broken": disabled for ` + string(d) + `: schema: invalid JSON`,
			`tool "read_file": disabled: another tool has the same name`,
			`tool "mcp.search": sent to ` + string(d) + ` as "mcp_search"`,
		} {
			if !strings.Contains(joined, want) {
				t.Errorf("%s: warnings lack %q:\n%s", d, want, joined)
			}
		}
		if d == Gemini && !strings.Contains(joined, `type list became type "string"`) {
			t.Errorf("gemini: schema rewrite not logged:\n%s", joined)
		}
	}
}

func TestPrepareToolsCapsNotes(t *testing.T) {
	var props []string
	for i := 0; i < 12; i++ {
		props = append(props, `"p`+string(rune('a'+i))+`":{"$ref":"#/$defs/S"}`)
	}
	schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `},"$defs":{"S":{"type":"string"}}}`
	_, _, warnings := PrepareTools(OpenAI, []llm.ToolSpec{{Name: "many", Parameters: json.RawMessage(schema)}})
	if len(warnings) != 1 {
		t.Fatalf("warnings = %q", warnings)
	}
	// The dropped $defs and 12 inlined refs: 13 notes, the first 8 quoted.
	if !strings.HasSuffix(warnings[0], "; and 5 more") || !strings.Contains(warnings[0], "$: dropped $defs") ||
		strings.Count(warnings[0], "inlined $ref") != 7 {
		t.Errorf("warning = %q", warnings[0])
	}
}
