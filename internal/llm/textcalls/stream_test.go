package textcalls

import (
	"strings"
	"testing"
)

// feedAll streams s split at every cut into two and three pieces and
// returns what was shown for each split.
func streamSplits(s string, opts StreamOptions) [][2]string {
	var out [][2]string
	for a := 0; a <= len(s); a++ {
		for _, b := range []int{a, (a + len(s)) / 2} {
			f := NewStreamFilter(opts)
			var text, reason strings.Builder
			for _, d := range []Delta{f.Feed(s[:a]), f.Feed(s[a:b]), f.Feed(s[b:]), f.Flush()} {
				text.WriteString(d.Text)
				reason.WriteString(d.Reasoning)
			}
			out = append(out, [2]string{text.String(), reason.String()})
		}
	}
	return out
}

func TestStreamFilter(t *testing.T) {
	tests := []struct {
		name, in   string
		opts       StreamOptions
		text, reas string
		never      []string
	}{
		{"hermes held", "Let me look.\n<tool_call>\n{\"name\":\"grep\",\"arguments\":{}}\n</tool_call>", StreamOptions{}, "Let me look.\n", "", []string{"<tool", "grep"}},
		{"mistral held", "Ok.\n[TOOL_CALLS]read_file[ARGS]{\"path\":\"a\"}", StreamOptions{}, "Ok.\n", "", []string{"[TOOL", "read_file"}},
		{"mistral mid-sentence shown", "Ok [TOOL_CALLS]read_file[ARGS]{\"path\":\"a\"}", StreamOptions{}, "Ok [TOOL_CALLS]read_file[ARGS]{\"path\":\"a\"}", "", nil},
		{"literal tag in prose shown", "Wrap it in a <tool_call> word.", StreamOptions{}, "Wrap it in a <tool_call> word.", "", nil},
		{"held tag that is prose released", "Note:\n<tool_call> is the tag.", StreamOptions{}, "Note:\n<tool_call> is the tag.", "", nil},
		{"prose after a call released", "Look.\n<tool_call>{\"name\":\"grep\",\"arguments\":{}}</tool_call>\nThen I summarize.", StreamOptions{}, "Look.\n\nThen I summarize.", "", []string{"<tool", "grep"}},
		{"qwen held", "Writing.\n<function=write_file>\n<parameter=path>\na\n</parameter>\n</function>", StreamOptions{}, "Writing.\n", "", []string{"<func", "<parameter"}},
		{"think then text", "<think>hmm</think>Answer", StreamOptions{}, "Answer", "hmm", []string{"<think", "</th"}},
		{"prefilled", "plan it</think>Done.", StreamOptions{PrefilledThink: true}, "Done.", "plan it", []string{"</"}},
		{"partial tag released at end", "a < b and [TOOL", StreamOptions{}, "a < b and [TOOL", "", nil},
		{"tags in inline code shown", "use `<tool_call>` tags", StreamOptions{}, "use `<tool_call>` tags", "", nil},
		{"tags in fence shown", "Example:\n```\n<function=x>\n```\n", StreamOptions{}, "Example:\n```\n<function=x>\n```\n", "", nil},
		{"json call held", "{\"name\": \"grep\", \"arguments\": {}}", StreamOptions{}, "", "", []string{"{"}},
		{"long json data released", "{\"data\": \"" + strings.Repeat("x", 300) + "\"}", StreamOptions{}, "{\"data\": \"" + strings.Repeat("x", 300) + "\"}", "", nil},
		{"python tag held", "<|python_tag|>{\"name\": \"grep\", \"parameters\": {}}", StreamOptions{}, "", "", []string{"<|", "grep"}},
		{"plain text", "Hello <b>world</b> [1]", StreamOptions{}, "Hello <b>world</b> [1]", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, got := range streamSplits(tt.in, tt.opts) {
				if got[0] != tt.text || got[1] != tt.reas {
					t.Fatalf("shown text %q reasoning %q; want %q %q", got[0], got[1], tt.text, tt.reas)
				}
				for _, n := range tt.never {
					if strings.Contains(got[0], n) {
						t.Fatalf("showed %q", n)
					}
				}
			}
		})
	}
}

func BenchmarkStreamFilterHeldJSON(b *testing.B) {
	chunk := `"name": "write_file", "arguments": {"content": "` + strings.Repeat("x", 20) + `"}, `
	for b.Loop() {
		f := NewStreamFilter(StreamOptions{})
		f.Feed("{")
		for i := 0; i < 20000; i++ {
			f.Feed(chunk)
		}
		f.Flush()
	}
}

// TestStreamAgreesWithRecover: over a whole message, the text a
// StreamFilter shows is Recover's Text (QA report: prose after a literal
// <tool_call> was held forever), whether or not it knows the offered tools.
func TestStreamAgreesWithRecover(t *testing.T) {
	inputs := []string{
		"Mistral models emit [TOOL_CALLS][{\"name\":\"bash\",\"arguments\":{\"command\":\"touch PWNED10\"}}] when they call tools.",
		"Mistral models emit\n[TOOL_CALLS][{\"name\":\"bash\",\"arguments\":{\"command\":\"touch PWNED10\"}}] when they call tools.",
		"The model wrote <tool_call>{\"name\":\"bash\",\"arguments\":{\"command\":\"touch X\"}}</tool_call> - but I am only explaining.",
		"It sends\n<tool_call>{\"name\":\"bash\",\"arguments\":{}}</tool_call> - but I am only explaining.",
		"Wrap the JSON in a <tool_call> word.",
		"<tool_call> is the tag Hermes uses, see <tool_call> word.",
		"Checking.\n<tool_call>read_file(path=\"go.mod\")</tool_call>",
		"Running.\n<tool_call>{\"name\": \"run_tests\", \"arguments\": {}}</tool_call>\nI will report back.",
		"Let me look.\n\n\n<tool_call>{\"name\":\"grep\",\"arguments\":{}}</tool_call>",
		"The syntax looks like this:\n<tool_call>{\"name\":\"grep\",\"arguments\":{}}</tool_call>",
		"{\"name\": \"grep\", \"size\": 3}",
		"<think>plan</think>[TOOL_CALLS]list_dir[ARGS]{}",
		"Done.\n<think>late</think> more",
		// Untagged calls in fences and bare JSON.
		"Let me check.\n```json\n{\"name\": \"grep\", \"arguments\": {\"pattern\": \"x\"}}\n```",
		"Let me check.\n\n```json\n{\"name\": \"grep\", \"arguments\": {}}\n```\n",
		"Config:\n```json\n{\"compilerOptions\": {}}\n```",
		"```\n{\"name\": \"grep\", \"arguments\": {}}\n```\nDone.",
		"Run:\n```\nls\n```",
		"Here:\n```go\nx := 1\n```",
		"Two:\n```json\n[{\"name\": \"grep\", \"arguments\": {}}, {\"name\": \"Read-File\", \"arguments\": {}}]\n```",
		"{\"name\": \"grep\", \"arguments\": {}, \"extra\": 1}",
		"{\"type\": \"function\", \"function\": {\"name\": \"grep\", \"arguments\": {}}}",
		"{\"function\": {\"name\": \"grep\", \"arguments\": {}}, \"note\": \"x\"}",
		"{\"name\": \"grep\", \"arguments\": {}};\n{\"name\": \"bash\", \"arguments\": {}}\u00a0",
		"Sure.\n```json\n{\"name\": \"grep\", \"arguments\": {\"a\": \"x\"\n```",
		"Sure.\n```json\n{\"data\": 1, \"name\": \"grep\" oops}\n```",
		"Sure.\n```json\n{\"name\": \"grep\", // comment\n \"x\": 1 oops}\n```",
		"\u00a0```json\n{\"name\": \"grep\", \"arguments\": {}}\n```",
		"Calling:\n```json\n{\"name\": \"grep\", \"arguments\": {}}\n```\n<tool_call>{\"name\":\"bash\",\"arguments\":{}}</tool_call>",
		"Calling:\n```json\n{\"name\": \"grep\", \"arguments\": {\"p\": \"```\"}}\n```",
	}
	// Untagged JSON naming a tool not offered is text; only a filter that
	// knows the offered tools can tell while streaming.
	offeredOnly := []string{
		"Sure:\n```json\n{\"name\": \"drop_db\", \"arguments\": {}}\n```",
		"{\"name\": \"drop_db\", \"arguments\": {}}",
	}
	for i, in := range append(inputs, offeredOnly...) {
		want := Recover(in, offeredTools, Options{}).Text
		optsList := []StreamOptions{{Offered: offeredTools}, {}}
		if i >= len(inputs) {
			optsList = optsList[:1]
		}
		for _, opts := range optsList {
			for _, got := range streamSplits(in, opts) {
				if tidy(got[0]) != want {
					t.Fatalf("%q (offered %v): stream showed %q, Recover text %q", in, opts.Offered != nil, got[0], want)
				}
			}
		}
	}
}

// TestStreamFilterUntaggedHold: a fenced block that may hold calls is held
// while it streams and released the moment its bytes show it is not calls;
// other blocks stream through. Each step feeds a piece and gives all the
// text shown so far; the last shown is after Flush and is Recover's Text.
func TestStreamFilterUntaggedHold(t *testing.T) {
	call := `{"name": "read_file", "arguments": {"path": "go.mod"}}`
	type step struct{ feed, shown string }
	tests := []struct {
		name    string
		offered []string
		steps   []step
	}{
		{"fenced call after prose held", offeredTools, []step{
			{"Let me check the module.\n", "Let me check the module.\n"},
			{"```json\n{\"name\": \"read_", "Let me check the module.\n"},
			{"file\", \"arguments\": {\"path\": \"go.mod\"}}\n", "Let me check the module.\n"},
			{"```", "Let me check the module.\n"},
			{"\n", "Let me check the module.\n"},
			{"", "Let me check the module.\n"},
		}},
		{"fenced call split inside the fence markers", nil, []step{
			{"Checking.\n`", "Checking.\n"},
			{"``", "Checking.\n"},
			{"json", "Checking.\n"},
			{"\n" + call + "\n`", "Checking.\n"},
			{"``", "Checking.\n"},
			{"", "Checking.\n"},
		}},
		{"fenced call opening the message held", nil, []step{
			{"```tool_call\n" + call, ""},
			{"\n```", ""},
			{"", ""},
		}},
		{"near-miss name held", offeredTools, []step{
			{"Reading.\n```json\n{\"name\": \"functions.read_file\", \"arguments\": {}}\n```", "Reading.\n"},
			{"", "Reading.\n"},
		}},
		{"go block streams through", offeredTools, []step{
			{"Here it is:\n```go\nfunc main() {", "Here it is:\n```go\nfunc main() {"},
			{"}\n```", "Here it is:\n```go\nfunc main() {}\n"}, // a backtick run may go on
			{"", "Here it is:\n```go\nfunc main() {}\n```"},
		}},
		{"bare fence of code released at its first byte", offeredTools, []step{
			{"Run:\n```\n", "Run:\n"},
			{"  \n", "Run:\n"},
			{"ls -la", "Run:\n```\n  \nls -la"},
			{"\n```", "Run:\n```\n  \nls -la\n"},
			{"", "Run:\n```\n  \nls -la\n```"},
		}},
		{"json data released at its first stray key", offeredTools, []step{
			{"Config:\n```json\n{\n  \"compil", "Config:\n"},
			{"erOptions\": {", "Config:\n```json\n{\n  \"compilerOptions\": {"},
			{"\"strict\": true}}\n```", "Config:\n```json\n{\n  \"compilerOptions\": {\"strict\": true}}\n"},
			{"", "Config:\n```json\n{\n  \"compilerOptions\": {\"strict\": true}}\n```"},
		}},
		{"schema with type key released at properties", offeredTools, []step{
			{"Schema:\n```json\n{\"type\": \"object\", ", "Schema:\n"},
			{"\"properties\": {}}", "Schema:\n```json\n{\"type\": \"object\", \"properties\": {}}"},
		}},
		{"call to a tool not offered released when complete", offeredTools, []step{
			{"Deleting.\n```json\n{\"name\": \"drop_db\", \"arguments\": {}", "Deleting.\n"},
			{"}", "Deleting.\n```json\n{\"name\": \"drop_db\", \"arguments\": {}}"},
			{"\n```", "Deleting.\n```json\n{\"name\": \"drop_db\", \"arguments\": {}}\n"},
			{"", "Deleting.\n```json\n{\"name\": \"drop_db\", \"arguments\": {}}\n```"},
		}},
		{"fenced call followed by prose released", nil, []step{
			{"Calling:\n```json\n" + call + "\n```\n", "Calling:\n"},
			{"That is the format.", "Calling:\n```json\n" + call + "\n```\nThat is the format."},
			{"", "Calling:\n```json\n" + call + "\n```\nThat is the format."},
		}},
		{"example lead not held", nil, []step{
			{"For example:\n```json\n{\"name\"", "For example:\n```json\n{\"name\""},
		}},
		{"two paragraphs of lead not held", nil, []step{
			{"First.\n\nSecond.\n```json\n{\"name\"", "First.\n\nSecond.\n```json\n{\"name\""},
		}},
		{"second fence not held", nil, []step{
			{"```go\nx\n```\nThen:\n```json\n{", "```go\nx\n```\nThen:\n```json\n{"},
		}},
		{"fence with four backticks not held", nil, []step{
			{"Now:\n````json\n{", "Now:\n````json\n{"},
		}},
		{"bare json data released at its first stray key", nil, []step{
			{"{\"data\": ", "{\"data\": "},
		}},
		{"bare json call held", nil, []step{
			{call + ";", ""},
			{"", ""},
		}},
		{"bare array then text released", nil, []step{
			{"[" + call + "]", ""},
			{" and more", "[" + call + "] and more"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewStreamFilter(StreamOptions{Offered: tt.offered})
			var shown, all strings.Builder
			for i, st := range tt.steps {
				var d Delta
				if i == len(tt.steps)-1 && st.feed == "" {
					d = f.Flush()
				} else {
					d = f.Feed(st.feed)
				}
				all.WriteString(st.feed)
				shown.WriteString(d.Text)
				if shown.String() != st.shown {
					t.Fatalf("after %q shown %q, want %q", all.String(), shown.String(), st.shown)
				}
			}
			if last := tt.steps[len(tt.steps)-1]; last.feed == "" {
				if want := Recover(all.String(), offeredTools, Options{}).Text; tidy(shown.String()) != want {
					t.Fatalf("shown %q, Recover text %q", shown.String(), want)
				}
			}
		})
	}
}

// BenchmarkStreamFilterFencedCall: a fenced call with large arguments,
// streamed in 4-byte pieces, is scanned once (linear in its size).
func BenchmarkStreamFilterFencedCall(b *testing.B) {
	msg := "Writing the file.\n```json\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"" +
		strings.Repeat("line of text with \\\"quotes\\\" and {braces}\\n", 5000) + "\"}}\n```\n"
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		f := NewStreamFilter(StreamOptions{Offered: offeredTools})
		for i := 0; i < len(msg); i += 4 {
			f.Feed(msg[i:min(i+4, len(msg))])
		}
		if d := f.Flush(); d.Text != "" {
			b.Fatalf("flush showed %q", d.Text)
		}
	}
}
