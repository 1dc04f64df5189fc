package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/tools"
)

// TestCompactionKeepsTheUsersTask: a summary that leaves out the user's
// task does not lose it: the run's prompt (and the most recent user
// message) are kept verbatim right after the summary, both by /compact and
// by a compaction inside a run.
func TestCompactionKeepsTheUsersTask(t *testing.T) {
	const task = "TASK-7: rename Foo to Bar in every file under pkg/, keep the tests green."
	note := strings.Repeat("notes on what I read. ", 20)
	bulky := &fakeTool{name: "read_file", side: tools.SideRead, run: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
		return tools.Result{Content: strings.Repeat("func Foo() {} // "+string(args)+"\n", 20)}, nil
	}}
	script := func(n int) []llmtest.Turn {
		var turns []llmtest.Turn
		for i := 0; i < n; i++ {
			turns = append(turns, llmtest.Reply(llmtest.Text(note), llmtest.ToolCall("read_file", fmt.Sprintf(`{"path":"f%d.go"}`, i))))
		}
		return append(turns, llmtest.Reply(llmtest.Text("Renamed.")))
	}
	pinned := summaryText("Some files were read.") + "\n\n" + contextmgr.PinnedLabel + "\n\n" + task
	t.Run("manual compact after the run", func(t *testing.T) {
		s := newSmallServer(t, 1<<20)
		s.main.Script(script(10)...)
		s.sum.Script(llmtest.Reply(llmtest.Text("Some files were read.")))
		rec := &recorder{}
		a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Sink: rec, Tools: tools.NewRegistry(bulky), RetryBase: time.Millisecond})
		if res := a.Run(context.Background(), task); res.StopReason != event.StopCompleted {
			t.Fatalf("run %+v", res)
		}
		if _, err := a.Compact(context.Background()); err != nil {
			t.Fatal(err)
		}
		h := a.History()
		if h[0].Text() != pinned {
			t.Fatalf("compacted head %q, want %q", h[0].Text(), pinned)
		}
		if strings.Contains(rec.texts(event.Warning), "merged two consecutive user messages") {
			t.Fatalf("repair warned: %s", rec.texts(event.Warning))
		}
	})
	t.Run("resumed session: first and latest user message", func(t *testing.T) {
		s := newSmallServer(t, 1<<20)
		s.sum.Script(llmtest.Reply(llmtest.Text("Some files were read.")))
		hist := []llm.Message{llm.TextMessage(llm.RoleUser, task)}
		for i := 0; i < 12; i++ {
			user := emptyTurnNudge
			if i == 6 {
				user = "Also rename Baz to Qux."
			}
			hist = append(hist, llm.TextMessage(llm.RoleAssistant, note), llm.TextMessage(llm.RoleUser, user))
		}
		hist = append(hist, llm.TextMessage(llm.RoleAssistant, note))
		a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", History: hist, Tools: tools.NewRegistry(bulky)})
		a.nudges = map[string]bool{emptyTurnNudge: true}
		if _, err := a.Compact(context.Background()); err != nil {
			t.Fatal(err)
		}
		want := pinned + "\n\n" + contextmgr.PinnedLabel + "\n\nAlso rename Baz to Qux."
		// The kept suffix may open with a user message, which Repair
		// merges into the summary message after the pins.
		if h := a.History(); !strings.HasPrefix(h[0].Text(), want) || strings.Count(h[0].Text(), contextmgr.PinnedLabel) != 2 {
			t.Fatalf("compacted head %q, want %q", h[0].Text(), want)
		}
	})
	t.Run("compaction inside the run", func(t *testing.T) {
		s := newSmallServer(t, 1<<20)
		s.main.Script(script(14)...)
		s.sum.Script(llmtest.Reply(llmtest.Text("Some files were read.")), llmtest.Reply(llmtest.Text("More files were read.")))
		a := New(Options{Provider: newOpenAI(t, s.srv.URL), Model: "m", Tools: tools.NewRegistry(bulky), ContextWindow: 4000, RetryBase: time.Millisecond})
		if res := a.Run(context.Background(), task); res.StopReason != event.StopCompleted {
			t.Fatalf("run %+v", res)
		}
		if len(s.sum.Requests()) == 0 {
			t.Fatal("no compaction happened")
		}
		// Every request after the first summary still carries the task.
		reqs := s.main.Requests()
		for i, r := range reqs {
			if !strings.Contains(string(r.Body), strings.TrimSuffix(task, ".")) {
				t.Fatalf("request %d of %d lost the task", i, len(reqs))
			}
		}
	})
}

// summaryText is the text of a summary message with no pins.
func summaryText(s string) string { return contextmgr.SummaryPrefix + s + "]" }
