package sessions

import (
	"testing"

	"github.com/zero-agent/zero/internal/event"
)

func TestToolOutcomesKeepWhatTheLiveCardShowed(t *testing.T) {
	st, _ := testStore(t)
	s, err := st.Create(Metadata{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	sendPrompt(t, s, "run the tests")
	code := 1
	own := event.ToolOutcome{CallID: "c1", Name: "bash", Content: "FAIL\n", ExitCode: &code, ElapsedMs: 1200}
	child := event.ToolOutcome{CallID: "c2", Name: "read_file", Content: "x"}
	for _, ev := range []event.Event{
		{Type: event.ToolResult, Result: &own},
		{Type: event.ToolResult, Result: &child, ParentToolCallID: "c0"},
	} {
		if err := s.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ToolOutcomes()
	if err != nil {
		t.Fatal(err)
	}
	r, ok := got["c1"]
	if len(got) != 1 || !ok || r.ExitCode == nil || *r.ExitCode != 1 || r.ElapsedMs != 1200 || r.Content != "FAIL\n" {
		t.Fatalf("outcomes %+v", got)
	}
}
