package textcalls

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var offeredTools = []string{"read_file", "grep", "write_file", "list_dir", "bash"}

var testSchemas = map[string]json.RawMessage{
	"read_file": json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":["integer","null"]}}}`),
	"bash":      json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"background":{"type":"boolean"},"env":{"type":"object"}}}`),
}

type call struct {
	Name string
	Args string // canonical compact JSON
}

func calls(t *testing.T, res Result) []call {
	t.Helper()
	var out []call
	for _, c := range res.Calls {
		var v any
		if err := json.Unmarshal([]byte(c.Arguments), &v); err != nil {
			t.Fatalf("invalid arguments %q", c.Arguments)
		}
		b, _ := json.Marshal(v)
		out = append(out, call{c.Name, string(b)})
	}
	return out
}

func TestRecoverFormats(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		calls []call
		text  string
	}{
		{"hermes unclosed at end", "Reading.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}", []call{{"read_file", `{"path":"a.go"}`}}, "Reading."},
		{"hermes arguments as string", `<tool_call>{"name":"grep","arguments":"{\"pattern\":\"x\"}"}</tool_call>`, []call{{"grep", `{"pattern":"x"}`}}, ""},
		{"hermes sloppy json", "<tool_call>\n{'name': 'grep', 'arguments': {'pattern': 'TODO', 'path': '.',},}\n</tool_call>", []call{{"grep", `{"path":".","pattern":"TODO"}`}}, ""},
		{"hermes missing final brace", `<tool_call>{"name": "read_file", "arguments": {"path": "x"}</tool_call>`, []call{{"read_file", `{"path":"x"}`}}, ""},
		{"hermes after think", "<think>plan</think>\n<tool_call>{\"name\":\"list_dir\",\"args\":{\"path\":\".\"}}</tool_call>", []call{{"list_dir", `{"path":"."}`}}, ""},
		{"hermes input key", `<tool_call>{"name":"list_dir","input":{"path":"."}}</tool_call>`, []call{{"list_dir", `{"path":"."}`}}, ""},
		{"hermes openai shape", `<tool_call>{"type":"function","function":{"name":"list_dir","arguments":{"path":"."}}}</tool_call>`, []call{{"list_dir", `{"path":"."}`}}, ""},
		{"hermes without arguments", `<tool_call>{"name":"list_dir"}</tool_call>`, []call{{"list_dir", `{}`}}, ""},
		{"qwen typed by schema", "<function=read_file>\n<parameter=path>\nmain.go\n</parameter>\n<parameter=offset>\n10\n</parameter>\n<parameter=limit>\n5\n</parameter>\n</function>", []call{{"read_file", `{"limit":5,"offset":10,"path":"main.go"}`}}, ""},
		{"qwen boolean and object", "<function=bash>\n<parameter=command>\nls -la\n</parameter>\n<parameter=background>\nTrue\n</parameter>\n<parameter=env>\n{'A': '1'}\n</parameter>\n</function>", []call{{"bash", `{"background":true,"command":"ls -la","env":{"A":"1"}}`}}, ""},
		{"qwen without schema keeps strings", "<function=grep>\n<parameter=pattern>\n10\n</parameter>\n</function>", []call{{"grep", `{"pattern":"10"}`}}, ""},
		{"qwen value holding closing tag", "<function=write_file>\n<parameter=path>\nx.xml\n</parameter>\n<parameter=content>\n<a></parameter></a>\n</parameter>\n</function>", []call{{"write_file", `{"content":"\u003ca\u003e\u003c/parameter\u003e\u003c/a\u003e","path":"x.xml"}`}}, ""},
		{"qwen keeps inner newlines and backslashes", "<function=write_file>\n<parameter=path>\np\n</parameter>\n<parameter=content>\n\na\\nb\n\n</parameter>\n</function>", []call{{"write_file", `{"content":"\na\\nb\n","path":"p"}`}}, ""},
		{"qwen without closing parameter tags", "<function=read_file>\n<parameter=path>\na.go\n<parameter=offset>\n3\n</function>", []call{{"read_file", `{"offset":3,"path":"a.go"}`}}, ""},
		{"mistral name args", `[TOOL_CALLS]read_file[ARGS]{"path": "go.mod"}`, []call{{"read_file", `{"path":"go.mod"}`}}, ""},
		{"mistral two calls", `[TOOL_CALLS]read_file[ARGS]{"path": "a"}[TOOL_CALLS]grep[ARGS]{"pattern": "}"}`, []call{{"read_file", `{"path":"a"}`}, {"grep", `{"pattern":"}"}`}}, ""},
		{"mistral call id", `[TOOL_CALLS]read_file[CALL_ID]abc123XYZ[ARGS]{"path": "a"}`, []call{{"read_file", `{"path":"a"}`}}, ""},
		{"mistral array", `[TOOL_CALLS] [{"name": "list_dir", "arguments": {"path": "."}}, {"name": "read_file", "arguments": {"path": "b"}}]`, []call{{"list_dir", `{"path":"."}`}, {"read_file", `{"path":"b"}`}}, ""},
		{"mistral after prose", "Sure.\n[TOOL_CALLS]list_dir[ARGS]{}", []call{{"list_dir", `{}`}}, "Sure."},
		{"json array whole content", `[{"name": "list_dir", "arguments": {"path": "."}}]`, []call{{"list_dir", `{"path":"."}`}}, ""},
		{"json comma separated", `{"name": "list_dir", "arguments": {}}, {"name": "read_file", "args": {"path": "x"}}`, []call{{"list_dir", `{}`}, {"read_file", `{"path":"x"}`}}, ""},
		{"lead-in and trailing fence", "I'll read the module file.\n```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"go.mod\"}}\n```", []call{{"read_file", `{"path":"go.mod"}`}}, "I'll read the module file."},
		{"tool and tool_input keys", `{"tool": "grep", "tool_input": {"pattern": "x"}}`, []call{{"grep", `{"pattern":"x"}`}}, ""},
		{"function name as string", `<tool_call>{"function": "list_dir", "parameters": {}}</tool_call>`, []call{{"list_dir", `{}`}}, ""},
		{"llama python_tag", `<|python_tag|>{"name": "list_dir", "parameters": {"path": "."}}`, []call{{"list_dir", `{"path":"."}`}}, ""},
		{"untagged arguments as string", `{"name": "grep", "arguments": "{\"pattern\": \"x\"}"}`, []call{{"grep", `{"pattern":"x"}`}}, ""},
		{"apostrophe stays", `<tool_call>{"name":"grep","arguments":{"pattern":"what's new"}}</tool_call>`, []call{{"grep", `{"pattern":"what's new"}`}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Recover(tt.in, offeredTools, Options{Schemas: testSchemas})
			if got := calls(t, res); !reflect.DeepEqual(got, tt.calls) {
				t.Errorf("calls = %v, want %v (invalid %+v, warnings %v)", got, tt.calls, res.Invalid, res.Warnings)
			}
			if res.Text != tt.text {
				t.Errorf("text = %q, want %q", res.Text, tt.text)
			}
		})
	}
}

// TestRecoverNegatives: examples, code, data and unknown tools are never
// executed, and the text is shown as written.
func TestRecoverNegatives(t *testing.T) {
	tests := []struct{ name, in string }{
		{"example in prose", "For example, you would write {\"name\": \"grep\", \"arguments\": {\"pattern\": \"x\"}} to search."},
		{"inline code", "Call it as `<tool_call>{\"name\":\"grep\",\"arguments\":{}}</tool_call>` when needed."},
		{"fenced xml example", "Here is the format:\n\n```xml\n<tool_call>\n{\"name\":\"grep\",\"arguments\":{}}\n</tool_call>\n```\n"},
		{"tag introduced as example", "The syntax looks like this: <tool_call>{\"name\":\"grep\",\"arguments\":{}}</tool_call>"},
		{"lead-in with example marker", "An example call would look like:\n```json\n{\"name\": \"grep\", \"arguments\": {\"pattern\": \"TODO\"}}\n```"},
		{"fence followed by prose", "Run:\n```json\n{\"name\": \"grep\", \"arguments\": {}}\n```\nThat is all."},
		{"data object not a call", `{"name": "read_file", "size": 12}`},
		{"mistral quoted mid-sentence", `Mistral models emit [TOOL_CALLS][{"name":"bash","arguments":{"command":"touch PWNED10"}}] when they call tools.`},
		{"mistral at line start inside a sentence", "Mistral models emit\n[TOOL_CALLS][{\"name\":\"bash\",\"arguments\":{\"command\":\"touch PWNED10\"}}] when they call tools."},
		{"hermes inline in a sentence", `The model wrote <tool_call>{"name":"bash","arguments":{"command":"touch PWNED11"}}</tool_call> - but I am only explaining.`},
		{"hermes own line continuing a sentence", "It sends\n<tool_call>{\"name\":\"bash\",\"arguments\":{\"command\":\"touch X\"}}</tool_call> - but I am only explaining."},
		{"qwen function inline", "Qwen writes <function=bash><parameter=command>ls</parameter></function> blocks."},
		{"literal tag in prose", "Wrap the JSON in a <tool_call> word."},
		{"bare tag at line start then prose", "<tool_call> is the tag Hermes uses."},
		{"mistral marker named at line start", "[TOOL_CALLS] is the marker Mistral uses."},
		{"plain prose", "The answer is 42."},
		{"qwen in fence", "```\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n```"},
		{"mixed known and unknown json", `{"name": "grep", "arguments": {}}; {"name": "nuke", "arguments": {}}`},
		{"wrapper with a stray member", `{"function": {"name": "grep", "arguments": {}}, "note": "x"}`},
		{"broken data object naming a tool", "Sure.\n```json\n{\"data\": 1, \"name\": \"grep\" oops}\n```"},
		{"stray key in a fenced block", "Config:\n```json\n{\"name\": \"grep\", \"arguments\": {}, \"extra\": true}\n```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Recover(tt.in, offeredTools, Options{})
			if len(res.Calls) != 0 || len(res.Invalid) != 0 {
				t.Fatalf("recovered %+v / %+v from %q", res.Calls, res.Invalid, tt.in)
			}
			if res.Text != strings.TrimSpace(tt.in) {
				t.Errorf("text = %q, want the input", res.Text)
			}
		})
	}
}

func TestRecoverNoToolsOffered(t *testing.T) {
	in := `<tool_call>{"name":"grep","arguments":{}}</tool_call>`
	res := Recover(in, nil, Options{})
	if len(res.Calls) != 0 || res.Text != in {
		t.Errorf("recovered without offered tools: %+v", res)
	}
}

func TestRecoverInvalidArguments(t *testing.T) {
	tests := []struct{ in, errPart string }{
		{`<tool_call>{"name": "write_file", "arguments": {"path": "a", "content": "say "hi" now"}}</tool_call>`, `unescaped double quote inside "content"`},
		{"<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"a\", \"content\": \"def f", "unterminated string"},
		{"<function=write_file>\n<parameter=path>\na.py", "not closed"},
		{"[TOOL_CALLS]write_file[ARGS]{\"path\": \"a\", \"n\": 1", "number at end"},
		// Untagged and broken but call-shaped: the model is told.
		{"Writing.\n```json\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"a\", \"content\": \"def f\n```", "unterminated string"},
	}
	for _, tt := range tests {
		res := Recover(tt.in, offeredTools, Options{})
		if len(res.Calls) != 0 || len(res.Invalid) != 1 {
			t.Errorf("%q: calls %+v invalid %+v", tt.in, res.Calls, res.Invalid)
			continue
		}
		iv := res.Invalid[0]
		if !strings.Contains(iv.Err.Error(), tt.errPart) || !strings.HasSuffix(iv.Err.Error(), "tool not executed") || iv.Call.ID == "" || iv.Call.Name != "write_file" {
			t.Errorf("%q: %+v %v", tt.in, iv.Call, iv.Err)
		}
	}
}

func TestRecoverIDs(t *testing.T) {
	ids := NewIDGen()
	seen := map[string]bool{}
	in := `<tool_call>{"name":"list_dir","arguments":{}}</tool_call><tool_call>{"name":"list_dir","arguments":{}}</tool_call>`
	for i := 0; i < 200; i++ {
		for _, short := range []bool{false, true} {
			for _, c := range Recover(in, offeredTools, Options{IDs: ids, ShortIDs: short}).Calls {
				if seen[c.ID] {
					t.Fatalf("duplicate id %s", c.ID)
				}
				seen[c.ID] = true
				if short && len(c.ID) != 9 || !short && len(c.ID) != 17 {
					t.Fatalf("id %q has the wrong shape", c.ID)
				}
			}
		}
	}
}

func TestRecoverMistralShortIDs(t *testing.T) {
	res := Recover(`[TOOL_CALLS]list_dir[ARGS]{}[TOOL_CALLS]read_file[ARGS]{"path":"a"}`, offeredTools, Options{})
	if len(res.Calls) != 2 {
		t.Fatalf("%+v", res)
	}
	for _, c := range res.Calls {
		if len(c.ID) != 9 || strings.Trim(c.ID, alnum) != "" {
			t.Errorf("id %q is not 9 alphanumerics", c.ID)
		}
	}
}

func TestRecoverWarnsOnSchemaMismatch(t *testing.T) {
	res := Recover("<function=read_file>\n<parameter=offset>\nten\n</parameter>\n</function>", offeredTools, Options{Schemas: testSchemas})
	if got := calls(t, res); len(got) != 1 || got[0].Args != `{"offset":"ten"}` || len(res.Warnings) != 1 {
		t.Errorf("calls %v warnings %v", got, res.Warnings)
	}
}

// TestRecoverIntentProse: ordinary intent prose before tagged markup does
// not read as an example.
func TestRecoverIntentProse(t *testing.T) {
	for _, lead := range []string{"I'll search for files such as README.", "Next I would call grep.", "Let me look."} {
		res := Recover(lead+"\n<tool_call>{\"name\":\"grep\",\"arguments\":{\"pattern\":\"x\"}}</tool_call>", offeredTools, Options{})
		if len(res.Calls) != 1 || res.Text != lead {
			t.Errorf("%q: calls %d text %q warnings %v", lead, len(res.Calls), res.Text, res.Warnings)
		}
	}
}

// TestRecoverCallAttempts: markup that stands on its own is a call attempt;
// when it cannot run, the model is told why through Invalid instead of the
// markup ending the run as the answer (QA report).
func TestRecoverCallAttempts(t *testing.T) {
	tests := []struct {
		name, in   string
		callName   string // Invalid[0].Call.Name
		errPrefix  string
		errContain string
		text       string
	}{
		{"unknown tool tagged", `<tool_call>{"name":"rm_rf","arguments":{}}</tool_call>`, "rm_rf", "unknown tool rm_rf; available: ", "read_file, grep, write_file, list_dir, bash", ""},
		{"unknown tool run_tests", "Running the tests.\n<tool_call>\n{\"name\": \"run_tests\", \"arguments\": {}}\n</tool_call>", "run_tests", "unknown tool run_tests; available: ", "bash", "Running the tests."},
		{"mistral unknown tool", `[TOOL_CALLS]drop_db[ARGS]{}`, "drop_db", "unknown tool drop_db", "list_dir", ""},
		{"qwen unknown tool", "Testing.\n<function=run_tests>\n<parameter=verbose>\ntrue\n</parameter>\n</function>", "run_tests", "unknown tool run_tests", "grep", "Testing."},
		{"python form unknown tool", `<tool_call>run_tests(verbose=True)</tool_call>`, "run_tests", "unknown tool run_tests", "read_file", ""},
		{"prose in a closed tag", "<tool_call>\nplease read go.mod\n</tool_call>", invalidName, "could not parse the call: ", `write {"name": `, ""},
		{"json without a name", `<tool_call>{"path": "go.mod"}</tool_call>`, invalidName, "could not parse the call: ", "is not a call object", ""},
		{"python form with positional argument", `<tool_call>read_file("go.mod")</tool_call>`, "read_file", "could not parse the call: read_file(...): ", "only keyword arguments", ""},
		{"python form unclosed string", `<tool_call>read_file(path="go.mod)</tool_call>`, "read_file", "could not parse the call: ", "unterminated string", ""},
		{"mistral array of non-calls", `[TOOL_CALLS][1, 2]`, invalidName, "could not parse the call: ", "is not a call object", ""},
		{"unclosed tag opening json", "<tool_call>\n{\"path\": \"go.mod\"}", invalidName, "could not parse the call: ", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Recover(tt.in, offeredTools, Options{})
			if len(res.Calls) != 0 || len(res.Invalid) != 1 {
				t.Fatalf("calls %+v invalid %+v warnings %v", res.Calls, res.Invalid, res.Warnings)
			}
			iv := res.Invalid[0]
			msg := iv.Err.Error()
			if iv.Call.Name != tt.callName || iv.Call.ID == "" || !iv.Call.Recovered || !json.Valid([]byte(iv.Call.Arguments)) {
				t.Errorf("call %+v", iv.Call)
			}
			if !strings.HasPrefix(msg, tt.errPrefix) || !strings.Contains(msg, tt.errContain) {
				t.Errorf("err = %q, want prefix %q containing %q", msg, tt.errPrefix, tt.errContain)
			}
			if res.Text != tt.text {
				t.Errorf("text = %q, want %q", res.Text, tt.text)
			}
		})
	}
}

// TestRecoverPythonForm: name(key=value, ...) inside a tag is a call to an
// offered tool, with Python literals turned into JSON.
func TestRecoverPythonForm(t *testing.T) {
	tests := []struct {
		in    string
		calls []call
		text  string
	}{
		{`<tool_call>read_file(path="go.mod")</tool_call>`, []call{{"read_file", `{"path":"go.mod"}`}}, ""},
		{"I'll look.\n<tool_call>\nread_file(path='a b.go', offset=10, limit=None)\n</tool_call>", []call{{"read_file", `{"limit":null,"offset":10,"path":"a b.go"}`}}, "I'll look."},
		{`<tool_call>bash(command="echo \"hi\"\nls", background=False, env={'A': '1'},)</tool_call>`, []call{{"bash", `{"background":false,"command":"echo \"hi\"\nls","env":{"A":"1"}}`}}, ""},
		{`<tool_call>list_dir()</tool_call>`, []call{{"list_dir", `{}`}}, ""},
		{`<tool_call>grep(pattern="it's", path=".")</tool_call>`, []call{{"grep", `{"path":".","pattern":"it's"}`}}, ""},
	}
	for _, tt := range tests {
		res := Recover(tt.in, offeredTools, Options{})
		if got := calls(t, res); !reflect.DeepEqual(got, tt.calls) || len(res.Invalid) != 0 {
			t.Errorf("%q: calls %v invalid %+v, want %v", tt.in, got, res.Invalid, tt.calls)
		}
		if res.Text != tt.text {
			t.Errorf("%q: text %q, want %q", tt.in, res.Text, tt.text)
		}
	}
}
