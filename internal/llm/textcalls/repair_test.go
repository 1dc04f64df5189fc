package textcalls

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRepairJSON(t *testing.T) {
	tests := []struct {
		in, want string
		kind     ArgErrorKind // "" when it must succeed
	}{
		{`{"a": 1}`, `{"a": 1}`, ""}, // valid: unchanged bytes
		{`  {"a":"it's"}  `, `{"a":"it's"}`, ""},
		{`{"a": [1, 2,], }`, `{"a":[1,2]}`, ""},
		{`{'a': 'say "hi"', 'b': True, 'c': None, 'd': False}`, `{"a":"say \"hi\"","b":true,"c":null,"d":false}`, ""},
		{`{'it\'s': 'a\\b'}`, `{"it's":"a\\b"}`, ""},
		{`{a: 1, b_2: "x"}`, `{"a":1,"b_2":"x"}`, ""},
		{`{"a": "x\'y"}`, `{"a":"x'y"}`, ""},
		{"{\"a\": \"line\nbreak\"}", `{"a":"line\nbreak"}`, ""},
		{`{"a": "\ud83d\ude00"`, `{"a":"😀"}`, ""},
		{`{"a": {"b": [1, {"c": "d"}`, `{"a":{"b":[1,{"c":"d"}]}}`, ""},
		{`{"a": true`, `{"a":true}`, ""},
		{`{"a": "x",`, `{"a":"x"}`, ""},
		{`["a",]`, `["a"]`, ""},
		{"{\"a\": 1, // one\n /* two */ \"b\": \"//not a comment\"}", `{"a":1,"b":"//not a comment"}`, ""},
		{`{"a": 1 /* open`, "", ErrInvalid},
		{`{"a": "x" "y"}`, "", ErrUnescapedQuote},
		{`{"a": "unterminated`, "", ErrTruncated},
		{`{"a": `, "", ErrTruncated},
		{`{"a"`, "", ErrTruncated},
		{`{"a": 12`, "", ErrTruncated},
		{`{"a": tr`, "", ErrTruncated},
		{`{`, "", ErrTruncated},
		{``, "", ErrTruncated},
		{`{"a": 1} trailing`, "", ErrInvalid},
		{`{"a": NaN}`, "", ErrInvalid},
		{`{"a" 1}`, "", ErrInvalid},
	}
	for _, tt := range tests {
		got, err := RepairJSON(tt.in)
		if tt.kind == "" {
			if err != nil || got != tt.want {
				t.Errorf("RepairJSON(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			continue
		}
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Kind != tt.kind {
			t.Errorf("RepairJSON(%q) = %q, %v; want error kind %s", tt.in, got, err, tt.kind)
		}
	}
}

func TestRepairArguments(t *testing.T) {
	tests := []struct{ in, want, errPart string }{
		{"", "{}", ""},
		{"  ", "{}", ""},
		{`"{\"path\": \"a\"}"`, `{"path": "a"}`, ""},
		{`""`, "{}", ""},
		{`[1]`, "", "got an array"},
		{`"text"`, "", "not valid JSON"},
		{`42`, "", "got a number"},
	}
	for _, tt := range tests {
		got, err := RepairArguments(tt.in)
		if tt.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Errorf("RepairArguments(%q) = %q, %v; want error with %q", tt.in, got, err, tt.errPart)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("RepairArguments(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// fuzzSeeds returns every case input file as a seed.
func fuzzSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "B0*", "*.txt"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"[TOOL_CALLS]read_file[ARGS]{\"path\": \"a\"}",
		"<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>",
		"{'a': [1, 2,], 'b': None,}",
		"<think>x</think>{\"name\":\"grep\",\"arguments\":{}}",
		"Mistral models emit [TOOL_CALLS][{\"name\":\"bash\",\"arguments\":{\"command\":\"touch PWNED10\"}}] when they call tools.",
		"See <tool_call>{\"name\":\"bash\",\"arguments\":{}}</tool_call> - but I am only explaining.",
		"<tool_call>read_file(path=\"go.mod\", offset=1, x=None)</tool_call>",
		"<tool_call>{\"name\": \"run_tests\", \"arguments\": {}}</tool_call>",
		"Note:\n<tool_call> word.",
		// Tool names as wire names or near misses.
		"<tool_call>{\"name\": \"Read-File\", \"arguments\": {\"path\": \"a\"}}</tool_call>",
		"<tool_call>{\"name\": \"functions.read_file:0\", \"arguments\": {}}</tool_call>",
		"<tool_call>default_api.list_dir(path=\".\")</tool_call>",
		"[TOOL_CALLS]BASH[ARGS]{\"command\": \"ls\"}",
		"{\"name\": \"tools/grep\", \"arguments\": {\"pattern\": \"x\"}}",
		"<function=Write-File>\n<parameter=path>\na\n</parameter>\n</function>",
		"<tool_call>{\"name\": \"functions.\", \"arguments\": {}}</tool_call>",
		// Fenced blocks after prose: calls, data, code.
		"Let me check.\n```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"go.mod\"}}\n```",
		"Config:\n```json\n{\"compilerOptions\": {\"strict\": true}}\n```",
		"Here:\n```go\nfunc main() {}\n```\n",
		"Two:\n```\n[{\"name\": \"grep\", \"arguments\": {}}, {\"name\": \"bash\", \"arguments\": {}}]\n```",
		"Sure.\n```json\n{\"data\": 1, \"name\": \"grep\" oops}\n```",
		"{\"type\": \"function\", \"function\": {\"name\": \"grep\", \"arguments\": {}}, \"id\": \"1\"}",
	} {
		f.Add(s)
	}
}

// FuzzStreamFilter: streamed in pieces of any size, the text shown is
// Recover's Text (StreamFilter's contract), and never more than was fed.
func FuzzStreamFilter(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.Contains(s, "think>") {
			return // see FuzzRecover: an orphan </think> is a known difference
		}
		want := tidy(Recover(s, offeredTools, Options{}).Text)
		for _, size := range []int{1, 2, 3, 11} {
			sf := NewStreamFilter(StreamOptions{Offered: offeredTools})
			var shown strings.Builder
			for i := 0; i < len(s); i += size {
				shown.WriteString(sf.Feed(s[i:min(i+size, len(s))]).Text)
			}
			shown.WriteString(sf.Flush().Text)
			if got := tidy(shown.String()); got != want {
				t.Fatalf("pieces of %d: stream showed %q, Recover text %q", size, shown.String(), want)
			}
			if shown.Len() > len(s) {
				t.Fatalf("stream showed more than it got: %q", shown.String())
			}
		}
	})
}

func FuzzRepairJSON(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		out, err := RepairJSON(s)
		if err != nil {
			return
		}
		if !json.Valid([]byte(out)) {
			t.Fatalf("RepairJSON(%q) = %q: not valid JSON", s, out)
		}
		if json.Valid([]byte(strings.TrimSpace(s))) && out != strings.TrimSpace(s) {
			t.Fatalf("valid JSON changed: %q -> %q", s, out)
		}
		// Repair is idempotent: repaired text is valid and stays as is.
		if again, err := RepairJSON(out); err != nil || again != out {
			t.Fatalf("not idempotent: %q -> %q, %v", out, again, err)
		}
	})
}

func FuzzRecover(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		res := Recover(s, offeredTools, Options{Schemas: testSchemas})
		for _, c := range res.Calls {
			if !json.Valid([]byte(c.Arguments)) || !strings.HasPrefix(c.Arguments, "{") {
				t.Fatalf("call %s has arguments %q", c.Name, c.Arguments)
			}
			if c.ID == "" || !c.Recovered {
				t.Fatalf("call without id or Recovered: %+v", c)
			}
		}
		// Invalid calls may name anything (they are answered, never
		// run); runnable calls name offered tools only.
		var names []string
		for _, c := range res.Calls {
			names = append(names, c.Name)
		}
		for _, c := range names {
			found := false
			for _, n := range offeredTools {
				found = found || n == c
			}
			if !found {
				t.Fatalf("recovered a tool that was not offered: %q", c)
			}
		}
		for _, c := range res.Invalid {
			if c.Call.ID == "" || !c.Call.Recovered || c.Err == nil {
				t.Fatalf("invalid call without id, Recovered or error: %+v", c)
			}
		}
		if len(res.Text) > len(s) {
			t.Fatalf("text grew: %q -> %q", s, res.Text)
		}
		// Streaming the same text never panics and, without markup, shows
		// valid UTF-8 when the input is.
		sf := NewStreamFilter(StreamOptions{})
		var shown strings.Builder
		for i := 0; i < len(s); i += 7 {
			shown.WriteString(sf.Feed(s[i:min(i+7, len(s))]).Text)
		}
		shown.WriteString(sf.Flush().Text)
		// With the offered tools it shows exactly Recover's Text (call
		// markup; an orphan "</think>" mid-stream is reasoning only for
		// Recover, a known difference outside this check).
		agree := NewStreamFilter(StreamOptions{Offered: offeredTools})
		var all strings.Builder
		for i := 0; i < len(s); i += 5 {
			all.WriteString(agree.Feed(s[i:min(i+5, len(s))]).Text)
		}
		all.WriteString(agree.Flush().Text)
		if want := Recover(s, offeredTools, Options{}).Text; utf8.ValidString(s) && !strings.Contains(s, "think>") && tidy(all.String()) != tidy(want) {
			t.Fatalf("stream showed %q, Recover text %q", all.String(), want)
		}
		if shown.Len() > len(s) {
			t.Fatalf("stream showed more than it got: %q", shown.String())
		}
		_ = utf8.ValidString(shown.String())
	})
}
