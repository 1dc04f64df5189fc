package tui

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// The model's ask_user opens a question form in the app: the choices are
// numbered, "2" picks the second, and the answer is the tool's result the
// model reads next.
func TestAppAnswersTheModelsQuestion(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("ask_user", `{"question":"Which color?","choices":["red","green"]}`)),
		llmtest.Reply(llmtest.Text("Green it is.")),
	)
	x, _ := startAppInTmux(t, buildZero(t), "--base-url", srv.URL(), "--model", "e2e-model")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") })
	x.typeLine("paint the shed")
	x.waitFor("the question form", func(l []string) bool {
		return contains(l, "the model asks: Which color?") && contains(l, "1 red  2 green")
	})
	pause() // an Enter in the burst that opened the form is not an answer
	x.typeLine("2")
	x.waitFor("the answer", func(l []string) bool { return contains(l, "answered green") && contains(l, "Green it is.") })
	reqs := srv.Requests()
	last := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(last, "The user answered: green") {
		t.Fatalf("the model did not get the answer:\n%s", last)
	}
}

// An MCP server's elicitation opens the same form, one field at a time:
// a wrong value says why and stays, Enter takes a default, and the
// server gets the typed values.
func TestAppAnswersAnMCPElicitation(t *testing.T) {
	home := homeWithTestServer(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("mcp__tester__elicit", `{}`)),
		llmtest.Reply(llmtest.Text("The server has the form.")),
	)
	x, _ := startAppWithHome(t, buildZero(t), home, "--base-url", srv.URL(), "--model", "e2e-model", "--auto-approve")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") })
	x.typeLine("fill the form")
	// The test server's schema is a Go map: its fields come sorted.
	x.waitFor("the first field", func(l []string) bool {
		return contains(l, "MCP server tester asks: Who is there?") && contains(l, "(1/4) agree") && contains(l, "yes or no")
	})
	pause()
	x.typeLine("y")
	x.waitFor("the second field", func(l []string) bool { return contains(l, "(2/4) color") && contains(l, "1 red  2 green") })
	pause()
	x.typeLine("green")
	x.waitFor("the third field", func(l []string) bool { return contains(l, "(3/4) count") && contains(l, "enter for 1") })
	pause()
	x.typeLine("many")
	x.waitFor("the error", func(l []string) bool { return contains(l, "count: many is not a number") })
	x.run("send-keys", "-t", "zero", "C-u")
	pause()
	x.typeLine("") // the default, 1
	x.waitFor("the fourth field", func(l []string) bool { return contains(l, "(4/4) Your name") })
	pause()
	x.typeLine("Ada")
	x.waitFor("the result", func(l []string) bool {
		return contains(l, "The server has the form.") && contains(l, "accept agree=true color=green count=1 name=Ada")
	})
}
