package run

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/testbin"
)

// events collects a prompt's events (safe for the parallel children).
type events struct {
	mu  sync.Mutex
	all []event.Event
}

func (e *events) Emit(ev event.Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
}

func (e *events) warnings() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var b strings.Builder
	for _, ev := range e.all {
		if ev.Type == event.Warning {
			b.WriteString(ev.Text + "\n")
		}
	}
	return b.String()
}

// chatRequests are the server's chat completion requests in order.
func chatRequests(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			out = append(out, r)
		}
	}
	return out
}

// writeAgent writes a definition into the user's agents folder.
func writeAgent(t *testing.T, name, file string) {
	testbin.WriteTree(t, filepath.Join(config.Dir(), "agents"), map[string]string{name + ".md": file})
}

// A definition in the user's folder is offered by name; its sub-agent is
// offered only the tools it names (an unknown name is a warning), starts
// from its body, and a Claude alias the config does not map is a warning.
func TestAgentDefinitionNamesItsToolsAndPrompt(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536")
	writeAgent(t, "reviewer", "---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep, Frobnicate\nmodel: haiku\n---\nLook for off-by-one errors.\n")
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"review parser.go","agent":"reviewer"}`)),
		llmtest.Reply(llmtest.Text("No bugs in parser.go.")),
		llmtest.Reply(llmtest.Text("Reviewed.")),
	)
	var evs events
	res := s.Prompt(context.Background(), Turn{Prompt: "review the parser", Sink: &evs})
	if res.Final != "Reviewed." {
		t.Fatalf("parent: %+v", res)
	}
	chat := chatRequests(srv)
	if !strings.Contains(string(chat[0].Body), `reviewer (Reviews code for bugs)`) || !strings.Contains(string(chat[0].Body), `"enum":["explore","general","reviewer"]`) {
		t.Errorf("the task tool does not offer reviewer:\n%s", chat[0].Body)
	}
	got := requestToolNames(chat[1])
	slices.Sort(got)
	if want := []string{"glob", "grep", "list_dir", "read_file"}; !slices.Equal(got, want) {
		t.Errorf("the reviewer is offered %v, want %v", got, want)
	}
	if !strings.Contains(string(chat[1].Body), "Look for off-by-one errors.") {
		t.Errorf("the definition's body is not in the child's request")
	}
	w := evs.warnings()
	for _, want := range []string{`tool "Frobnicate" is not one of Zero's tools`, `model haiku: map it with "agentModels"`} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

// The config's agentModels maps a definition's model: the child's
// requests name it, the parent's keep the session's model.
func TestAgentModelMapsThroughTheConfig(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536")
	testbin.WriteTree(t, config.Dir(), map[string]string{"config.json": `{"agentModels": {"haiku": "small-model"}}`})
	writeAgent(t, "quick", "---\ndescription: Quick lookups\nmodel: haiku\n---\n")
	rt, _ := openIsolated(t, srv, Options{})
	s := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"find main","agent":"quick"}`)),
		llmtest.Reply(llmtest.Text("main.go")),
		llmtest.Reply(llmtest.Text("Found.")),
	)
	if res := s.Prompt(context.Background(), Turn{Prompt: "where is main?"}); res.Final != "Found." {
		t.Fatalf("parent: %+v", res)
	}
	chat := chatRequests(srv)
	models := []any{chat[0].Map()["model"], chat[1].Map()["model"], chat[2].Map()["model"]}
	if models[0] != "m" || models[1] != "small-model" || models[2] != "m" {
		t.Fatalf("models parent, child, parent: %v", models)
	}
}

// A definition never widens its parent's mode: bypassPermissions under a
// parent in normal mode still asks (with a warning), and a definition in
// normal mode under an auto-accept parent asks for what the parent would
// run unasked.
func TestSubagentNeverWidensItsParentsMode(t *testing.T) {
	cases := []struct {
		name, parentMode, defMode, warn string
	}{
		{"bypass under normal", "normal", "bypassPermissions", "wider than the session's normal mode"},
		{"default under auto-accept", "auto-accept", "default", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			isolate(t)
			t.Setenv("ZERO_CONTEXT_WINDOW", "65536")
			writeAgent(t, "writer", "---\ndescription: Writes files\npermissionMode: "+c.defMode+"\n---\n")
			rt, _ := openIsolated(t, srv, Options{Mode: c.parentMode})
			s := openSession(t, rt, Which{})
			srv.Script(
				llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"create notes.txt","agent":"writer"}`)),
				llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"notes.txt","content":"x"}`)),
				llmtest.Reply(llmtest.Text("Denied.")),
				llmtest.Reply(llmtest.Text("The writer was denied.")),
			)
			var asked []string
			var evs events
			res := s.Prompt(context.Background(), Turn{Prompt: "make notes", Sink: &evs, Ask: func(_ context.Context, req permission.Request) permission.Decision {
				asked = append(asked, req.Tool+" | "+req.Why)
				return permission.Decision{Choice: permission.Reject}
			}})
			if res.Final != "The writer was denied." {
				t.Fatalf("parent: %+v", res)
			}
			if len(asked) != 1 || !strings.HasPrefix(asked[0], "write_file | asked by the writer sub-agent") {
				t.Fatalf("asked %q", asked)
			}
			if w := evs.warnings(); !strings.Contains(w, c.warn) {
				t.Errorf("warnings lack %q:\n%s", c.warn, w)
			}
			if rt.Engine.Mode() != permission.Mode(c.parentMode) {
				t.Errorf("the parent's mode changed to %s", rt.Engine.Mode())
			}
		})
	}
}

// disallowedTools takes tools out, and a child is never offered a tool
// its parent is not (here the parent's --disallowed-tools Bash).
func TestSubagentToolsAreWithinItsParents(t *testing.T) {
	srv := llmtest.NewServer(t)
	isolate(t)
	t.Setenv("ZERO_CONTEXT_WINDOW", "65536")
	writeAgent(t, "runner", "---\ndescription: Runs things\ntools: [bash, read_file, write_file]\ndisallowedTools: write_file\n---\n")
	rt, _ := openIsolated(t, srv, Options{Tools: ToolFlags{Disallowed: []string{"Bash"}}})
	s := openSession(t, rt, Which{})
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"run the tests","agent":"runner"}`)),
		llmtest.Reply(llmtest.Text("Cannot run.")),
		llmtest.Reply(llmtest.Text("Done.")),
	)
	if res := s.Prompt(context.Background(), Turn{Prompt: "test it"}); res.Final != "Done." {
		t.Fatalf("parent: %+v", res)
	}
	if got := requestToolNames(chatRequests(srv)[1]); !slices.Equal(got, []string{"read_file"}) {
		t.Fatalf("the runner is offered %v, want [read_file]", got)
	}
}
