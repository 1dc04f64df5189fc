package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/llm/schema"
	"github.com/zero-agent/zero/internal/llm/sse"
)

func readFile(t testing.TB, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeBytes runs the stream decoder over raw SSE bytes.
func decodeBytes(o Options, raw []byte) ([]llm.Event, error) {
	return decodeBytesNames(o, nil, raw)
}

// decodeBytesNames is decodeBytes with called names mapped through names.
func decodeBytesNames(o Options, names *schema.NameMap, raw []byte) ([]llm.Event, error) {
	var evs []llm.Event
	d := newDecoder(&o, "m", func(ev llm.Event) bool { evs = append(evs, ev); return true })
	d.names = names
	err := d.run(sse.NewReader(bytes.NewReader(raw)))
	return evs, err
}

func assemble(evs []llm.Event) *llm.Assembler {
	var a llm.Assembler
	for _, ev := range evs {
		a.Add(ev)
	}
	return &a
}

// serveRaw streams raw bytes through llmtest and the real provider.
func serveRaw(t *testing.T, o Options, raw []byte) []llm.Event {
	t.Helper()
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Raw(string(raw))))
	o.BaseURL = srv.URL()
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := p.Stream(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	var evs []llm.Event
	for ev := range ch {
		evs = append(evs, ev)
	}
	return evs
}

type b07Expect struct {
	Text         string `json:"text"`
	FinishReason string `json:"finish_reason"`
	Usage        *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// TestSSEFramingVariantsDecodeToTextFinishAndUsage decodes three streams
// ('data:' without a space, CRLF and keep-alive comments, a usage chunk
// with empty choices), directly and over HTTP. A null expected usage means
// the server reported none: the provider then emits a local estimate
// marked Estimated.
// Case B07 (testdata/B07; openai/openai-python#498, aaif-goose/goose PR#7929).
func TestSSEFramingVariantsDecodeToTextFinishAndUsage(t *testing.T) {
	var exp map[string]b07Expect
	if err := json.Unmarshal(readFile(t, "B07", "expected.json"), &exp); err != nil {
		t.Fatal(err)
	}
	for file, want := range exp {
		raw := readFile(t, "B07", file)
		direct, err := decodeBytes(Options{}, raw)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for name, evs := range map[string][]llm.Event{"direct": direct, "http": serveRaw(t, Options{}, raw)} {
			a := assemble(evs)
			if a.Err != nil {
				t.Fatalf("%s %s: %v", file, name, a.Err)
			}
			m := a.Message()
			if m.Text() != want.Text || string(a.Finish) != want.FinishReason {
				t.Errorf("%s %s: text %q finish %q, want %q %q", file, name, m.Text(), a.Finish, want.Text, want.FinishReason)
			}
			if a.Usage == nil {
				t.Fatalf("%s %s: no usage event", file, name)
			}
			if want.Usage == nil {
				if !a.Usage.Estimated {
					t.Errorf("%s %s: usage %+v, want an estimate (server sent none)", file, name, a.Usage)
				}
			} else if a.Usage.Estimated || a.Usage.InputTokens != want.Usage.PromptTokens || a.Usage.OutputTokens != want.Usage.CompletionTokens {
				t.Errorf("%s %s: usage %+v, want %+v", file, name, a.Usage, *want.Usage)
			}
			if last := evs[len(evs)-1]; last.Type != llm.EventFinish {
				t.Errorf("%s %s: last event %s", file, name, last.Type)
			}
		}
	}
}

type wantCall struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

func checkCall(t *testing.T, got llm.ToolCall, want wantCall, checkID bool) {
	t.Helper()
	var args map[string]any
	if err := json.Unmarshal([]byte(got.Arguments), &args); err != nil {
		t.Fatalf("call %s arguments %q: %v", got.Name, got.Arguments, err)
	}
	if got.Name != want.Name || !reflect.DeepEqual(args, want.Arguments) || (checkID && got.ID != want.ID) {
		t.Errorf("call = %+v, want %+v", got, want)
	}
}

// TestStreamedToolCallArgumentsFromTheFirstChunkAreKept: arguments that
// start in the first chunk (with id, type and name) are kept; calls are
// accumulated by index.
// Case B06 (testdata/B06/stream_first_chunk_args.sse; ggml-org/llama.cpp#22722).
func TestStreamedToolCallArgumentsFromTheFirstChunkAreKept(t *testing.T) {
	var exp struct {
		Stream []wantCall `json:"stream_first_chunk_args.sse"`
	}
	if err := json.Unmarshal(readFile(t, "B06", "expected.json"), &exp); err != nil {
		t.Fatal(err)
	}
	raw := readFile(t, "B06", "stream_first_chunk_args.sse")
	direct, err := decodeBytes(Options{}, raw)
	if err != nil {
		t.Fatal(err)
	}
	for name, evs := range map[string][]llm.Event{"direct": direct, "http": serveRaw(t, Options{}, raw)} {
		a := assemble(evs)
		calls := a.Message().ToolCalls()
		if len(calls) != len(exp.Stream) || a.Finish != llm.FinishToolCalls {
			t.Fatalf("%s: %d calls, finish %s; want %d", name, len(calls), a.Finish, len(exp.Stream))
		}
		for i, c := range calls {
			checkCall(t, c, exp.Stream[i], true)
		}
		// End events carry the complete call.
		var ends []llm.ToolCall
		for _, ev := range evs {
			if ev.Type == llm.EventToolCallEnd {
				ends = append(ends, *ev.ToolCall)
			}
		}
		if !reflect.DeepEqual(ends, calls) {
			t.Errorf("%s: End calls %+v != assembled %+v", name, ends, calls)
		}
	}
}

// TestNonStreamToolCallQuirksAreNormalisedAndReplayed: the non-streaming
// quirks body: arguments as an object, empty id (generated, unique, Mistral
// shape on request), a nameless entry dropped with a warning; replayed
// history sends arguments as a string and the tool message uses the same
// generated id.
// Case B06 (testdata/B06/response_nonstream_quirks.json; lmstudio-ai/lmstudio-bug-tracker#830).
func TestNonStreamToolCallQuirksAreNormalisedAndReplayed(t *testing.T) {
	var exp struct {
		NonStream struct {
			ToolCalls []wantCall `json:"tool_calls"`
		} `json:"response_nonstream_quirks.json"`
	}
	if err := json.Unmarshal(readFile(t, "B06", "expected.json"), &exp); err != nil {
		t.Fatal(err)
	}
	body := readFile(t, "B06", "response_nonstream_quirks.json")
	for _, mistral := range []bool{false, true} {
		o := Options{MistralIDs: mistral}
		c, err := ParseResponse(body, o)
		if err != nil {
			t.Fatal(err)
		}
		calls := c.Message.ToolCalls()
		if len(calls) != len(exp.NonStream.ToolCalls) {
			t.Fatalf("mistral=%v: %d calls, want %d (%+v)", mistral, len(calls), len(exp.NonStream.ToolCalls), calls)
		}
		checkCall(t, calls[0], exp.NonStream.ToolCalls[0], false)
		id := calls[0].ID
		if mistral && !isMistralID(id) {
			t.Errorf("mistral id %q is not 9 alphanumerics", id)
		}
		if !mistral && (!strings.HasPrefix(id, "call_") || len(id) != len("call_")+9 || !isMistralID(id[5:])) {
			t.Errorf("generated id %q, want call_ + 9 alphanumerics", id)
		}
		if c.Finish != llm.FinishToolCalls {
			t.Errorf("finish %s", c.Finish)
		}
		if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "no function name") {
			t.Errorf("warnings = %q", c.Warnings)
		}
		// Ids are unique across replies.
		c2, _ := ParseResponse(body, o)
		if c2.Message.ToolCalls()[0].ID == id {
			t.Errorf("generated id %q repeated", id)
		}
		// History replay.
		req := llm.Request{Messages: []llm.Message{
			llm.TextMessage(llm.RoleUser, "go version?"),
			c.Message,
			llm.ToolResultMessage(llm.ToolResult{CallID: id, Name: "read_file", Content: "module x\n\ngo 1.22\n"}),
		}}
		b, err := buildRequest(req, "m", &o, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		var wire struct {
			Messages []struct {
				Role       string `json:"role"`
				ToolCallID string `json:"tool_call_id"`
				ToolCalls  []struct {
					ID       string `json:"id"`
					Function struct {
						Arguments json.RawMessage `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(b, &wire); err != nil {
			t.Fatal(err)
		}
		asst, tool := wire.Messages[1], wire.Messages[2]
		if len(asst.ToolCalls) != 1 || string(asst.ToolCalls[0].Function.Arguments) != `"{\"path\":\"go.mod\"}"` {
			t.Errorf("replayed tool_calls = %s", b)
		}
		if tool.Role != "tool" || tool.ToolCallID != asst.ToolCalls[0].ID || tool.ToolCallID != id {
			t.Errorf("tool message id %q, call id %q, generated %q", tool.ToolCallID, asst.ToolCalls[0].ID, id)
		}
	}
}

// TestPrefilledThinkSplitsReasoningAndNeverShowsTagPieces streams content
// pieces through the provider with the pre-filled-think profile: reasoning
// and text separate, tag pieces never shown; the literal-tag answer stays
// text without the profile.
// Case B05 (testdata/B05; ollama/ollama#18082, QwenLM/qwen-code PR#6033).
func TestPrefilledThinkSplitsReasoningAndNeverShowsTagPieces(t *testing.T) {
	var exp map[string]struct {
		Reasoning      string   `json:"reasoning"`
		Text           string   `json:"text"`
		NeverDisplayed []string `json:"never_displayed"`
	}
	if err := json.Unmarshal(readFile(t, "B05", "expected.json"), &exp); err != nil {
		t.Fatal(err)
	}
	var chunks []string
	if err := json.Unmarshal(readFile(t, "B05", "stream_chunks.json"), &chunks); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]struct {
		steps []llmtest.Step
		o     Options
	}{
		"stream_chunks.json":                    {nil, Options{ThinkPrefilled: true}},
		"model_output_prefilled_think.txt":      {[]llmtest.Step{llmtest.Text(string(readFile(t, "B05", "model_output_prefilled_think.txt"))).Split(9)}, Options{ThinkPrefilled: true}},
		"model_output_literal_tag_negative.txt": {[]llmtest.Step{llmtest.Text(string(readFile(t, "B05", "model_output_literal_tag_negative.txt"))).Split(7)}, Options{}},
	}
	for _, c := range chunks {
		in := inputs["stream_chunks.json"]
		in.steps = append(in.steps, llmtest.Text(c))
		inputs["stream_chunks.json"] = in
	}
	for file, in := range inputs {
		srv := llmtest.NewServer(t)
		srv.Script(llmtest.Reply(in.steps...))
		in.o.BaseURL = srv.URL()
		p, _ := New(in.o)
		ch, err := p.Stream(context.Background(), llm.Request{Model: "qwen3"})
		if err != nil {
			t.Fatal(err)
		}
		var a llm.Assembler
		for ev := range ch {
			a.Add(ev)
			for _, piece := range exp[file].NeverDisplayed {
				if (ev.Type == llm.EventTextDelta || ev.Type == llm.EventReasoningDelta) && strings.Contains(ev.Text, piece) {
					t.Errorf("%s: delta %q shows %q", file, ev.Text, piece)
				}
			}
		}
		m := a.Message()
		if m.Reasoning() != exp[file].Reasoning || m.Text() != exp[file].Text {
			t.Errorf("%s: reasoning %q text %q, want %q %q", file, m.Reasoning(), m.Text(), exp[file].Reasoning, exp[file].Text)
		}
	}
}

// FuzzDecode: any stream bytes end in exactly one finish or error, never
// a panic, and every tool call that ends has a name and an id; a call to
// a mapped wire name (case B31) never leaves under that wire name.
func FuzzDecode(f *testing.F) {
	for _, p := range [][]string{{"B06", "stream_first_chunk_args.sse"}, {"B07", "stream.sse"}, {"B07", "stream_crlf.sse"}, {"B07", "stream_leading_empty_choices.sse"}} {
		f.Add(readFile(f, p...))
	}
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"content\":\"</think>x\",\"tool_calls\":[{\"function\":{\"arguments\":{\"a\":1}}}]}}]}\n\n"))
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"calendar_list_events\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		names := schema.NewNameMap()
		names.Add("", "calendar.list_events")
		evs, err := decodeBytesNames(Options{}, names, raw)
		finishes := 0
		for _, ev := range evs {
			switch ev.Type {
			case llm.EventFinish:
				finishes++
			case llm.EventToolCallStart, llm.EventToolCallEnd:
				if ev.ToolCall.Name == "calendar_list_events" {
					t.Fatalf("call %d left under its wire name", ev.Index)
				}
				if ev.Type == llm.EventToolCallStart {
					continue
				}
				if ev.ToolCall.Name == "" || ev.ToolCall.ID == "" {
					t.Fatalf("ended call without name or id: %+v", ev.ToolCall)
				}
			}
		}
		if (err == nil) != (finishes == 1) || finishes > 1 {
			t.Fatalf("err %v with %d finish events", err, finishes)
		}
		if err != nil && llm.KindOf(err) == llm.ErrUnknown {
			t.Fatalf("untyped error %v", err)
		}
	})
}
