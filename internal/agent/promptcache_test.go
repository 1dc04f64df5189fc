package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// cacheSession runs one ten-request task through the real agent loop, the
// OpenAI provider and the session log against the fake llama-server with
// its prompt cache on (llmtest.LlamaServerCache): nine tool calls (reads,
// listing, search, a write, a shell command) and the answer.
func cacheSession(t *testing.T) (*Agent, *llmtest.Server, []event.Event) {
	t.Helper()
	root, sess := t.TempDir(), t.TempDir()
	for i := range 4 {
		src := fmt.Sprintf("package p\n\n// F%d is file %d.\nfunc F%d() int { return %d }\n%s", i, i, i, i, strings.Repeat("// filler line of code\n", 40*(i+1)))
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.go", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root, sess)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t)
	srv.LlamaServerCache()
	calls := []llmtest.Step{
		llmtest.ToolCall("list_dir", `{}`),
		llmtest.ToolCall("read_file", `{"path":"f0.go"}`),
		llmtest.ToolCall("read_file", `{"path":"f1.go"}`),
		llmtest.ToolCall("grep", `{"pattern":"func F"}`),
		llmtest.ToolCall("read_file", `{"path":"f2.go"}`),
		llmtest.ToolCall("glob", `{"pattern":"*.go"}`),
		llmtest.ToolCall("write_file", `{"path":"notes.md","content":"`+strings.Repeat("F0 to F3 return their index. ", 30)+`"}`),
		llmtest.ToolCall("read_file", `{"path":"f3.go"}`),
		llmtest.ToolCall("bash", `{"command":"ls"}`),
	}
	for i, c := range calls {
		srv.Script(llmtest.Reply(llmtest.Text(fmt.Sprintf("Step %d.", i+1)), c.Split(3)))
	}
	srv.Script(llmtest.Reply(llmtest.Text("Each of F0 to F3 returns its index; notes.md says so.")))

	store := sessions.Open(t.TempDir())
	log, err := store.Create(sessions.Metadata{Workspace: root, Provider: "local", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	a := New(Options{
		Provider: newOpenAI(t, srv.URL()), Model: "m", Sink: log,
		System:        SystemPrompt(root, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), ""),
		Tools:         tools.NewRegistry(tools.Core(ws, tools.Options{})...),
		Gate:          GateFunc(func(context.Context, llm.ToolCall, tools.Tool) Decision { return Decision{Allow: true} }),
		ContextWindow: 32_768, SessionDir: sess,
	})
	if res := a.Run(context.Background(), "What do the Go files here return? Write it down in notes.md."); res.StopReason != event.StopCompleted {
		t.Fatalf("run %+v", res)
	}
	if n := srv.Remaining(); n != 0 {
		t.Fatalf("%d scripted turns left", n)
	}
	evs, _, err := log.Events()
	if err != nil {
		t.Fatal(err)
	}
	return a, srv, evs
}

// Each request of a ten-request session prefills only its new tokens: at
// least 90% of the previous prompt comes from the server's cache. Zero's
// requests are append-only as a template renders them (the system prompt,
// tool list and earlier messages byte for byte the same), which is what
// llama-server's prompt cache needs (issue 11 item 5).
func TestTenRequestSessionReusesPromptCache(t *testing.T) {
	_, srv, _ := cacheSession(t)
	counts := srv.PromptCounts()
	if len(counts) != 10 {
		t.Fatalf("%d chat requests, want 10: %+v", len(counts), counts)
	}
	for i := 1; i < len(counts); i++ {
		prev, cur := counts[i-1], counts[i]
		if cur.Cached*10 < prev.Tokens*9 {
			t.Errorf("request %d reused %d of the previous prompt's %d tokens (under 90%%); it prefilled %d", i+1, cur.Cached, prev.Tokens, cur.Tokens-cur.Cached)
		}
	}
	t.Logf("prompt tokens (cached): %+v", counts)
}

// The session log keeps the server's count of every request: the prompt,
// and how much of it came from the cache, as the usage event's
// cacheReadTokens.
func TestSessionLogKeepsCachedTokens(t *testing.T) {
	_, srv, evs := cacheSession(t)
	counts := srv.PromptCounts()
	var logged []llmtest.PromptCount
	for _, e := range evs {
		if e.Type != event.Usage || e.Usage == nil {
			continue
		}
		if e.Usage.Estimated {
			t.Fatalf("an estimated usage in the log: %+v", e.Usage)
		}
		logged = append(logged, llmtest.PromptCount{Tokens: e.Usage.InputTokens, Cached: e.Usage.CacheReadTokens})
	}
	if fmt.Sprint(logged) != fmt.Sprint(counts) {
		t.Errorf("logged usage %v\nserver counted %v", logged, counts)
	}
}

// After the session /context reports the server's figures as measured:
// the last prompt, the estimator's ratio taken from it (the same request
// estimated again is the server's count), and the cache hit rate over the
// session and for the last request.
func TestCacheHitRateShownInContext(t *testing.T) {
	a, srv, _ := cacheSession(t)
	counts := srv.PromptCounts()
	last := counts[len(counts)-1]
	r := a.ContextReport()
	prompt, cached := 0, 0
	for _, c := range counts {
		prompt += c.Tokens
		cached += c.Cached
	}
	switch {
	case !r.Calibrated || r.LastInputTokens != last.Tokens:
		t.Errorf("last request %d tokens (calibrated %v), the server counted %d", r.LastInputTokens, r.Calibrated, last.Tokens)
	case a.est.Tokens(a.lastBytes) != last.Tokens:
		t.Errorf("the last request re-estimated is %d tokens, the server counted %d", a.est.Tokens(a.lastBytes), last.Tokens)
	case r.Cache.Requests != 10 || r.Cache.PromptTokens != prompt || r.Cache.CachedTokens != cached:
		t.Errorf("cache account %+v, want 10 requests, %d prompt, %d cached", r.Cache, prompt, cached)
	}
	out := r.String()
	want := []string{
		fmt.Sprintf("measured by the server: last request %d prompt tokens", last.Tokens),
		"estimated: every figure marked ~, at ",
		fmt.Sprintf("prompt cache: %d%% of prompt tokens read from the server's cache (%d of %d in 10 requests); last request %d%% (%d of %d)",
			cached*100/prompt, cached, prompt, last.Cached*100/last.Tokens, last.Cached, last.Tokens),
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("/context lacks %q:\n%s", w, out)
		}
	}
	t.Log(out)
}
