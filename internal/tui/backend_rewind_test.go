package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestRewindOfTheOpenSessionRestoresFilesAndCutsTheConversation: the
// app's session is open (locked), so /rewind works in process: the files
// prompt 2 changed (an edit, a shell creation) go back, and the next
// request carries prompt 1's exchange but not prompt 2's.
func TestRewindOfTheOpenSessionRestoresFilesAndCutsTheConversation(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, dir := testBackend(t, srv)
	f := filepath.Join(dir, "f.txt")
	os.WriteFile(f, []byte("one\r\n"), 0o644)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("edit_file", `{"path":"f.txt","old_string":"one","new_string":"two"}`)),
		llmtest.Reply(llmtest.Text("first done")),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"echo three > f.txt && echo new > n.txt"}`)),
		llmtest.Reply(llmtest.Text("second done")),
		llmtest.Reply(llmtest.Text("third done")),
	)
	quiet := event.SinkFunc(func(event.Event) {})
	b.Run(context.Background(), Turn{Prompt: "first prompt", Mode: ModeAutoAccept}, quiet)
	b.Run(context.Background(), Turn{Prompt: "second prompt", Mode: ModeAutoAccept}, quiet)
	if got, _ := os.ReadFile(f); string(got) != "three\n" {
		t.Fatalf("prompt 2 left f.txt %q", got)
	}

	points, err := b.RewindPoints(context.Background())
	if err != nil || len(points) != 2 || points[0].Text != "first prompt" || points[1].Files != 2 {
		t.Fatalf("points %+v, %v", points, err)
	}
	out, err := b.Rewind(context.Background(), RewindRequest{To: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "delete    n.txt") || !strings.Contains(out, "and the conversation (undo: /rewind 3)") {
		t.Errorf("report:\n%s", out)
	}
	if got, _ := os.ReadFile(f); string(got) != "two\r\n" {
		t.Errorf("f.txt is %q after the rewind, want prompt 1's %q", got, "two\r\n")
	}
	if _, err := os.Stat(filepath.Join(dir, "n.txt")); !os.IsNotExist(err) {
		t.Errorf("n.txt still there: %v", err)
	}

	b.Run(context.Background(), Turn{Prompt: "third prompt", Mode: ModeAutoAccept}, quiet)
	reqs := srv.Requests()
	last := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(last, "first prompt") || !strings.Contains(last, "first done") || !strings.Contains(last, "third prompt") {
		t.Errorf("the request after the rewind lost prompt 1 or the new prompt:\n%s", last)
	}
	if strings.Contains(last, "second prompt") || strings.Contains(last, "second done") {
		t.Errorf("the request after the rewind still carries prompt 2:\n%s", last)
	}
}

// TestRewindInTheAppKeepsAConflictAndSaysSo: a file the user changed
// after Zero wrote it is kept and listed; "force" restores it.
func TestRewindInTheAppKeepsAConflictAndSaysSo(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, dir := testBackend(t, srv)
	f := filepath.Join(dir, "f.txt")
	os.WriteFile(f, []byte("one\n"), 0o644)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"f.txt","content":"zero's\n"}`)),
		llmtest.Reply(llmtest.Text("done")),
	)
	b.Run(context.Background(), Turn{Prompt: "write it", Mode: ModeAutoAccept}, event.SinkFunc(func(event.Event) {}))
	os.WriteFile(f, []byte("mine\n"), 0o644)

	out, err := b.Rewind(context.Background(), RewindRequest{To: 1, FilesOnly: true})
	if err != nil || !strings.Contains(out, "conflict  f.txt") || !strings.Contains(out, "/rewind 1 force restores it") {
		t.Fatalf("report %q, %v", out, err)
	}
	if got, _ := os.ReadFile(f); string(got) != "mine\n" {
		t.Fatalf("the user's change was overwritten: %q", got)
	}
	if _, err := b.Rewind(context.Background(), RewindRequest{To: 9}); err == nil || !strings.Contains(err.Error(), "prompts 1 to 2") {
		t.Errorf("rewind to a prompt that is not there: %v", err)
	}
	if _, err := b.Rewind(context.Background(), RewindRequest{To: 1, FilesOnly: true, Force: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(f); string(got) != "one\n" {
		t.Errorf("force left f.txt %q", got)
	}
}

func TestParseRewind(t *testing.T) {
	for _, c := range []struct {
		in   string
		want RewindRequest
		err  string
	}{
		{"3", RewindRequest{To: 3}, ""},
		{"2 files dry", RewindRequest{To: 2, FilesOnly: true, DryRun: true}, ""},
		{"2 conversation force", RewindRequest{To: 2, ConversationOnly: true, Force: true}, ""},
		{"x", RewindRequest{}, "usage"},
		{"0", RewindRequest{}, "usage"},
		{"2 files conversation", RewindRequest{}, "exclude"},
		{"2 sideways", RewindRequest{}, "unknown word"},
	} {
		got, err := parseRewind(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v", c.in, got, err)
		}
	}
}
