package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestEndToEndRewindInTheApp: the real binary in tmux, auto-accept. Two
// prompts change files through edit_file and bash (its recursive delete
// runs without asking: checkpoints can undo it); /rewind lists them;
// /rewind 2 puts prompt 2's files back (a file the user changed since is
// kept as a conflict) and cuts the conversation; /rewind 3 files undoes
// the rewind's file changes (a rewind of a rewind); the next prompt's
// request carries prompt 1's exchange but not prompt 2's; /rewind 6
// conversation cuts prompt 6 from the next request and keeps its file.
func TestEndToEndRewindInTheApp(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("edit_file", `{"path":"f.txt","old_string":"one","new_string":"two"}`)),
		llmtest.Reply(llmtest.Text("first done")),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"printf 'more\\n' >> keep.txt && echo made > made.txt && rm -r old"}`)),
		llmtest.Reply(llmtest.Text("second done")),
		llmtest.Reply(llmtest.Text("third done")),
		llmtest.Reply(llmtest.ToolCall("bash", `{"command":"echo conv > conv.txt"}`)),
		llmtest.Reply(llmtest.Text("fourth done")),
		llmtest.Reply(llmtest.Text("fifth done")),
	)
	work := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(work, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			return "(absent)"
		}
		return string(b)
	}
	write("f.txt", "one\n")
	write("keep.txt", "keep\n")
	os.Mkdir(filepath.Join(work, "old"), 0o755)
	write("old/a.txt", "old\n")
	x, _ := startAppIn(t, bin, t.TempDir(), work, "--base-url", srv.URL(), "--model", "e2e-model", "--permission-mode", "auto-accept")
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "auto-accept") })
	x.typeLine("first change")
	x.waitFor("the first reply", func(l []string) bool { return contains(l, "first done") && contains(l, "ask anything") })
	x.typeLine("second change")
	x.waitFor("the second reply", func(l []string) bool { return contains(l, "second done") && contains(l, "ask anything") })
	if read("f.txt") != "two\n" || read("keep.txt") != "keep\nmore\n" || read("made.txt") != "made\n" || read("old/a.txt") != "(absent)" {
		t.Fatalf("the prompts did not change the files: %q %q %q", read("f.txt"), read("keep.txt"), read("made.txt"))
	}
	write("made.txt", "mine\n") // the user's change: a conflict

	x.typeLine("/rewind")
	x.waitFor("the prompt list", func(l []string) bool {
		return contains(l, "1  ") && contains(l, "first change") && contains(l, "3 file(s)  second change") && contains(l, "rewind with /rewind N")
	})
	x.typeLine("/rewind 2")
	x.waitFor("the rewind's report", func(l []string) bool {
		return contains(l, "restore   keep.txt") && contains(l, "recreate  old/a.txt") && contains(l, "conflict  made.txt") && contains(l, "1 conflict(s) kept (undo:") && contains(l, "/rewind 3)")
	})
	if read("f.txt") != "two\n" || read("keep.txt") != "keep\n" || read("made.txt") != "mine\n" || read("old/a.txt") != "old\n" {
		t.Fatalf("after /rewind 2: %q %q %q %q", read("f.txt"), read("keep.txt"), read("made.txt"), read("old/a.txt"))
	}
	x.typeLine("/rewind 3 files")
	x.waitFor("the undo's report", func(l []string) bool {
		return contains(l, "restored 2 file(s) to before prompt 3 (undo: /rewind 4)")
	})
	if read("keep.txt") != "keep\nmore\n" || read("old/a.txt") != "(absent)" {
		t.Fatalf("after undoing the rewind: keep.txt %q, old/a.txt %q", read("keep.txt"), read("old/a.txt"))
	}

	x.typeLine("after the rewind")
	x.waitFor("the third reply", func(l []string) bool { return contains(l, "third done") && contains(l, "ask anything") })
	body := lastMessages(srv)
	if !strings.Contains(body, "first change") || !strings.Contains(body, "after the rewind") {
		t.Errorf("the request after the rewind lost prompt 1 or the new prompt: %s", body)
	}
	if strings.Contains(body, "second change") || strings.Contains(body, "second done") {
		t.Errorf("the request after the rewind still carries prompt 2: %s", body)
	}

	// A conversation-only rewind keeps the files prompt 6 wrote.
	x.typeLine("make conv")
	x.waitFor("the fourth reply", func(l []string) bool { return contains(l, "fourth done") && contains(l, "ask anything") })
	x.typeLine("/rewind 6 conversation")
	x.waitFor("the conversation rewind's report", func(l []string) bool {
		return contains(l, "restored the conversation to before prompt 6 (undo: /rewind 7)")
	})
	if read("conv.txt") != "conv\n" {
		t.Fatalf("a conversation-only rewind changed conv.txt: %q", read("conv.txt"))
	}
	x.typeLine("last prompt")
	x.waitFor("the fifth reply", func(l []string) bool { return contains(l, "fifth done") && contains(l, "ask anything") })
	if body := lastMessages(srv); strings.Contains(body, "make conv") || strings.Contains(body, "fourth done") || !strings.Contains(body, "after the rewind") {
		t.Errorf("the request after the conversation rewind: %s", body)
	}
	x.exit()
}

// lastMessages is the messages of the last chat request srv received, as
// JSON.
func lastMessages(srv *llmtest.Server) string {
	var turns []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			turns = append(turns, r)
		}
	}
	body, _ := json.Marshal(turns[len(turns)-1].Map()["messages"])
	return string(body)
}
