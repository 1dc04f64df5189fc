package run

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestAssumedOllamaWindowFollowsTheLoadedOne: the model is not loaded at
// start, so the window is Ollama's default (4096, assumed); the first
// request loads it (at 16384 here, as Ollama 0.15.5+ may on a large GPU),
// and after that prompt the session keeps to what /api/ps reports.
func TestAssumedOllamaWindowFollowsTheLoadedOne(t *testing.T) {
	isolate(t)
	const model = "qwen2.5-coder:7b"
	o := llmtest.NewOllama(t, "0.12.6", llmtest.OllamaModel{Name: model, Arch: "qwen2", ContextLength: 32768})
	o.Script(llmtest.Reply(llmtest.Text("Hello.")), llmtest.Reply(llmtest.Text("Again.")))
	var stderr bytes.Buffer
	rt, err := Open(Options{Workdir: CanonicalDir(t.TempDir()), Overrides: config.Overrides{BaseURL: o.URL(), Model: model}, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if _, w := rt.ModelWindow(); w != 4096 {
		t.Fatalf("window at start %d, want the assumed 4096", w)
	}
	sess := openSession(t, rt, Which{})
	var load sync.Once
	// The server loads the model while it answers the first request.
	loads := event.SinkFunc(func(event.Event) { load.Do(func() { o.Load(model, 16384) }) })
	if res := sess.Prompt(context.Background(), Turn{Prompt: "say hello", Sink: loads}); res.StopReason != event.StopCompleted {
		t.Fatalf("stop %s: %v", res.StopReason, res.Err)
	}
	if _, w := rt.ModelWindow(); w != 16384 || sess.ContextReport().WindowTokens != 16384 {
		t.Fatalf("window after the first prompt %d (report %d), want the loaded 16384", w, sess.ContextReport().WindowTokens)
	}
	if !strings.Contains(stderr.String(), "the server loaded qwen2.5-coder:7b with a 16384-token window (ollama /api/ps), not the 4096 assumed at start") {
		t.Errorf("no note of the new window:\n%s", stderr.String())
	}
	// Once is enough: a later prompt asks nothing more.
	before := len(o.Requests())
	sess.Prompt(context.Background(), Turn{Prompt: "again"})
	if n := len(o.Requests()) - before; n != 1 {
		t.Errorf("%d requests for the second prompt, want the chat request alone", n)
	}
}
