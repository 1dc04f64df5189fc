package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zero-agent/zero/internal/llamatest"
)

// These tests run the real llama.cpp llama-server that .ci/llama-server
// builds (from npm's node-llama-cpp source) with models written by
// internal/llamatest: the server's own chat template, tool-call parser,
// SSE stream, /props, prompt cache and error bodies, end to end.

// qwenTemplate is the chat template the models carry: Qwen2.5-Instruct's,
// from llama.cpp's models/templates.
const qwenTemplate = "Qwen-Qwen2.5-7B-Instruct"

var llamaFiles = sync.OnceValues(func() (*llamaKit, error) {
	bin, err := llamatest.Binary()
	if err != nil {
		return nil, err
	}
	files := llamatest.FilesFor(bin)
	vocab, err := llamatest.LoadVocab(files.Vocab())
	if err != nil {
		return nil, err
	}
	tmpl, err := files.Template(qwenTemplate)
	if err != nil {
		return nil, err
	}
	return &llamaKit{bin: bin, vocab: vocab, template: tmpl}, nil
})

type llamaKit struct {
	bin      string
	vocab    *llamatest.Vocab
	template string
}

// llamaServer writes a model that answers replies and starts llama-server
// with it.
func llamaServer(t *testing.T, o llamatest.Options, replies ...llamatest.Reply) *llamatest.Server {
	t.Helper()
	kit, err := llamaFiles()
	if err != nil {
		t.Fatal(err)
	}
	m, err := llamatest.Build(llamatest.Spec{Vocab: kit.vocab, Template: kit.template, Replies: replies, Name: "qwen2.5-zero-test"})
	if err != nil {
		t.Fatal(err)
	}
	o.Model = filepath.Join(t.TempDir(), "model.gguf")
	if err := m.WriteFile(o.Model); err != nil {
		t.Fatal(err)
	}
	return llamatest.Start(t, kit.bin, o)
}

// readNotes is a tool round: the model reads notes.txt, then answers.
var readNotes = []llamatest.Reply{
	// Qwen2.5's layout but for "\n\n" after the marker: a reply cannot hold
	// a bare "\n" (llamatest's doc), and the server's parser skips either.
	{Messages: 3, Text: "<tool_call>\n\n" + `{"name":"read_file","arguments":{"path":"notes.txt"}}` + "\n</tool_call>"},
	{Messages: 5, Text: "The notes say hello."},
}

func notesDir(t *testing.T, content string) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// streamEvents parses stream-json output into its events.
func streamEvents(t *testing.T, out string) []map[string]any {
	t.Helper()
	var evs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		evs = append(evs, ev)
	}
	return evs
}

func eventsOf(evs []map[string]any, typ string) []map[string]any {
	var out []map[string]any
	for _, ev := range evs {
		if ev["type"] == typ {
			out = append(out, ev)
		}
	}
	return out
}

// execStream runs zero exec -o stream-json and returns its events.
func execStream(t *testing.T, e *env, dir string, args ...string) ([]map[string]any, result) {
	t.Helper()
	r := e.run(dir, "", append([]string{"exec", "-o", "stream-json"}, args...)...)
	if strings.TrimSpace(r.stdout) == "" {
		t.Fatalf("exit %d, no events: %s", r.code, r.stderr)
	}
	return streamEvents(t, r.stdout), r
}

// final is the run's final answer, or "".
func final(evs []map[string]any) string {
	for _, ev := range eventsOf(evs, "final") {
		s, _ := ev["text"].(string)
		return s
	}
	return ""
}

// toolResults are the tool_result events' result objects.
func toolResults(evs []map[string]any) []map[string]any {
	var out []map[string]any
	for _, ev := range eventsOf(evs, "tool_result") {
		r, _ := ev["result"].(map[string]any)
		out = append(out, r)
	}
	return out
}

func contextWindow(evs []map[string]any) float64 {
	for _, ev := range eventsOf(evs, "run_start") {
		n, _ := ev["contextWindow"].(float64)
		return n
	}
	return 0
}

func TestLlamaServerNativeToolRound(t *testing.T) {
	srv := llamaServer(t, llamatest.Options{Context: 8192}, readNotes...)
	dir := notesDir(t, "hello from the notes\n")
	evs, r := execStream(t, newEnv(t), dir, "--base-url", srv.V1(), "what do the notes say?")
	if r.code != 0 || final(evs) != "The notes say hello." {
		t.Fatalf("exit %d, final %q: %s\n%s", r.code, final(evs), r.stderr, r.stdout)
	}
	if w := contextWindow(evs); w != 8192 {
		t.Errorf("window %v, want /props' 8192", w)
	}
	calls := eventsOf(evs, "tool_call")
	if len(calls) != 1 {
		t.Fatalf("%d tool calls", len(calls))
	}
	if call := calls[0]["toolCall"].(map[string]any); call["name"] != "read_file" || call["recovered"] == true {
		t.Errorf("the server's parser should have made the call: %v", call)
	}
	if res := toolResults(evs); len(res) != 1 || !strings.Contains(res[0]["content"].(string), "hello from the notes") {
		t.Errorf("tool results %v", res)
	}
}

func TestLlamaServerTwoSlotsHalveTheWindow(t *testing.T) {
	// -np 2 splits -c between the slots; /props reports one slot's share.
	srv := llamaServer(t, llamatest.Options{Context: 8192, Slots: 2}, readNotes...)
	evs, r := execStream(t, newEnv(t), notesDir(t, "hi\n"), "--base-url", srv.V1(), "what do the notes say?")
	if r.code != 0 || final(evs) != "The notes say hello." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	if w := contextWindow(evs); w != 4096 {
		t.Errorf("window %v, want one slot's 4096", w)
	}
}

func TestLlamaServerFoundWithoutABaseURL(t *testing.T) {
	// llama-server's default port; nothing configured.
	srv := llamaServer(t, llamatest.Options{Context: 8192, Port: 8080}, readNotes...)
	_ = srv
	evs, r := execStream(t, newEnv(t), notesDir(t, "hi\n"), "what do the notes say?")
	if r.code != 0 || final(evs) != "The notes say hello." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
}

func TestLlamaServerToolCallWrittenAsText(t *testing.T) {
	// No <tool_call> markup: the server's parser passes it on as text, and
	// Zero's recovery finds the call.
	srv := llamaServer(t, llamatest.Options{Context: 8192},
		llamatest.Reply{Messages: 3, Text: `{"name":"read_file","arguments":{"path":"notes.txt"}}`},
		llamatest.Reply{Messages: 5, Text: "The notes say hello."})
	evs, r := execStream(t, newEnv(t), notesDir(t, "hi\n"), "--base-url", srv.V1(), "what do the notes say?")
	if r.code != 0 || final(evs) != "The notes say hello." {
		t.Fatalf("exit %d, final %q: %s\n%s", r.code, final(evs), r.stderr, r.stdout)
	}
	calls := eventsOf(evs, "tool_call")
	if len(calls) != 1 || calls[0]["toolCall"].(map[string]any)["recovered"] != true {
		t.Fatalf("tool calls %v", calls)
	}
}

func TestLlamaServerWithoutJinjaGetsPromptedTools(t *testing.T) {
	// --no-jinja: the server refuses a tools field (HTTP 500, "tools param
	// requires --jinja flag"); Zero lists the tools in the system prompt
	// and reads the call from the text.
	srv := llamaServer(t, llamatest.Options{Context: 8192, NoJinja: true}, readNotes...)
	evs, r := execStream(t, newEnv(t), notesDir(t, "hello from the notes\n"), "--base-url", srv.V1(), "what do the notes say?")
	if r.code != 0 || final(evs) != "The notes say hello." {
		t.Fatalf("exit %d, final %q: %s\n%s", r.code, final(evs), r.stderr, r.stdout)
	}
	if res := toolResults(evs); len(res) != 1 || !strings.Contains(res[0]["content"].(string), "hello from the notes") {
		t.Errorf("tool results %v", res)
	}
}
