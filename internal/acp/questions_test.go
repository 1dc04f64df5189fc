package acp

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

func TestAQuestionWithChoicesIsAskedAsAPermissionRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("ask_user", `{"question":"Which colour?","choices":["red","blue"]}`)),
		llmtest.Reply(llmtest.ToolCall("ask_user", `{"question":"What name?"}`)),
		llmtest.Reply(llmtest.Text("Blue it is.")),
	)
	c := &client{answer: "answer-1"}
	b := startBridge(t, srv, c)
	id := b.newSession(t, dir)
	b.prompt(t, id, "paint it")
	reqs := srv.Requests()
	var bodies []string
	for _, r := range reqs {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			bodies = append(bodies, string(r.Body))
		}
	}
	if len(bodies) != 3 || !strings.Contains(bodies[0], `"name":"ask_user"`) {
		t.Fatalf("%d requests; ask_user offered: %v", len(bodies), len(bodies) > 0 && strings.Contains(bodies[0], `"name":"ask_user"`))
	}
	if !strings.Contains(bodies[1], "The user answered: blue") {
		t.Errorf("the choice did not reach the model: %s", bodies[1])
	}
	// A free-text question cannot be put to the editor: declined, not
	// asked.
	if len(c.asked) != 1 || !strings.Contains(bodies[2], "did not answer (decline)") {
		t.Errorf("asked %d times; the model read: %s", len(c.asked), bodies[2])
	}
	p := c.asked[0]
	if p.ToolCall.Title == nil || *p.ToolCall.Title != "Which colour?" || len(p.Options) != 3 || p.Options[1].Name != "blue" || p.Options[2].OptionId != questionDecline {
		t.Errorf("the question's request: %s", jsonOf(p))
	}
	var started, ended bool
	for _, u := range c.seen() {
		if u.ToolCall != nil && u.ToolCall.ToolCallId == p.ToolCall.ToolCallId {
			started = true
		}
		if u.ToolCallUpdate != nil && u.ToolCallUpdate.ToolCallId == p.ToolCall.ToolCallId && u.ToolCallUpdate.Status != nil {
			ended = true
		}
	}
	if !started || !ended {
		t.Errorf("the question's own tool call: started %v, ended %v", started, ended)
	}
}
