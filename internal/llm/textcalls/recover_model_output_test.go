package textcalls

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// caseTools reads a case's tools.json (OpenAI tools array) into offered
// names and schemas.
func caseTools(t *testing.T, dir string) ([]string, map[string]json.RawMessage) {
	t.Helper()
	var tools []struct {
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	readJSON(t, filepath.Join(dir, "tools.json"), &tools)
	var names []string
	schemas := map[string]json.RawMessage{}
	for _, tl := range tools {
		names = append(names, tl.Function.Name)
		schemas[tl.Function.Name] = tl.Function.Parameters
	}
	return names, schemas
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type wantCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// gotCalls decodes recovered calls to the expected.json shape and checks
// the id and Recovered invariants.
func gotCalls(t *testing.T, calls []llm.ToolCall) []wantCall {
	t.Helper()
	out := []wantCall{}
	for _, c := range calls {
		if !c.Recovered {
			t.Errorf("call %s: Recovered not set", c.Name)
		}
		if !regexp.MustCompile(`^call_[A-Za-z0-9]{12}$`).MatchString(c.ID) {
			t.Errorf("call %s: id %q is not call_ + 12 alnum", c.Name, c.ID)
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(c.Arguments), &args); err != nil {
			t.Errorf("call %s: arguments %q: %v", c.Name, c.Arguments, err)
		}
		out = append(out, wantCall{c.Name, args})
	}
	return out
}

// TestRecoverJSONCallsOnlyWhenTheWholeContentIsCalls: fenced JSON,
// "parameters" keys and several objects become calls with fresh unique
// ids; JSON inside prose or naming an unoffered tool stays text.
// Case B01 (testdata/B01; ollama/ollama#13519, abetlen/llama-cpp-python#1856).
func TestRecoverJSONCallsOnlyWhenTheWholeContentIsCalls(t *testing.T) {
	dir := filepath.Join("testdata", "B01")
	offered, schemas := caseTools(t, dir)
	var expected map[string]json.RawMessage
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	files := sortedKeys(expected)
	if len(files) != 5 {
		t.Fatalf("expected.json lists %d files, want 5", len(files))
	}
	ids := NewIDGen()
	seen := map[string]bool{}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			in := readText(t, filepath.Join(dir, name))
			res := Recover(in, offered, Options{Schemas: schemas, IDs: ids})
			for _, c := range res.Calls {
				if seen[c.ID] {
					t.Errorf("id %s reused across messages", c.ID)
				}
				seen[c.ID] = true
			}
			var want []wantCall
			if json.Unmarshal(expected[name], &want) == nil {
				if got := gotCalls(t, res.Calls); !reflect.DeepEqual(got, want) {
					t.Errorf("calls = %+v, want %+v", got, want)
				}
				if res.Text != "" {
					t.Errorf("text = %q, want empty (the whole content was calls)", res.Text)
				}
				return
			}
			// Negative: no call, the content shown as text.
			if len(res.Calls) != 0 || len(res.Invalid) != 0 {
				t.Errorf("negative case recovered %+v %+v", res.Calls, res.Invalid)
			}
			if res.Text != strings.TrimSpace(in) {
				t.Errorf("text = %q, want the content", res.Text)
			}
			if strings.Contains(name, "5_negative") && len(res.Warnings) == 0 {
				t.Error("unknown tool name gave no warning")
			}
		})
	}
}

// TestRecoverHermesAndQwen3CoderCallsWithReasoningApart: <tool_call>
// blocks and <function=..><parameter=..> blocks become calls in order,
// <think> goes to reasoning, visible text is kept.
// Case B02 (testdata/B02; aaif-goose/goose#3748, ggml-org/llama.cpp#15012).
func TestRecoverHermesAndQwen3CoderCallsWithReasoningApart(t *testing.T) {
	dir := filepath.Join("testdata", "B02")
	offered, schemas := caseTools(t, dir)
	var expected map[string]struct {
		Reasoning string     `json:"reasoning"`
		Text      string     `json:"text"`
		ToolCalls []wantCall `json:"tool_calls"`
	}
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	if len(expected) != 3 {
		t.Fatalf("expected.json lists %d files, want 3", len(expected))
	}
	for name, want := range expected {
		t.Run(name, func(t *testing.T) {
			res := Recover(readText(t, filepath.Join(dir, name)), offered, Options{Schemas: schemas})
			if res.Reasoning != want.Reasoning {
				t.Errorf("reasoning = %q, want %q", res.Reasoning, want.Reasoning)
			}
			if res.Text != want.Text {
				t.Errorf("text = %q, want %q", res.Text, want.Text)
			}
			if got := gotCalls(t, res.Calls); !reflect.DeepEqual(got, want.ToolCalls) {
				t.Errorf("calls = %+v, want %+v", got, want.ToolCalls)
			}
		})
	}
}

// TestRepairArgumentsFixesCommasAndPythonQuotesButNeverValidJSON: trailing
// commas and single quotes are repaired, valid JSON with an apostrophe is
// left as is, and unrepairable text gives the expected error.
// Case B04 (testdata/B04; ml-explore/mlx-lm PR#1071, NousResearch/atropos#478).
func TestRepairArgumentsFixesCommasAndPythonQuotesButNeverValidJSON(t *testing.T) {
	dir := filepath.Join("testdata", "B04")
	var expected map[string]struct {
		OK    map[string]any `json:"ok"`
		Error string         `json:"error"`
	}
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	if len(expected) != 5 {
		t.Fatalf("expected.json lists %d files, want 5", len(expected))
	}
	for name, want := range expected {
		t.Run(name, func(t *testing.T) {
			raw := readText(t, filepath.Join(dir, name))
			got, err := RepairArguments(raw)
			if want.Error != "" {
				if err == nil || err.Error() != want.Error {
					t.Fatalf("err = %v, want %q (got %q)", err, want.Error, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			var args map[string]any
			if err := json.Unmarshal([]byte(got), &args); err != nil {
				t.Fatalf("repaired %q: %v", got, err)
			}
			if !reflect.DeepEqual(args, want.OK) {
				t.Errorf("args = %v, want %v", args, want.OK)
			}
			if json.Valid([]byte(raw)) && got != raw {
				t.Errorf("valid JSON was rewritten: %q -> %q", raw, got)
			}
		})
	}
}

// TestRecoverNeverMakesACallFromUnrepairableArguments: the same argument
// texts inside a Hermes block give a call or an Invalid call with the same
// error, never a call with {} or partial arguments.
// Case B04 (testdata/B04; NousResearch/hermes-agent PR#36271).
func TestRecoverNeverMakesACallFromUnrepairableArguments(t *testing.T) {
	dir := filepath.Join("testdata", "B04")
	offered, _ := caseTools(t, dir)
	var expected map[string]struct {
		OK    map[string]any `json:"ok"`
		Error string         `json:"error"`
	}
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	for name, want := range expected {
		raw := readText(t, filepath.Join(dir, name))
		for _, text := range []string{
			"[TOOL_CALLS]write_file[ARGS]" + raw,
			"<function=write_file>\n<parameter=raw>\n" + raw + "\n</parameter>\n</function>",
		} {
			res := Recover(text, offered, Options{})
			if strings.HasPrefix(text, "<function=") {
				// Qwen3-Coder values are raw text: no JSON parsing at all.
				if len(res.Calls) != 1 {
					t.Errorf("%s qwen: %+v", name, res)
				}
				continue
			}
			switch {
			case want.Error != "":
				if len(res.Calls) != 0 || len(res.Invalid) != 1 || res.Invalid[0].Err.Error() != want.Error {
					t.Errorf("%s: calls %+v invalid %+v, want error %q", name, res.Calls, res.Invalid, want.Error)
				}
			default:
				if len(res.Calls) != 1 {
					t.Fatalf("%s: %+v", name, res)
				}
				var args map[string]any
				_ = json.Unmarshal([]byte(res.Calls[0].Arguments), &args)
				if !reflect.DeepEqual(args, want.OK) {
					t.Errorf("%s: args %v want %v", name, args, want.OK)
				}
			}
		}
	}
}

// TestRecoverSplitsAnOrphanThinkCloseIntoReasoning: content that holds only
// '</think>' (the template pre-filled '<think>') is reasoning up to it,
// with or without tools offered; the literal-tag answer stays text.
// Case B05 (testdata/B05; ollama/ollama#18082, lmstudio-ai/lmstudio-bug-tracker#1495).
func TestRecoverSplitsAnOrphanThinkCloseIntoReasoning(t *testing.T) {
	dir := filepath.Join("testdata", "B05")
	var expected map[string]struct {
		Reasoning     string   `json:"reasoning"`
		Text          string   `json:"text"`
		NeverDisplay  []string `json:"never_displayed"`
		isStreamInput bool
	}
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	for _, name := range []string{"model_output_prefilled_think.txt", "model_output_literal_tag_negative.txt"} {
		want := expected[name]
		in := readText(t, filepath.Join(dir, name))
		// Without tools offered, and with them: the reasoning split is the
		// same. The orphan close is found with or without the profile flag.
		for _, prefilled := range []bool{false, true} {
			if strings.Contains(name, "negative") && prefilled {
				continue // the profile flag is not set for that model
			}
			for _, offered := range [][]string{nil, {"read_file"}} {
				res := Recover(in, offered, Options{PrefilledThink: prefilled})
				if res.Reasoning != want.Reasoning || res.Text != want.Text || len(res.Calls) != 0 {
					t.Errorf("%s (prefilled=%v, offered=%v): reasoning %q text %q calls %d; want %q %q", name, prefilled, offered, res.Reasoning, res.Text, len(res.Calls), want.Reasoning, want.Text)
				}
			}
		}
	}
}

// TestStreamFilterNeverDisplaysThinkTagPiecesAcrossChunks: streamed pieces
// with a pre-filled think split into reasoning and text without showing a
// tag piece; the literal-tag answer streams through unchanged at every cut.
// Case B05 (testdata/B05/stream_chunks.json; QwenLM/qwen-code PR#6033).
func TestStreamFilterNeverDisplaysThinkTagPiecesAcrossChunks(t *testing.T) {
	dir := filepath.Join("testdata", "B05")
	var expected map[string]struct {
		Reasoning    string   `json:"reasoning"`
		Text         string   `json:"text"`
		NeverDisplay []string `json:"never_displayed"`
	}
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	want := expected["stream_chunks.json"]
	var chunks []string
	readJSON(t, filepath.Join(dir, "stream_chunks.json"), &chunks)
	f := NewStreamFilter(StreamOptions{PrefilledThink: true})
	var text, reason strings.Builder
	check := func(d Delta) {
		for _, bad := range want.NeverDisplay {
			if strings.Contains(d.Text, bad) || strings.Contains(d.Reasoning, bad) {
				t.Errorf("displayed %q in %+v", bad, d)
			}
		}
		text.WriteString(d.Text)
		reason.WriteString(d.Reasoning)
	}
	for _, c := range chunks {
		check(f.Feed(c))
	}
	check(f.Flush())
	if reason.String() != want.Reasoning || text.String() != want.Text {
		t.Errorf("reasoning %q text %q, want %q %q", reason.String(), text.String(), want.Reasoning, want.Text)
	}

	// The literal-tag negative streams through unchanged at every split.
	neg := readText(t, filepath.Join(dir, "model_output_literal_tag_negative.txt"))
	negWant := expected["model_output_literal_tag_negative.txt"].Text
	for cut := 0; cut <= len(neg); cut++ {
		f := NewStreamFilter(StreamOptions{})
		var got strings.Builder
		for _, d := range []Delta{f.Feed(neg[:cut]), f.Feed(neg[cut:]), f.Flush()} {
			got.WriteString(d.Text)
			if d.Reasoning != "" {
				t.Fatalf("cut %d: reasoning %q", cut, d.Reasoning)
			}
		}
		if got.String() != negWant {
			t.Fatalf("cut %d: text %q", cut, got.String())
		}
	}
}

// TestCanonicalArgumentsAndIDsForStructuredCallQuirks: object arguments
// become a JSON string, empty ids get a 9-alnum id, and streamed
// arguments joined by index canonicalise to the expected calls.
// Case B06 (testdata/B06; ggml-org/llama.cpp#22722, ggml-org/llama.cpp#20198).
func TestCanonicalArgumentsAndIDsForStructuredCallQuirks(t *testing.T) {
	dir := filepath.Join("testdata", "B06")
	// Non-stream quirks: empty ids, arguments as an object, an entry
	// without a function name.
	var resp struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					ID       string `json:"id"`
					Function *struct {
						Name      string          `json:"name"`
						Arguments json.RawMessage `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	readJSON(t, filepath.Join(dir, "response_nonstream_quirks.json"), &resp)
	ids := NewIDGen()
	var kept []llm.ToolCall
	for _, tc := range resp.Choices[0].Message.ToolCalls {
		if tc.Function == nil || tc.Function.Name == "" {
			continue // dropped with a warning by the provider
		}
		args, err := CanonicalArguments(tc.Function.Arguments)
		if err != nil {
			t.Fatal(err)
		}
		id := tc.ID
		if id == "" {
			id = ids.NextShort()
		}
		kept = append(kept, llm.ToolCall{ID: id, Name: tc.Function.Name, Arguments: args})
	}
	if len(kept) != 1 || kept[0].Name != "read_file" || kept[0].Arguments != `{"path":"go.mod"}` {
		t.Fatalf("kept %+v, want one read_file with the string {\"path\":\"go.mod\"}", kept)
	}
	if !regexp.MustCompile(`^[A-Za-z0-9]{9}$`).MatchString(kept[0].ID) {
		t.Errorf("short id %q is not 9 alnum", kept[0].ID)
	}

	// Stream: arguments concatenated per index (provider side) then
	// canonicalised; server ids are observed so generated ones never clash.
	var expected struct {
		Stream []struct {
			ID        string         `json:"id"`
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"stream_first_chunk_args.sse"`
	}
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	type acc struct{ id, name, args string }
	byIndex := map[int]*acc{}
	sc := bufio.NewScanner(bytes.NewReader([]byte(readText(t, filepath.Join(dir, "stream_first_chunk_args.sse")))))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || line == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(line), &chunk); err != nil {
			t.Fatal(err)
		}
		for _, d := range chunk.Choices[0].Delta.ToolCalls {
			a := byIndex[d.Index]
			if a == nil {
				a = &acc{}
				byIndex[d.Index] = a
			}
			if d.ID != "" {
				a.id = d.ID
				ids.Observe(d.ID)
			}
			a.name += d.Function.Name
			a.args += d.Function.Arguments
		}
	}
	if len(byIndex) != len(expected.Stream) {
		t.Fatalf("%d calls, want %d", len(byIndex), len(expected.Stream))
	}
	for i, want := range expected.Stream {
		a := byIndex[i]
		s, err := CanonicalArguments(json.RawMessage(a.args))
		if err != nil {
			t.Fatal(err)
		}
		var args map[string]any
		_ = json.Unmarshal([]byte(s), &args)
		if a.id != want.ID || a.name != want.Name || !reflect.DeepEqual(args, want.Arguments) {
			t.Errorf("call %d = %+v %v, want %+v", i, a, args, want)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
