package run

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// hermesRead is a tool call written as text, the way the prompted tool
// list asks for it.
const hermesRead = `<tool_call>{"name":"read_file","arguments":{"path":"a.go"}}</tool_call>`

// openOver opens a runtime and a session over base with model, in a fresh
// workspace but the test's HOME (so what one run remembers, the next
// sees), and runs one prompt to completion.
func openOver(t *testing.T, base, model string) (*bytes.Buffer, string) {
	t.Helper()
	var stderr bytes.Buffer
	rt, err := Open(Options{Workdir: CanonicalDir(t.TempDir()), Overrides: config.Overrides{BaseURL: base, Model: model}, Stderr: &stderr})
	if err != nil {
		t.Fatalf("Open: %v (%s)", err, stderr.String())
	}
	defer rt.Close()
	sess := openSession(t, rt, Which{})
	res := sess.Prompt(context.Background(), Turn{Prompt: "check a.go"})
	if res.StopReason != event.StopCompleted {
		t.Fatalf("stop %s: %v (%s)", res.StopReason, res.Err, stderr.String())
	}
	return &stderr, res.Final
}

// chats are the chat requests srv received, in order.
func chats(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			out = append(out, r)
		}
	}
	return out
}

func hasTools(r llmtest.Request) bool { _, ok := r.Map()["tools"]; return ok }

// TestRefusedToolsAreRememberedForTheNextRun: llama-server without
// --jinja refuses the first request of the first run; the session goes
// prompted and writes the server and model down, and the next run starts
// prompted: its first request carries no tools field and is not refused.
func TestRefusedToolsAreRememberedForTheNextRun(t *testing.T) {
	isolate(t)
	l := llmtest.NewLlamaCpp(t, "qwen2.5-coder-0.5b-q8_0.gguf", 16384).NoJinja()
	const model = "qwen2.5-coder-0.5b-q8_0.gguf"
	l.Script(llmtest.Reply(llmtest.Text(hermesRead)), llmtest.Reply(llmtest.Text("a.go is fine.")))
	_, final := openOver(t, l.URL()+"/v1", model)
	first := chats(l.Server)
	if final != "a.go is fine." || len(first) != 3 || !hasTools(first[0]) || hasTools(first[1]) {
		t.Fatalf("first run: final %q, %d chat requests (want 3: refused with tools, then prompted)", final, len(first))
	}
	m, err := readToolMemory(toolMemoryPath())
	if err != nil || m.find(l.URL(), model) < 0 {
		t.Fatalf("not remembered: %+v, %v", m, err)
	}

	l.Script(llmtest.Reply(llmtest.Text(hermesRead)), llmtest.Reply(llmtest.Text("still fine.")))
	stderr, final := openOver(t, l.URL(), model) // the same server named without /v1
	second := chats(l.Server)[len(first):]
	if final != "still fine." || len(second) != 2 || hasTools(second[0]) || hasTools(second[1]) {
		t.Fatalf("second run: final %q, %d chat requests, tools in the first: %v; want 2, none", final, len(second), len(second) > 0 && hasTools(second[0]))
	}
	if !strings.Contains(stderr.String(), "an earlier run found the server refuses native tool calls") {
		t.Errorf("the second run does not say why it starts prompted:\n%s", stderr)
	}
}

// TestConfiguredNativeToolsOverrideTheMemory: "toolProtocol": "native"
// sends tools even to a server remembered as refusing them, and forgets
// the remembered choice.
func TestConfiguredNativeToolsOverrideTheMemory(t *testing.T) {
	isolate(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	if err := rememberPrompted(toolMemoryPath(), srv.URL()+"/v1", "m", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	writeUserConfig(t, `{"toolProtocol": "native"}`)
	openOver(t, srv.URL()+"/v1", "m")
	if c := chats(srv); len(c) != 1 || !hasTools(c[0]) {
		t.Fatalf("want one request with tools, got %d", len(c))
	}
	if m, _ := readToolMemory(toolMemoryPath()); m.find(srv.URL(), "m") >= 0 {
		t.Errorf("native did not forget the remembered choice: %+v", m)
	}
}

// TestOllamaModelWithoutToolsStartsPrompted: Ollama lists no "tools"
// capability for the model, so the first request already lists the tools
// in the prompt (Ollama would refuse a tools field with HTTP 400).
func TestOllamaModelWithoutToolsStartsPrompted(t *testing.T) {
	isolate(t)
	o := llmtest.NewOllama(t, "0.12.6", llmtest.OllamaModel{Name: "stablelm2:latest", Arch: "stablelm", ContextLength: 4096, Loaded: 4096, Capabilities: []string{"completion"}})
	o.Script(llmtest.Reply(llmtest.Text(hermesRead)), llmtest.Reply(llmtest.Text("a.go is fine.")))
	stderr, final := openOver(t, o.URL()+"/v1", "stablelm2:latest")
	c := chats(o.Server)
	if final != "a.go is fine." || len(c) != 2 || hasTools(c[0]) {
		t.Fatalf("final %q, %d chat requests; want 2 without tools", final, len(c))
	}
	if !strings.Contains(stderr.String(), `Ollama lists no "tools" capability for stablelm2:latest`) {
		t.Errorf("no note about the missing capability:\n%s", stderr)
	}
	if _, err := os.Stat(toolMemoryPath()); err == nil {
		t.Error("a choice discovery makes each run was written to the memory")
	}
}

// TestToolMemoryKeysByServerAndModel: a server is the same with and
// without "/v1" or a trailing slash, each model is its own entry and is
// written once, and a damaged file is an error to read but is replaced
// by the next write.
func TestToolMemoryKeysByServerAndModel(t *testing.T) {
	path := t.TempDir() + "/zero/tool-protocols.json"
	at := time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC)
	for range 2 {
		if err := rememberPrompted(path, "http://127.0.0.1:8080/v1/", "a.gguf", at); err != nil {
			t.Fatal(err)
		}
	}
	m, err := readToolMemory(path)
	if err != nil || len(m.Prompted) != 1 || m.find("http://127.0.0.1:8080", "a.gguf") != 0 || m.find("http://127.0.0.1:8080/v1", "b.gguf") != -1 || m.find("http://127.0.0.1:8081", "a.gguf") != -1 {
		t.Fatalf("memory %+v, %v", m, err)
	}
	if err := forgetPrompted(path, "http://127.0.0.1:8080", "a.gguf"); err != nil {
		t.Fatal(err)
	}
	if m, _ := readToolMemory(path); len(m.Prompted) != 0 {
		t.Fatalf("not forgotten: %+v", m)
	}
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := readToolMemory(path); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("damaged file: %v", err)
	}
	if err := rememberPrompted(path, "http://127.0.0.1:8080", "a.gguf", at); err != nil {
		t.Fatal(err)
	}
	if m, err := readToolMemory(path); err != nil || len(m.Prompted) != 1 || !m.Prompted[0].Since.Equal(at) {
		t.Errorf("after replacing a damaged file: %+v, %v", m, err)
	}
}
