package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// b31Tools reads the MCP tools/list result of case B31 as tool specs.
func b31Tools(t testing.TB) []llm.ToolSpec {
	t.Helper()
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(readFile(t, "testdata/B31/tools_list_result.json"), &res); err != nil {
		t.Fatal(err)
	}
	var specs []llm.ToolSpec
	for _, tl := range res.Tools {
		specs = append(specs, llm.ToolSpec{Name: tl.Name, Description: tl.Description, Parameters: tl.InputSchema})
	}
	return specs
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// assertJSONFile compares got, indented by two spaces, with the file's
// bytes (its final newline aside), and on mismatch also reports whether
// the values differ at all.
func assertJSONFile(t *testing.T, got []byte, file string) {
	t.Helper()
	want := bytes.TrimRight(readFile(t, file), "\n")
	var ind bytes.Buffer
	if err := json.Indent(&ind, got, "", "  "); err != nil {
		t.Fatalf("%s: output is not JSON: %v\n%s", file, err, got)
	}
	if !bytes.Equal(ind.Bytes(), want) {
		var a, b any
		_ = json.Unmarshal(got, &a)
		_ = json.Unmarshal(want, &b)
		ga, _ := json.Marshal(a)
		wb, _ := json.Marshal(b)
		t.Errorf("%s mismatch (same value ignoring key order: %v)\ngot:\n%s\nwant:\n%s", file, bytes.Equal(ga, wb), ind.Bytes(), want)
	}
}

// TestPrepareToolsOpenAIMatchesTheExpectedWireTool: the MCP tool's
// schema ($defs/$ref, anyOf-null, dotted name) becomes exactly
// expected_openai_tool.json and the wire name maps back to the real one.
// Case B31 (testdata/B31; openai/codex#8174, mark3labs/mcphost#35).
func TestPrepareToolsOpenAIMatchesTheExpectedWireTool(t *testing.T) {
	specs, names, _ := PrepareTools(OpenAI, b31Tools(t))
	if len(specs) != 1 {
		t.Fatalf("got %d tools, want 1", len(specs))
	}
	type fn struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	wire, err := json.Marshal(struct {
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}{"function", fn{specs[0].Name, specs[0].Description, specs[0].Parameters}})
	if err != nil {
		t.Fatal(err)
	}
	assertJSONFile(t, wire, "testdata/B31/expected_openai_tool.json")
	if real, ok := names.Real(specs[0].Name); !ok || real != "calendar.list_events" {
		t.Errorf("Real(%q) = %q, %v; want calendar.list_events", specs[0].Name, real, ok)
	}
}

// TestPrepareToolsGeminiMatchesTheExpectedFunctionDeclaration: the same
// tool becomes exactly expected_gemini_function_declaration.json.
// Case B31 (testdata/B31; google-gemini/gemini-cli#13326).
func TestPrepareToolsGeminiMatchesTheExpectedFunctionDeclaration(t *testing.T) {
	specs, _, _ := PrepareTools(Gemini, b31Tools(t))
	if len(specs) != 1 {
		t.Fatalf("got %d tools, want 1", len(specs))
	}
	wire, err := json.Marshal(struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}{specs[0].Name, specs[0].Description, specs[0].Parameters})
	if err != nil {
		t.Fatal(err)
	}
	assertJSONFile(t, wire, "testdata/B31/expected_gemini_function_declaration.json")
}

// TestNameMapOfADottedMCPToolMatchesTheExpectedMap: the reverse map from
// wire names to server and tool is exactly expected_name_map.json.
// Case B31 (testdata/B31; taylorwilsdon/google_workspace_mcp#1099).
func TestNameMapOfADottedMCPToolMatchesTheExpectedMap(t *testing.T) {
	m := NewNameMap()
	for _, s := range b31Tools(t) {
		m.Add("<server name>", s.Name)
	}
	got, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	assertJSONFile(t, got, "testdata/B31/expected_name_map.json")
	e, ok := m.Lookup("calendar_list_events")
	if !ok || e != (Entry{Server: "<server name>", Tool: "calendar.list_events"}) {
		t.Errorf("Lookup = %+v, %v", e, ok)
	}
}

// TestPrepareToolsObeysEveryDialectsRulesAndLogsTheRewrite checks the
// provider rules of provider_errors.txt against every dialect's output:
// names match the strictest pattern, no $ref is left, arrays have items,
// Gemini sees no additionalProperties.
// Case B31 (testdata/B31/provider_errors.txt; promptfoo/promptfoo#6902).
func TestPrepareToolsObeysEveryDialectsRulesAndLogsTheRewrite(t *testing.T) {
	namePat := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	for _, d := range []Dialect{OpenAI, Anthropic, Gemini} {
		specs, _, warnings := PrepareTools(d, b31Tools(t))
		if len(specs) != 1 {
			t.Fatalf("%s: got %d tools, want 1 (warnings %q)", d, len(specs), warnings)
		}
		if !namePat.MatchString(specs[0].Name) {
			t.Errorf("%s: name %q does not match %s", d, specs[0].Name, namePat)
		}
		if err := checkDialect(d, specs[0].Parameters); err != nil {
			t.Errorf("%s: %v\n%s", d, err, specs[0].Parameters)
		}
		// The rewrite is logged: the rename and the schema changes.
		joined := strings.Join(warnings, "\n")
		for _, want := range []string{`sent to ` + string(d) + ` as "calendar_list_events"`, `inlined $ref "#/$defs/Range"`} {
			if !strings.Contains(joined, want) {
				t.Errorf("%s: warnings lack %q:\n%s", d, want, joined)
			}
		}
	}
}
