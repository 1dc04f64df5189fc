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
	}
	for _, in := range inputs {
		want := Recover(in, offeredTools, Options{}).Text
		for _, opts := range []StreamOptions{{Offered: offeredTools}, {}} {
			for _, got := range streamSplits(in, opts) {
				if tidy(got[0]) != want {
					t.Fatalf("%q (offered %v): stream showed %q, Recover text %q", in, opts.Offered != nil, got[0], want)
				}
			}
		}
	}
}
