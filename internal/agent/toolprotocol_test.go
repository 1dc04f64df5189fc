package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

// noJinja is llama-server's answer to a request with tools when it runs
// without --jinja: oaicompat_chat_params_parse throws and the handler
// renders ERROR_TYPE_SERVER (ggml-org/llama.cpp tools/server/utils.hpp).
const noJinja = `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`

// hermesCall is the call the prompted tool list asks the model to write.
const hermesCall = `<tool_call>{"name":"read_file","arguments":{"path":"a.go"}}</tool_call>`

func promptedAgent(t *testing.T, srv *llmtest.Server, proto ToolProtocol, switched *int) *Agent {
	return New(Options{Provider: newOpenAI(t, srv.URL()), Model: "m", System: "You are Zero.", ToolProtocol: proto,
		Tools:           tools.NewRegistry(echoTool("read_file", tools.SideRead)),
		OnPromptedTools: func() { *switched++ }, Retries: -1})
}

// TestRefusedToolsSwitchToPromptedAndCompleteAToolRound: llama-server
// without --jinja refuses the first request; the turn is sent again once
// without a tools field and with the tools listed in the system prompt,
// the model's Hermes call is run, and its result goes back as user text;
// the request after the switch is the one before plus new messages.
func TestRefusedToolsSwitchToPromptedAndCompleteAToolRound(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Error(500, noJinja)), llmtest.Reply(llmtest.Text(hermesCall)), llmtest.Reply(llmtest.Text("a.go is fine.")))
	switched := 0
	a := promptedAgent(t, srv, ToolProtocolAuto, &switched)
	res := a.Run(context.Background(), "check a.go")
	if res.StopReason != event.StopCompleted || res.Final != "a.go is fine." {
		t.Fatalf("got %+v", res)
	}
	if switched != 1 || !a.PromptedTools() {
		t.Errorf("OnPromptedTools called %d times, prompted %v; want once, true", switched, a.PromptedTools())
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (refused, resent, after the tool)", len(reqs))
	}
	if _, ok := reqs[0].Map()["tools"]; !ok {
		t.Error("the first request has no tools field")
	}
	for i, r := range reqs[1:] {
		m := r.Map()
		if _, ok := m["tools"]; ok {
			t.Errorf("request %d has a tools field after the switch", i+2)
		}
		sys := wireMessages(t, r)[0]
		if sys["role"] != "system" || !strings.Contains(sys["content"].(string), "- read_file(path?: string): test tool read_file") {
			t.Errorf("request %d system prompt does not list the tool: %v", i+2, sys["content"])
		}
	}
	second, third := wireMessages(t, reqs[1]), wireMessages(t, reqs[2])
	if !reflect.DeepEqual(second, third[:len(second)]) {
		t.Errorf("the request after the tool round is not the previous one plus new messages:\n%v\n%v", second, third)
	}
	last := third[len(third)-1]
	if last["role"] != "user" || last["content"] != "<tool_response>\nread_file:{\"path\":\"a.go\"}\n</tool_response>" {
		t.Errorf("tool result sent as %v, want a user <tool_response>", last)
	}
	if call := third[len(third)-2]; call["role"] != "assistant" || call["content"] != hermesCall || call["tool_calls"] != nil {
		t.Errorf("the call went back as %v, want the assistant's text call", call)
	}
}

// TestNativeProtocolKeepsTheRefusalOneClearError: with toolProtocol
// "native" nothing is resent and the one error says how to opt in.
func TestNativeProtocolKeepsTheRefusalOneClearError(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Error(500, noJinja)))
	switched := 0
	res := promptedAgent(t, srv, ToolProtocolNative, &switched).Run(context.Background(), "check a.go")
	if res.StopReason != event.StopProviderError || res.Err == nil || !strings.Contains(res.Err.Error(), `"toolProtocol": "native"`) || !strings.Contains(res.Err.Error(), "--jinja") {
		t.Fatalf("got %+v", res)
	}
	if n := len(srv.Requests()); n != 1 || switched != 0 {
		t.Errorf("%d requests, %d switches; want 1, 0", n, switched)
	}
}

// TestPromptedProtocolStartsPrompted: toolProtocol "prompted" sends no
// tools field from the first request, and recovers the text call even
// with text tool-call recovery switched off in the profile.
func TestPromptedProtocolStartsPrompted(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text(hermesCall)), llmtest.Reply(llmtest.Text("done")))
	switched := 0
	a := promptedAgent(t, srv, ToolProtocolPrompted, &switched)
	a.opts.DisableTextToolCalls = true
	res := a.Run(context.Background(), "check a.go")
	if res.StopReason != event.StopCompleted || res.Totals.ToolCalls != 1 {
		t.Fatalf("got %+v", res)
	}
	for i, r := range srv.Requests() {
		if _, ok := r.Map()["tools"]; ok {
			t.Errorf("request %d has a tools field", i+1)
		}
	}
	if switched != 0 {
		t.Errorf("OnPromptedTools called %d times for a configured choice", switched)
	}
}

// TestOllamaModelWithoutToolsSwitches: Ollama's 400 for a model without
// the tools capability switches too.
func TestOllamaModelWithoutToolsSwitches(t *testing.T) {
	o := llmtest.NewOllama(t, "0.12.6", llmtest.OllamaModel{Name: "m", Arch: "gemma", ContextLength: 8192, Capabilities: []string{"completion"}})
	o.Server.Script(llmtest.Reply(llmtest.Text(hermesCall)), llmtest.Reply(llmtest.Text("done")))
	a := New(Options{Provider: newOpenAI(t, o.URL()+"/v1"), Model: "m", Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	if res := a.Run(context.Background(), "check a.go"); res.StopReason != event.StopCompleted || !a.PromptedTools() || res.Totals.ToolCalls != 1 {
		t.Fatalf("got %+v, prompted %v", res, a.PromptedTools())
	}
}

// TestPromptedToolListIsCompact: one line per tool, required arguments
// unmarked and in schema order, the description's first sentence only.
func TestPromptedToolListIsCompact(t *testing.T) {
	got := promptedToolList([]llm.ToolSpec{{Name: "edit", Description: "Replace text in a file. Long details follow.\nMore.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"old":{"type":"string"},"all":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}}},"required":["path","old"]}`)}})
	if !strings.HasSuffix(got, "\n- edit(path: string, old: string, all?: boolean, tags?: string[]): Replace text in a file.") {
		t.Errorf("tool list:\n%s", got)
	}
}
