package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/tools"
	"github.com/zero-agent/zero/internal/workspace"
)

// smallServer is a fake llama.cpp with a small window in front of two
// scripted llmtest servers: a request whose body is over window tokens
// (bytes/4) gets HTTP 400 with llama.cpp's exceed_context_size_error body
// (shape of case B10 error_05: ggml-org/llama.cpp
// tools/server/server-context.cpp sends "request (%d tokens) exceeds the
// available context size (%d tokens), try increasing it" with
// ERROR_TYPE_EXCEED_CONTEXT_SIZE, and server_task_result_error::to_json in
// tools/server/server-task.cpp adds n_prompt_tokens and n_ctx); requests
// offering tools go to main, the others (summaries) to sum.
type smallServer struct {
	main, sum *llmtest.Server
	srv       *httptest.Server
	mu        sync.Mutex
	window    int // tokens
	// perToken is the bytes of body per token (0: 4); code and JSON
	// escapes tokenize denser than prose on real servers.
	perToken  int
	overflows int
	served    []int // body bytes of the requests that fit
}

func newSmallServer(t *testing.T, window int) *smallServer {
	s := &smallServer{main: llmtest.NewServer(t), sum: llmtest.NewServer(t), window: window}
	proxy := func(target string) *httputil.ReverseProxy {
		u, _ := url.Parse(target)
		p := httputil.NewSingleHostReverseProxy(u)
		p.FlushInterval = -1
		return p
	}
	toMain, toSum := proxy(s.main.URL()), proxy(s.sum.URL())
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		tokens := len(body) / max(s.perToken, 1)
		if s.perToken == 0 {
			tokens = len(body) / 4
		}
		over := tokens > s.window
		if over {
			s.overflows++
		} else {
			s.served = append(s.served, len(body))
		}
		s.mu.Unlock()
		if over {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":{"code":400,"message":"request (%d tokens) exceeds the available context size (%d tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":%d,"n_ctx":%d}}`, tokens, s.window, tokens, s.window)
			return
		}
		var req map[string]any
		_ = json.Unmarshal(body, &req)
		if _, tools := req["tools"]; tools {
			toMain.ServeHTTP(w, r)
		} else {
			toSum.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// bigFiles are large Go distribution sources the window test reads.
var bigFiles = []string{
	"net/http/server.go", "net/http/transport.go", "net/http/request.go", "go/parser/parser.go",
	"go/types/expr.go", "fmt/print.go", "fmt/scan.go", "strconv/quote.go",
	"bufio/bufio.go", "strings/strings.go", "bytes/bytes.go", "encoding/json/decode.go",
}

func TestEightKWindowDozenLargeReads(t *testing.T) {
	root, sess := t.TempDir(), t.TempDir()
	for i, f := range bigFiles {
		b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%02d.go", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root, sess)
	if err != nil {
		t.Fatal(err)
	}
	const window = 8192
	s := newSmallServer(t, window)
	var turns []llmtest.Turn
	for i := range bigFiles {
		turns = append(turns, llmtest.Reply(llmtest.Text(fmt.Sprintf("Reading file %d.", i)), llmtest.ToolCall("read_file", fmt.Sprintf(`{"path":"f%02d.go"}`, i))))
	}
	s.main.Script(append(turns, llmtest.Reply(llmtest.Text("All twelve files use package-level doc comments.")))...)
	for i := 0; i < 10; i++ {
		s.sum.Script(llmtest.Reply(llmtest.Text(fmt.Sprintf("Task: survey twelve files. Read f00.go..f%02d.go so far; each opens with a package doc comment.", i))))
	}
	var mu sync.Mutex
	var evs []event.Event
	sink := event.SinkFunc(func(e event.Event) { mu.Lock(); evs = append(evs, e); mu.Unlock() })
	a := New(Options{
		Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: sink,
		Tools:         tools.NewRegistry(tools.Core(ws, tools.Options{})...),
		System:        "You are a coding agent.",
		ContextWindow: window, SessionDir: sess,
	})
	res := a.Run(context.Background(), "Read each of the twelve files and tell me what they have in common.")
	if res.StopReason != event.StopCompleted {
		t.Fatalf("run did not finish: %+v (overflows %d)", res, s.overflows)
	}
	if s.main.Remaining() != 0 {
		t.Fatalf("%d scripted turns left", s.main.Remaining())
	}
	compactions := 0
	for _, e := range evs {
		if e.Type == event.Compaction {
			compactions++
		}
	}
	if compactions == 0 {
		t.Fatal("no compaction in a dozen 4 KB results against an 8K window")
	}
	// The session log rebuilds exactly the history the agent holds.
	rebuilt, _ := sessions.RebuildHistory(evs)
	got, _ := json.Marshal(rebuilt)
	want, _ := json.Marshal(a.History())
	if !bytes.Equal(got, want) {
		t.Fatalf("rebuilt history differs:\n got %s\nwant %s", got, want)
	}
	rep := a.ContextReport()
	if rep.Compactions != compactions || rep.WindowTokens != window || rep.UsedTokens > window {
		t.Fatalf("report %+v", rep)
	}
	t.Logf("overflows %d, compactions %d, biggest request %d bytes\n%s", s.overflows, compactions, maxOf(s.served), rep)
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// oldTurns builds a history of n earlier read turns with results of size
// bytes each.
func oldTurns(n, size int) []llm.Message {
	h := []llm.Message{llm.TextMessage(llm.RoleUser, "survey the files")}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("old%d", i)
		h = append(h,
			llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: id, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d"}`, i)}}}},
			llm.ToolResultMessage(llm.ToolResult{CallID: id, Name: "read_file", Content: strings.Repeat(fmt.Sprintf("line of file %d\n", i), size/15)}))
	}
	return append(h, llm.TextMessage(llm.RoleAssistant, "Read them all."))
}

func TestContextOverflowReactive(t *testing.T) {
	cases := []struct {
		name     string
		history  []llm.Message
		window   int // the fake server's window, tokens
		want     event.StopReason
		requests int // requests the main server saw, overflows included
		errIs    error
	}{
		// Window unknown to the agent: the 400 triggers one compaction
		// (pruning the stale results) and one retry, which fits.
		{"compact once then retry", oldTurns(10, 3000), 4096, event.StopCompleted, 2, nil},
		// Nothing to prune or summarise: stop with a clear error, no retry.
		{"cannot shrink", []llm.Message{llm.TextMessage(llm.RoleUser, strings.Repeat("x", 5000))}, 512, event.StopError, 1, ErrCompactionFailed},
		// Compaction works but the retry overflows again: stop, no loop.
		{"second overflow stops", oldTurns(10, 3000), 64, event.StopProviderError, 2, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSmallServer(t, tc.window)
			s.main.Script(llmtest.Reply(llmtest.Text("done")))
			s.sum.Script(llmtest.Reply(llmtest.Text("read ten files")))
			rec := &recorder{}
			a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, History: tc.history, RetryBase: 1,
				Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
			res := a.Run(context.Background(), "what next?")
			if res.StopReason != tc.want {
				t.Fatalf("stop %s, want %s: %v", res.StopReason, tc.want, res.Err)
			}
			if n := s.overflows + len(s.main.Requests()); n != tc.requests {
				t.Fatalf("%d requests (%d overflows), want %d", n, s.overflows, tc.requests)
			}
			if tc.errIs != nil && !errors.Is(res.Err, tc.errIs) {
				t.Fatalf("error %v is not %v", res.Err, tc.errIs)
			}
			if tc.want == event.StopProviderError && llm.KindOf(res.Err) != llm.ErrContextOverflow {
				t.Fatalf("error kind %s", llm.KindOf(res.Err))
			}
			// The window the server named is learned for the session.
			if rep := a.ContextReport(); rep.WindowTokens != tc.window {
				t.Fatalf("window learned %d, server said %d", rep.WindowTokens, tc.window)
			}
		})
	}
}

func TestManualCompactSummarisesOnce(t *testing.T) {
	s := newSmallServer(t, 1<<20)
	s.sum.Script(llmtest.Reply(llmtest.Text("The user asked for a survey; ten files were read.")))
	rec := &recorder{}
	hist := oldTurns(10, 3000)
	// Many short turns: pruning alone cannot reach the budget.
	for i := 0; i < 20; i++ {
		hist = append(hist, llm.TextMessage(llm.RoleUser, strings.Repeat("more detail please ", 20)), llm.TextMessage(llm.RoleAssistant, strings.Repeat("here is more detail ", 20)))
	}
	var triggers []string
	a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, History: hist,
		Tools:         tools.NewRegistry(echoTool("read_file", tools.SideRead)),
		BeforeCompact: func(_ context.Context, trigger string) { triggers = append(triggers, trigger) }})
	before := contextmgr.HistoryBytes(a.History())
	msg, err := a.Compact(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(triggers) != 1 || triggers[0] != "manual" {
		t.Fatalf("BeforeCompact (the PreCompact hooks) ran %q, want once, manual", triggers)
	}
	h := a.History()
	after := contextmgr.HistoryBytes(h)
	if after >= before || !strings.Contains(msg, "compacted") {
		t.Fatalf("%q: %d -> %d bytes", msg, before, after)
	}
	if !strings.HasPrefix(h[0].Text(), contextmgr.SummaryPrefix) || !strings.Contains(h[0].Text(), "ten files were read") {
		t.Fatalf("summary message %q", h[0].Text())
	}
	if len(h) < keepRecent {
		t.Fatalf("recent suffix not kept: %d messages", len(h))
	}
	if reqs := s.sum.Requests(); len(reqs) != 1 || reqs[0].Map()["tools"] != nil {
		t.Fatalf("summary request: %d, tools %v", len(reqs), reqs)
	}
	// The low-water mark: a second compaction does not summarise the
	// summary again, and with nothing else to do it says so.
	if _, err := a.Compact(context.Background()); !errors.Is(err, contextmgr.ErrCannotShrink) {
		t.Fatalf("second compaction: %v", err)
	}
	if len(s.sum.Requests()) != 1 {
		t.Fatal("the summary was summarised again")
	}
	rep := a.ContextReport()
	var levers []string
	for _, l := range rep.Levers {
		levers = append(levers, string(l.Lever))
	}
	if !strings.Contains(strings.Join(levers, ","), string(contextmgr.LeverSummary)) || rep.Compactions != 1 {
		t.Fatalf("report %+v", rep)
	}
}

func TestProactiveSummaryInRun(t *testing.T) {
	// Forty short exchanges (~32 KB, nothing worth pruning) against a
	// 6K-token window: the loop asks the model for a summary in a
	// separate request without tools, then sends the compacted history.
	var hist []llm.Message
	for i := 0; i < 40; i++ {
		hist = append(hist,
			llm.TextMessage(llm.RoleUser, fmt.Sprintf("question %d: %s", i, strings.Repeat("why? ", 70))),
			llm.TextMessage(llm.RoleAssistant, fmt.Sprintf("answer %d: %s", i, strings.Repeat("because. ", 40))))
	}
	p := &scripted{turns: [][]llm.Event{
		{text("Forty questions about why; all answered."), finish()},
		{text("final"), finish()},
	}}
	var evs []event.Event
	a := New(Options{Provider: p, Model: "m", History: hist, ContextWindow: 6000,
		Sink:  event.SinkFunc(func(e event.Event) { evs = append(evs, e) }),
		Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	if res := a.Run(context.Background(), "and now?"); res.StopReason != event.StopCompleted || res.Final != "final" {
		t.Fatalf("run %+v", res)
	}
	if len(p.reqs) != 2 || len(p.reqs[0].Tools) != 0 || p.reqs[0].System != summaryPrompt {
		t.Fatalf("first request is not the summary request: %+v", p.reqs[0])
	}
	sent := p.reqs[1].Messages
	if !strings.HasPrefix(sent[0].Text(), contextmgr.SummaryPrefix+"Forty questions") || sent[len(sent)-1].Text() != "and now?" {
		t.Fatalf("compacted request: first %q, last %q", sent[0].Text(), sent[len(sent)-1].Text())
	}
	if est := a.est.Tokens(requestBytes(p.reqs[1])); est > 6000*2/3 {
		t.Fatalf("compacted request still ~%d tokens", est)
	}
	rebuilt, _ := sessions.RebuildHistory(evs)
	got, _ := json.Marshal(rebuilt)
	want, _ := json.Marshal(a.History())
	if !bytes.Equal(got, want) {
		t.Fatalf("session log does not rebuild the compacted history:\n got %s\nwant %s", got, want)
	}
}

func TestProactiveCannotFitStops(t *testing.T) {
	// One 5 KB prompt against a 500-token window: nothing can be pruned
	// or summarised, so the run stops before sending anything.
	p := &scripted{turns: [][]llm.Event{{text("never"), finish()}}}
	res := New(Options{Provider: p, Model: "m", ContextWindow: 500}).Run(context.Background(), strings.Repeat("x", 5000))
	if res.StopReason != event.StopError || !errors.Is(res.Err, contextmgr.ErrCannotShrink) || !strings.Contains(res.Err.Error(), "500-token context window") {
		t.Fatalf("got %+v", res)
	}
	if len(p.reqs) != 0 {
		t.Fatalf("%d requests sent", len(p.reqs))
	}
}
