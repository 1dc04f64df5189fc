package textcalls

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
)

// longTool is longer than schema.MaxNameLen, so providers send it under a
// cut name ending in a hash.
var longTool = "mcp.workspace_tools/" + strings.Repeat("summarize_", 6) + "document"

// namedTools are offered tools whose real names are not wire-safe.
var namedTools = []string{"read_file", "grep", "calendar.list_events", longTool}

// wireNames returns the names the providers send the tools under, from
// the real mapping (schema.PrepareTools), not a copy of its rules.
func wireNames(t *testing.T, names []string) map[string]string {
	t.Helper()
	specs := make([]llm.ToolSpec, len(names))
	for i, n := range names {
		specs[i] = llm.ToolSpec{Name: n, Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}
	}
	out, _, _ := schema.PrepareTools(schema.OpenAI, specs)
	if len(out) != len(names) {
		t.Fatalf("PrepareTools kept %d of %d tools", len(out), len(names))
	}
	wire := map[string]string{}
	for i, s := range out {
		wire[names[i]] = s.Name
	}
	return wire
}

// TestRecoverToolNames: a text call that writes the wire name or a near
// miss of exactly one offered tool is that tool's call, run under its
// offered name; a name that fits none or two is answered as unknown.
func TestRecoverToolNames(t *testing.T) {
	wire := wireNames(t, namedTools)
	if w := wire[longTool]; len(w) > schema.MaxNameLen || w == longTool {
		t.Fatalf("long tool wire name %q: want a cut name", w)
	}
	hermes := func(name string) string {
		return "<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": {\"path\": \"go.mod\"}}\n</tool_call>"
	}
	ambiguous := []string{"read_file", "ReadFile", "grep"}
	nsClash := []string{"read_file", "functions_read_file"}
	tests := []struct {
		name    string
		offered []string
		in      string
		want    string // offered name of the one recovered call; "" when none runs
		unknown string // the *CallError message of the one Invalid call
		warn    string // a warning that must be present
	}{
		{"exact", namedTools, hermes("read_file"), "read_file", "", ""},
		{"case", namedTools, hermes("Read_File"), "read_file", "", `text names tool "Read_File"; read as offered tool "read_file"`},
		{"hyphen", namedTools, hermes("read-file"), "read_file", "", "read as offered tool"},
		{"camel case", namedTools, hermes("readFile"), "read_file", "", ""},
		{"upper no separator", namedTools, hermes("READFILE"), "read_file", "", ""},
		{"functions namespace", namedTools, hermes("functions.read_file"), "read_file", "", ""},
		{"default_api namespace", namedTools, hermes("default_api.read_file"), "read_file", "", ""},
		{"namespace with call index", namedTools, hermes("functions.read_file:0"), "read_file", "", ""},
		{"namespace with colon", namedTools, hermes("Functions:Read-File"), "read_file", "", ""},
		{"wire name of dotted tool", namedTools, hermes(wire["calendar.list_events"]), "calendar.list_events", "", ""},
		{"real dotted name", namedTools, hermes("calendar.list_events"), "calendar.list_events", "", ""},
		{"slash for dot", namedTools, hermes("calendar/list-events"), "calendar.list_events", "", ""},
		{"hashed wire name", namedTools, hermes(wire[longTool]), longTool, "", ""},
		{"mistral near miss", namedTools, `[TOOL_CALLS]Read-File[ARGS]{"path": "go.mod"}`, "read_file", "", ""},
		{"python form namespace", namedTools, `<tool_call>default_api.read_file(path="go.mod")</tool_call>`, "read_file", "", ""},
		{"untagged json near miss", namedTools, `{"name": "functions.read_file", "arguments": {"path": "go.mod"}}`, "read_file", "", ""},
		{"fenced json wire name", namedTools, "Checking the calendar.\n```json\n{\"name\": \"" + wire["calendar.list_events"] + "\", \"arguments\": {\"path\": \"go.mod\"}}\n```", "calendar.list_events", "", ""},
		{"exact wins over loose", ambiguous, hermes("ReadFile"), "ReadFile", "", ""},
		{"ambiguous near miss", ambiguous, hermes("read-file"), "", "unknown tool read-file: it could mean ReadFile or read_file; call one by its exact name; available: read_file, ReadFile, grep", `it could mean ReadFile or read_file`},
		{"ambiguous namespace", nsClash, hermes("functions.read_file"), "", "unknown tool functions.read_file: it could mean functions_read_file or read_file; call one by its exact name; available: read_file, functions_read_file", ""},
		{"unknown namespace not stripped", namedTools, hermes("github.read_file"), "", "unknown tool github.read_file; available: read_file, grep, calendar.list_events, " + longTool, ""},
		{"unknown name", namedTools, hermes("delete_everything"), "", "unknown tool delete_everything; available: read_file, grep, calendar.list_events, " + longTool, ""},
		{"prefix is not a near miss", namedTools, hermes("read"), "", "unknown tool read; available: read_file, grep, calendar.list_events, " + longTool, ""},
		{"namespace alone", namedTools, hermes("functions."), "", "unknown tool functions.; available: read_file, grep, calendar.list_events, " + longTool, ""},
		{"untagged unknown stays text", namedTools, `{"name": "read_files", "arguments": {"path": "go.mod"}}`, "", "", `text names tool "read_files", which was not offered; left as text`},
		{"untagged ambiguous stays text", ambiguous, `{"name": "READ_FILE", "arguments": {"path": "go.mod"}}`, "", "", "which was not offered (it could mean ReadFile or read_file); left as text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Recover(tt.in, tt.offered, Options{})
			var got []string
			for _, c := range res.Calls {
				got = append(got, c.Name)
				if c.Arguments != `{"path": "go.mod"}` && c.Arguments != `{"path":"go.mod"}` {
					t.Errorf("arguments %q", c.Arguments)
				}
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("calls %v, want %v (invalid %+v, warnings %q)", got, want, res.Invalid, res.Warnings)
			}
			switch {
			case tt.unknown == "" && len(res.Invalid) != 0:
				t.Fatalf("invalid %+v", res.Invalid)
			case tt.unknown != "":
				if len(res.Invalid) != 1 {
					t.Fatalf("invalid %+v, want one", res.Invalid)
				}
				var ce *CallError
				if err := res.Invalid[0].Err; !errors.As(err, &ce) || !ce.Unknown || err.Error() != tt.unknown {
					t.Fatalf("err %v, want %q", err, tt.unknown)
				}
			}
			if tt.warn != "" && !strings.Contains(strings.Join(res.Warnings, "\n"), tt.warn) {
				t.Errorf("warnings %q lack %q", res.Warnings, tt.warn)
			}
		})
	}
}

// TestRecoverNearMissTypedBySchema: a Qwen3-Coder block naming a near miss
// is typed by the offered tool's schema (B02: non-string parameters).
func TestRecoverNearMissTypedBySchema(t *testing.T) {
	in := "<function=Read-File>\n<parameter=path>\ngo.mod\n</parameter>\n<parameter=offset>\n3\n</parameter>\n</function>"
	res := Recover(in, offeredTools, Options{Schemas: testSchemas})
	if got := calls(t, res); !reflect.DeepEqual(got, []call{{"read_file", `{"offset":3,"path":"go.mod"}`}}) {
		t.Fatalf("calls %v invalid %+v", got, res.Invalid)
	}
}

func TestToolNamesResolve(t *testing.T) {
	names := newToolNames([]string{"read_file", "Read-File", "grep", "x.y"}, false)
	tests := []struct {
		in        string
		want      string
		ambiguous []string
	}{
		{"read_file", "read_file", nil},
		{"Read-File", "Read-File", nil},
		{"READ_FILE", "", []string{"Read-File", "read_file"}},
		{"Grep", "grep", nil},
		{"tools/grep", "grep", nil},
		{"tool.GREP", "grep", nil},
		{"x_y", "x.y", nil},
		{"X-Y", "x.y", nil},
		{"functions.x.y", "x.y", nil},
		{"", "", nil},
		{"___", "", nil},
		{"grepp", "", nil},
	}
	for _, tt := range tests {
		got, amb, ok := names.resolve(tt.in)
		if got != tt.want || ok != (tt.want != "") || !reflect.DeepEqual(amb, tt.ambiguous) {
			t.Errorf("resolve(%q) = %q %v %v, want %q %v", tt.in, got, amb, ok, tt.want, tt.ambiguous)
		}
	}
}
