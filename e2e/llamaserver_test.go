package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llamatest"
)

// These tests run the real llama.cpp llama-server that .ci/llama-server
// builds (from npm's node-llama-cpp source) with models written by
// internal/llamatest: the server's own chat template, tool-call parser,
// SSE stream, /props, prompt cache and error bodies, end to end.

// llamaServer starts the real server with a model that answers replies.
func llamaServer(t *testing.T, o llamatest.Options, replies ...llamatest.Reply) *llamatest.Server {
	t.Helper()
	return llamatest.Serve(t, o, replies...)
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

// bigFile writes name with n lines of about 60 bytes.
func bigFile(t *testing.T, dir, name string, n int) {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d of the big file, with some words to make it longer\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readThen(path, answer string) []llamatest.Reply {
	return []llamatest.Reply{
		{Messages: 3, Text: "<tool_call>\n\n" + `{"name":"read_file","arguments":{"path":"` + path + `"}}` + "\n</tool_call>"},
		{Messages: 5, Text: answer},
	}
}

// usages are the usage events' objects.
func usages(evs []map[string]any) []map[string]any {
	var out []map[string]any
	for _, ev := range eventsOf(evs, "usage") {
		u, _ := ev["usage"].(map[string]any)
		out = append(out, u)
	}
	return out
}

func warnings(evs []map[string]any) string {
	var b strings.Builder
	for _, ev := range eventsOf(evs, "warning") {
		fmt.Fprintln(&b, ev["text"])
	}
	return b.String()
}

func TestLlamaServerLargeFileFitsSmallWindows(t *testing.T) {
	// A 180 KB file read at -c 2048 and -c 4096: the tool result is cut to
	// what the window holds, every request fits, the task completes. At
	// 2048 Zero's full prompt does not leave room to work: it says so and
	// takes the minimal profile.
	for _, window := range []int{2048, 4096} {
		t.Run(fmt.Sprint(window), func(t *testing.T) {
			srv := llamaServer(t, llamatest.Options{Context: window}, readThen("big.txt", "Read it all.")...)
			dir := t.TempDir()
			bigFile(t, dir, "big.txt", 3000)
			evs, r := execStream(t, newEnv(t), dir, "--base-url", srv.V1(), "read big.txt")
			if r.code != 0 || final(evs) != "Read it all." {
				t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
			}
			res := toolResults(evs)
			if len(res) != 1 || res[0]["keptBytes"].(float64) >= res[0]["rawBytes"].(float64) {
				t.Fatalf("the result was not cut: %v", res)
			}
			us := usages(evs)
			if len(us) != 2 {
				t.Fatalf("%d requests", len(us))
			}
			for i, u := range us {
				if in, out := u["inputTokens"].(float64), u["outputTokens"].(float64); in+out > float64(window) || u["estimated"] == true {
					t.Errorf("request %d: %v+%v tokens by the server's count in a %d window (%v)", i+1, in, out, window, u)
				}
			}
			minimal := strings.Contains(r.stderr, "using the minimal profile")
			if minimal != (window == 2048) {
				t.Errorf("minimal profile %v at %d: %s", minimal, window, r.stderr)
			}
			if minimal {
				// The server's tokenizer counted both profiles at start
				// (/apply-template + /tokenize): no "~", and the minimal
				// one is the first request but for the prompt's words.
				m := regexp.MustCompile(`tools \((\d+) tokens\): using the minimal profile \(\d+ tools, short instructions, (\d+) tokens\)`).FindStringSubmatch(r.stderr)
				if m == nil {
					t.Fatalf("the profile sizes are not counted: %s", r.stderr)
				}
				small, _ := strconv.Atoi(m[2])
				if first := int(us[0]["inputTokens"].(float64)); first < small || first > small+12 {
					t.Errorf("counted %d tokens for the minimal profile, the server then counted %d for the first request", small, first)
				}
			}
			if strings.Contains(srv.Log(), "exceeds the available context size") {
				t.Error("a request was over the window")
			}
		})
	}
}

func TestLlamaServerOverflowIsCompactedAndRetried(t *testing.T) {
	// Digits are one token each in Qwen2's tokenizer, four times what
	// Zero's bytes-per-token estimate expects: the second request passes
	// the window, the server answers exceed_context_size_error, and Zero
	// compacts once and retries.
	srv := llamaServer(t, llamatest.Options{Context: 4096}, readThen("digits.txt", "Got the digits.")...)
	dir := t.TempDir()
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "%064d\n", i*7919)
	}
	os.WriteFile(filepath.Join(dir, "digits.txt"), []byte(strings.ReplaceAll(b.String(), "0", "4")), 0o644)
	evs, r := execStream(t, newEnv(t), dir, "--base-url", srv.V1(), "read digits.txt")
	if r.code != 0 || final(evs) != "Got the digits." {
		t.Fatalf("exit %d, final %q: %s\n%s", r.code, final(evs), r.stderr, r.stdout)
	}
	if n := strings.Count(srv.Log(), "exceeds the available context size"); n != 1 {
		t.Fatalf("the server refused %d requests, want 1", n)
	}
	w := warnings(evs)
	if !strings.Contains(w, "exceeds the model's context window; compacting") || !strings.Contains(w, "context compacted (the server reported a context overflow)") {
		t.Fatalf("warnings:\n%s", w)
	}
	if us := usages(evs); len(us) != 2 || us[1]["inputTokens"].(float64) > 4096 {
		t.Fatalf("usage %v", us)
	}
}

func TestLlamaServerPromptLargerThanTheWindowIsRefusedWithAWayOut(t *testing.T) {
	srv := llamaServer(t, llamatest.Options{Context: 2048}, readNotes...)
	var b strings.Builder
	for i := range 800 {
		fmt.Fprintf(&b, "log line %d: something happened here\n", i)
	}
	r := newEnv(t).run(notesDir(t, "hi\n"), "", "exec", "--base-url", srv.V1(), "why does this fail?\n"+b.String())
	if r.code == 0 || !strings.Contains(r.stderr, "no longer fits the 2048-token context window") ||
		!strings.Contains(r.stderr, "raise the model's window (llama.cpp -c") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.Contains(srv.Log(), "exceeds the available context size") {
		t.Error("Zero sent a request it knew was over the window")
	}
}

func TestLlamaServerLargePipedInputIsSentCut(t *testing.T) {
	// About the same 30 KB as piped input (digits are one token each in
	// Qwen2's vocabulary, so the answer names a line without a repeated one): kept in the session folder, sent as
	// its head and tail, and the run completes inside -c 2048.
	srv := llamaServer(t, llamatest.Options{Context: 2048},
		llamatest.Reply{Messages: 3, Text: "The log ends at entry 790."})
	var b strings.Builder
	for i := range 791 {
		fmt.Fprintf(&b, "log line %d: something happened here\n", i)
	}
	e := newEnv(t)
	r := e.run(t.TempDir(), b.String(), "exec", "-o", "stream-json", "--base-url", srv.V1(), "why does this fail?")
	evs := streamEvents(t, r.stdout)
	if r.code != 0 || final(evs) != "The log ends at entry 790." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	start := eventsOf(evs, "run_start")[0]["prompt"].(string)
	if !strings.Contains(start, "log line 790") || !strings.Contains(start, "stdin-1.txt: read_file it") {
		t.Fatalf("the prompt sent:\n%s", start)
	}
	if u := usages(evs); len(u) != 1 || u[0]["inputTokens"].(float64) > 2048*2/3 {
		t.Fatalf("usage %v", u)
	}
}

// tenAnswers are one-token answers, distinct so that one model holds them all.
var tenAnswers = []string{"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"}

func TestLlamaServerPromptCacheAcrossTenRequests(t *testing.T) {
	// Ten prompts in one session (exec, then nine exec --resume): each
	// request is the previous one plus the last answer and a new prompt,
	// so llama-server's slot reuses the previous prompt and prefills only
	// the new tokens. Counts are the server's own (timings.cache_n).
	var replies []llamatest.Reply
	for i, a := range tenAnswers {
		replies = append(replies, llamatest.Reply{Messages: 3 + 2*i, Text: a})
	}
	srv := llamaServer(t, llamatest.Options{Context: 8192}, replies...)
	e := newEnv(t)
	dir := t.TempDir()
	prevPrompt := 0.0
	for i, want := range tenAnswers {
		args := []string{"--base-url", srv.V1()}
		if i > 0 {
			args = append(args, "--resume")
		}
		evs, r := execStream(t, e, dir, append(args, fmt.Sprintf("say the number %d", i+1))...)
		if r.code != 0 || final(evs) != want {
			t.Fatalf("request %d: exit %d, final %q, want %q: %s", i+1, r.code, final(evs), want, r.stderr)
		}
		us := usages(evs)
		if len(us) != 1 {
			t.Fatalf("request %d: %d usage events", i+1, len(us))
		}
		prompt := us[0]["inputTokens"].(float64)
		cached, _ := us[0]["cacheReadTokens"].(float64)
		if i > 0 && cached < 0.9*prevPrompt {
			t.Errorf("request %d reused %v of the previous %v prompt tokens (want >= 90%%)", i+1, cached, prevPrompt)
		}
		t.Logf("request %d: prompt %v tokens, %v from the cache", i+1, prompt, cached)
		prevPrompt = prompt
	}
}
