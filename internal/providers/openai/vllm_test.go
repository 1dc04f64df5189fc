package openai

import (
	"context"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/llm/sse"
)

// streamVLLM serves a vLLM transcript (testdata/vllm, sources in
// SOURCES.md) through the fake server and the real provider, asking for
// maxTokens output tokens.
func streamVLLM(t *testing.T, file string, maxTokens int) *llm.Assembler {
	t.Helper()
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Raw(string(readFile(t, "vllm", file)))))
	p, err := New(Options{Name: "vllm", BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := p.Stream(context.Background(), llm.Request{Model: "Qwen/Qwen2.5-Coder-7B-Instruct", MaxTokens: maxTokens,
		Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "read main.go")}})
	if err != nil {
		t.Fatal(err)
	}
	var a llm.Assembler
	for ev := range ch {
		a.Add(ev)
	}
	if a.Err != nil {
		t.Fatal(a.Err)
	}
	return &a
}

// vLLM ends a streamed named-tool_choice call with finish_reason "stop"
// (vllm-project/vllm#9209, #25054): the reply is still a tool call, with
// the id vLLM sent once in the first delta and the arguments from the
// argument-only deltas, the last one inside the finish chunk.
func TestVLLMStopWithToolCallsIsAToolCallReply(t *testing.T) {
	a := streamVLLM(t, "stream_stop_with_tool_calls.sse", 8192)
	if a.Finish != llm.FinishToolCalls {
		t.Errorf("finish = %q, want %q", a.Finish, llm.FinishToolCalls)
	}
	calls := a.Message().ToolCalls()
	if len(calls) != 1 {
		t.Fatalf("calls = %+v, want one", calls)
	}
	c := calls[0]
	if c.ID != "chatcmpl-tool-3b9e6c1f2a7d4e5f9a0b1c2d3e4f5a6b" || c.Name != "read_file" || c.Arguments != `{"path": "main.go"}` {
		t.Errorf("call = %+v", c)
	}
	if a.Usage == nil || a.Usage.Estimated || a.Usage.InputTokens != 412 || a.Usage.OutputTokens != 21 {
		t.Errorf("usage = %+v, want the server's 412/21", a.Usage)
	}
}

// vLLM's stream says "tool_calls" for a call cut by max_tokens
// (vllm-project/vllm#53269); the decoder reports it as cut (length) when
// the reply used the whole cap and the arguments are not JSON, so the
// agent marks the call as cut instead of running a half-written one.
func TestVLLMCallCutAtTheCapIsReportedAsLength(t *testing.T) {
	a := streamVLLM(t, "stream_cut_call_reported_as_tool_calls.sse", 32)
	if a.Finish != llm.FinishLength {
		t.Errorf("finish = %q, want %q", a.Finish, llm.FinishLength)
	}
	if calls := a.Message().ToolCalls(); len(calls) != 1 || calls[0].Name != "write_file" {
		t.Errorf("calls = %+v, want the cut write_file call kept", calls)
	}
}

// The cut rule needs both signs: a reply under the cap, or with complete
// arguments, keeps vLLM's "tool_calls".
func TestVLLMToolCallsFinishKeptWithoutBothSignsOfACut(t *testing.T) {
	if a := streamVLLM(t, "stream_cut_call_reported_as_tool_calls.sse", 64); a.Finish != llm.FinishToolCalls {
		t.Errorf("under the cap: finish = %q, want %q", a.Finish, llm.FinishToolCalls)
	}
	if a := streamVLLM(t, "stream_cut_call_reported_as_tool_calls.sse", 0); a.Finish != llm.FinishToolCalls {
		t.Errorf("no cap: finish = %q, want %q", a.Finish, llm.FinishToolCalls)
	}
	var evs []llm.Event
	d := newDecoder(&Options{}, "m", func(ev llm.Event) bool { evs = append(evs, ev); return true })
	d.maxTokens = 9 // the whole cap used, but the arguments are complete
	raw := "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"ls\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":9}}\n\ndata: [DONE]\n\n"
	if err := d.run(sse.NewReader(strings.NewReader(raw))); err != nil {
		t.Fatal(err)
	}
	if f := assemble(evs).Finish; f != llm.FinishToolCalls {
		t.Errorf("complete arguments: finish = %q, want %q", f, llm.FinishToolCalls)
	}
}
