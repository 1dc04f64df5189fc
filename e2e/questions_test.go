package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestAskUserIsAnsweredOverStreamJSON: with -i stream-json the model is
// offered ask_user; its question is a question event and the answer line
// on stdin is the tool's result; the session log keeps both.
func TestAskUserIsAnsweredOverStreamJSON(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "ask_user", `{"question":"Which color?","choices":["red","green"]}`)),
		llmtest.Reply(llmtest.Text("Green it is.")),
	)
	stdin := `{"type":"answer","id":"q1","answer":"2"}` + "\n"
	r := e.run(t.TempDir(), stdin, "exec", "-i", "stream-json", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "paint it")
	evs := streamEvents(t, r.stdout)
	if r.code != 0 || final(evs) != "Green it is." {
		t.Fatalf("exit %d, final %q: %s", r.code, final(evs), r.stderr)
	}
	if !slices.Contains(requestTools(t, srv), "ask_user") {
		t.Errorf("ask_user not offered with stream-json input: %v", requestTools(t, srv))
	}
	qs := eventsOf(evs, "question")
	if len(qs) != 1 {
		t.Fatalf("question events: %v", qs)
	}
	q := qs[0]["question"].(map[string]any)
	field := q["fields"].([]any)[0].(map[string]any)
	if q["id"] != "q1" || q["message"] != "Which color?" || field["kind"] != "choice" {
		t.Errorf("question event %v", q)
	}
	if res := toolResults(evs); len(res) != 1 || res[0]["content"] != "The user answered: green" {
		t.Fatalf("tool results %v", res)
	}
	if len(eventsOf(evs, "answer")) != 1 {
		t.Errorf("no answer event")
	}
}

// TestAskUserWithoutAnyoneToAnswer: a plain exec does not offer ask_user
// (no one could answer), and a model that calls it anyway is told at once
// to go on.
func TestAskUserWithoutAnyoneToAnswer(t *testing.T) {
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "ask_user", `{"question":"Tabs or spaces?"}`)),
		llmtest.Reply(llmtest.Text("Spaces, assumed.")),
	)
	evs, r := execStream(t, e, t.TempDir(), "--base-url", srv.URL(), "--model", "m", "format it")
	if r.code != 0 || final(evs) != "Spaces, assumed." {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if slices.Contains(requestTools(t, srv), "ask_user") {
		t.Errorf("ask_user offered to a run no one can answer")
	}
	if res := toolResults(evs); len(res) != 1 || !strings.Contains(res[0]["content"].(string), "No one can answer") {
		t.Fatalf("tool results %v", res)
	}
}

// TestMCPElicitationIsAnsweredOverStreamJSON: npm's server-everything asks
// for a form (elicitation/create) in the middle of a tool call; Zero puts
// it as a question event, the answer line fills it, and the server's
// result shows the values it received.
func TestMCPElicitationIsAnsweredOverStreamJSON(t *testing.T) {
	e := newEnv(t)
	withEverything(t, e, true)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "mcp__everything__trigger-elicitation-request", `{}`)),
		llmtest.Reply(llmtest.Text("Thanks.")),
	)
	stdin := strings.Join([]string{
		`{"type":"permission_decision","id":"c1","decision":"allow_once"}`,
		`{"type":"answer","id":"mcp-everything-1","values":{"name":"Ada Lovelace","check":"yes","integer":"7","untitledMultipleSelectEnum":"Piano, Drums"}}`,
	}, "\n") + "\n"
	r := e.run(t.TempDir(), stdin, "exec", "-i", "stream-json", "-o", "stream-json", "--base-url", srv.URL(), "--model", "m", "fill the form")
	evs := streamEvents(t, r.stdout)
	if r.code != 0 || final(evs) != "Thanks." {
		t.Fatalf("exit %d, final %q: %s\n%s", r.code, final(evs), r.stderr, r.stdout)
	}
	qs := eventsOf(evs, "question")
	if len(qs) != 1 || qs[0]["question"].(map[string]any)["from"] != "mcp:everything" {
		t.Fatalf("question events %v", qs)
	}
	res := toolResults(evs)
	if len(res) != 1 {
		t.Fatalf("tool results %v", res)
	}
	out := res[0]["content"].(string)
	for _, want := range []string{"Ada Lovelace", "accept", "Piano", "Drums"} {
		if !strings.Contains(out, want) {
			t.Errorf("the server's result lacks %q:\n%s", want, out)
		}
	}
}
