package cli

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/sessions"
)

// `zero context` reads the server's counts from the session log: the last
// prompt as measured, the estimates calibrated on it, and the prompt
// cache's hit rate over the session and for the last request (issue 11
// items 4 and 5).
func TestContextShowsLoggedCacheHitRate(t *testing.T) {
	s := localSession(t)
	ask := llm.TextMessage(llm.RoleUser, "hello")
	reply := llm.TextMessage(llm.RoleAssistant, strings.Repeat("an answer ", 40))
	again := llm.TextMessage(llm.RoleUser, "and again")
	for _, ev := range []event.Event{
		{Type: event.RunStart, Prompt: "hello", ContextWindow: 8192},
		{Type: event.Message, Message: &ask},
		{Type: event.Usage, Usage: &llm.Usage{InputTokens: 1000, OutputTokens: 100}},
		{Type: event.Message, Message: &reply},
		{Type: event.RunStart, Prompt: "and again", ContextWindow: 8192},
		{Type: event.Message, Message: &again},
		{Type: event.Usage, Usage: &llm.Usage{InputTokens: 1200, OutputTokens: 20, CacheReadTokens: 990}},
		{Type: event.Usage, Usage: &llm.Usage{InputTokens: 9999, Estimated: true}},
	} {
		if err := s.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	r := zero("context")
	if r.code != ExitOK {
		t.Fatalf("exit %d:\n%s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{
		"measured by the server: last request 1200 prompt tokens, 20 output tokens\n",
		"bytes/token (as the server counted the last request)\n",
		"prompt cache: 45% of prompt tokens read from the server's cache (990 of 2200 in 2 requests); last request 82% (990 of 1200)\n",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("zero context lacks %q:\n%s", want, r.out)
		}
	}
	t.Log(r.out)
}

// localSession is a new stored session of a local model in an isolated
// home, with the test's working directory as its workspace.
func localSession(t *testing.T) *sessions.Session {
	t.Helper()
	_, here := isolate(t)
	st, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Create(sessions.Metadata{Workspace: here, Model: "some-local-model"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
