package think

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// feed pushes chunks through a fresh Splitter and returns the joined
// reasoning and text plus every segment emitted.
func feed(opts Options, chunks []string) (reasoning, text string, segs []Segment) {
	s := New(opts)
	var r, a strings.Builder
	add := func(out []Segment) {
		for _, g := range out {
			segs = append(segs, g)
			if g.Reasoning {
				r.WriteString(g.Text)
			} else {
				a.WriteString(g.Text)
			}
		}
	}
	for _, c := range chunks {
		add(s.Push(c))
	}
	add(s.Flush())
	return r.String(), a.String(), segs
}

// splits returns the ways of cutting s that the tests try: whole, one byte
// at a time, and every single cut point.
func splits(s string) [][]string {
	out := [][]string{{s}}
	var bytes []string
	for i := 0; i < len(s); i++ {
		bytes = append(bytes, s[i:i+1])
	}
	out = append(out, bytes)
	for i := 1; i < len(s); i++ {
		out = append(out, []string{s[:i], s[i:]})
	}
	return out
}

func TestSplitter(t *testing.T) {
	tests := []struct {
		name            string
		opts            Options
		in              string
		reasoning, text string
	}{
		{"plain answer", Options{}, "Hello world", "", "Hello world"},
		{"think pair", Options{}, "<think>\nplan it\n</think>\n\nThe answer.", "plan it", "The answer."},
		{"leading whitespace before tag", Options{}, "\n <think>r</think>a", "r", "a"},
		{"orphan close at start", Options{}, "</think>answer", "", "answer"},
		{"prefilled", Options{StartInReasoning: true}, "reason</think>answer", "reason", "answer"},
		{"prefilled and repeated open", Options{StartInReasoning: true}, "<think>reason</think>answer", "reason", "answer"},
		{"prefilled empty reasoning", Options{StartInReasoning: true}, "</think>answer", "", "answer"},
		{"prefilled never closed", Options{StartInReasoning: true}, "still thinking ", "", ""},
		{"tag mid answer is literal", Options{}, "Use <think>x</think> tags", "", "Use <think>x</think> tags"},
		{"orphan close mid answer is literal", Options{}, "a </think> b", "", "a </think> b"},
		{"tag-like word", Options{}, "<thinking>x</thinking>", "", "<thinking>x</thinking>"},
		{"partial tag at end is text", Options{}, "<thi", "", "<thi"},
		{"unclosed reasoning", Options{}, "<think>abc", "abc", ""},
		{"reasoning with inner blank lines", Options{}, "<think>a\n\nb</think>c", "a\n\nb", "c"},
		{"reasoning mentions tag prefix", Options{}, "<think>a </th b</think>c", "a </th b", "c"},
		{"answer after close keeps inner spaces", Options{}, "<think>r</think>  a  b ", "r", "a  b "},
		{"fenced tag in answer", Options{}, "```\n<think>x</think>\n```", "", "```\n<think>x</think>\n```"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.reasoning
			if tc.name == "prefilled never closed" {
				want = "still thinking"
			}
			for _, chunks := range splits(tc.in) {
				r, a, _ := feed(tc.opts, chunks)
				if r != want || a != tc.text {
					t.Fatalf("chunks %q: reasoning %q text %q, want %q %q", chunks, r, a, want, tc.text)
				}
			}
		})
	}
}

func TestUnclosed(t *testing.T) {
	s := New(Options{StartInReasoning: true})
	s.Push("thinking")
	s.Flush()
	if !s.Unclosed() {
		t.Error("Unclosed() = false after reasoning with no </think>")
	}
	s = New(Options{StartInReasoning: true})
	s.Push("r</think>a")
	s.Flush()
	if s.Unclosed() {
		t.Error("Unclosed() = true after </think>")
	}
}

type b05Expect struct {
	Reasoning      string   `json:"reasoning"`
	Text           string   `json:"text"`
	NeverDisplayed []string `json:"never_displayed"`
}

func loadB05(t *testing.T) map[string]b05Expect {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "B05", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]b05Expect
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

func readCase(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "B05", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestSplitterHandlesPrefilledThinkAndLiteralTagsAtEveryCut feeds each
// input through the splitter: the pre-filled outputs with the profile
// flag, the literal-tag answer without it, each whole, byte by byte and
// cut at every point.
// Case B05 (testdata/B05; ollama/ollama#18082, QwenLM/qwen-code PR#6033).
func TestSplitterHandlesPrefilledThinkAndLiteralTagsAtEveryCut(t *testing.T) {
	exp := loadB05(t)
	var streamChunks []string
	if err := json.Unmarshal([]byte(readCase(t, "stream_chunks.json")), &streamChunks); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file   string
		opts   Options
		inputs [][]string
	}{
		{"model_output_prefilled_think.txt", Options{StartInReasoning: true}, splits(readCase(t, "model_output_prefilled_think.txt"))},
		{"stream_chunks.json", Options{StartInReasoning: true}, append([][]string{streamChunks}, splits(strings.Join(streamChunks, ""))...)},
		{"model_output_literal_tag_negative.txt", Options{}, splits(readCase(t, "model_output_literal_tag_negative.txt"))},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			want, ok := exp[tc.file]
			if !ok {
				t.Fatalf("no expectation for %s", tc.file)
			}
			for _, chunks := range tc.inputs {
				r, a, segs := feed(tc.opts, chunks)
				if r != want.Reasoning || a != want.Text {
					t.Fatalf("chunks %q:\nreasoning %q\ntext      %q\nwant      %q / %q", chunks, r, a, want.Reasoning, want.Text)
				}
				for _, piece := range want.NeverDisplayed {
					for _, g := range segs {
						if strings.Contains(g.Text, piece) {
							t.Fatalf("chunks %q: segment %q shows %q", chunks, g.Text, piece)
						}
					}
				}
			}
		})
	}
}

// FuzzSplitter checks that the split does not depend on how the stream is
// cut into chunks and that no input bytes appear from nowhere.
func FuzzSplitter(f *testing.F) {
	for _, name := range []string{"model_output_prefilled_think.txt", "model_output_literal_tag_negative.txt", "stream_chunks.json"} {
		raw, err := os.ReadFile(filepath.Join("testdata", "B05", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(raw), uint8(7), false)
		f.Add(string(raw), uint8(3), true)
	}
	f.Add("<think>a</th</think>b", uint8(1), false)
	f.Fuzz(func(t *testing.T, in string, step uint8, prefilled bool) {
		opts := Options{StartInReasoning: prefilled}
		wr, wa := Split(in, opts)
		n := int(step%16) + 1
		var chunks []string
		for i := 0; i < len(in); i += n {
			chunks = append(chunks, in[i:min(i+n, len(in))])
		}
		r, a, _ := feed(opts, chunks)
		if r != wr || a != wa {
			t.Fatalf("chunked by %d: %q/%q, whole: %q/%q", n, r, a, wr, wa)
		}
		if len(r)+len(a) > len(in) {
			t.Fatalf("output longer than input: %q + %q from %q", r, a, in)
		}
		if !strings.Contains(in, a) {
			t.Fatalf("text %q is not a piece of the input %q", a, in)
		}
	})
}

func TestReasoningSeparated(t *testing.T) {
	s := New(Options{StartInReasoning: true})
	s.ReasoningSeparated()
	var got []Segment
	got = append(got, s.Push("</think>\n\nThe answer")...)
	got = append(got, s.Flush()...)
	if len(got) != 1 || got[0].Reasoning || got[0].Text != "The answer" {
		t.Errorf("segments = %+v", got)
	}
	// Once reasoning text has streamed from content, the call changes nothing.
	s = New(Options{StartInReasoning: true})
	s.Push("thinking")
	s.ReasoningSeparated()
	segs := append([]Segment(nil), s.Push(" more</think>answer")...)
	if len(segs) != 2 || !segs[0].Reasoning || segs[1].Text != "answer" {
		t.Errorf("segments = %+v", segs)
	}
}
