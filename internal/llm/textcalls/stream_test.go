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
		{"mistral held", "Ok [TOOL_CALLS]read_file[ARGS]{\"path\":\"a\"}", StreamOptions{}, "Ok ", "", []string{"[TOOL", "read_file"}},
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
