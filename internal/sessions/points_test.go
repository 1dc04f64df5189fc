package sessions

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// promptLog is a log of prompts with one user and one assistant message
// each, and rewinds between them (by name: "p1", "rewind:1:conv").
func promptLog(steps ...string) []event.Event {
	var evs []event.Event
	for i, s := range steps {
		run := "run_" + s
		if to, ok := strings.CutPrefix(s, "rewind:"); ok {
			n := int(to[0] - '0')
			evs = append(evs, event.Event{Type: event.Rewound, RunID: run + string(rune('a'+i)), Checkpoint: &event.Checkpoint{To: n, Conversation: strings.HasSuffix(to, "conv")}})
			continue
		}
		evs = append(evs,
			event.Event{Type: event.RunStart, RunID: run, Prompt: s},
			event.Event{Type: event.Message, RunID: run, Message: &llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Type: llm.PartText, Text: s}}}},
			event.Event{Type: event.Checkpointed, RunID: run, Checkpoint: &event.Checkpoint{Changes: []event.FileChange{{Path: s + ".txt"}}}},
			event.Event{Type: event.Message, RunID: run, Message: &llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartText, Text: "re " + s}}}},
		)
	}
	return evs
}

func texts(msgs []llm.Message) string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Parts[0].Text)
	}
	return strings.Join(out, ",")
}

func TestRewindEventsCutTheConversationAndCountAsPrompts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		steps   []string
		history string
		prompts int
	}{
		{"no rewind", []string{"p1", "p2"}, "p1,re p1,p2,re p2", 2},
		{"cut at 2", []string{"p1", "p2", "rewind:2:conv"}, "p1,re p1", 3},
		{"cut at 1, then a prompt", []string{"p1", "p2", "rewind:1:conv", "p4"}, "p4,re p4", 4},
		{"files-only rewind keeps it", []string{"p1", "p2", "rewind:1"}, "p1,re p1,p2,re p2", 3},
		{"rewind of a rewind", []string{"p1", "p2", "rewind:2:conv", "rewind:3:conv"}, "p1,re p1,p2,re p2", 4},
		{"out of range ignored", []string{"p1", "rewind:7:conv"}, "p1,re p1", 2},
	} {
		evs := promptLog(tc.steps...)
		msgs, _ := RebuildHistory(evs)
		if got := texts(msgs); got != tc.history {
			t.Errorf("%s: history %q, want %q", tc.name, got, tc.history)
		}
		ps := Prompts(evs)
		if len(ps) != tc.prompts {
			t.Errorf("%s: %d prompts, want %d", tc.name, len(ps), tc.prompts)
		}
		for _, p := range ps {
			if p.Rewind == nil && (len(p.Changes) != 1 || p.Changes[0].Path != p.Text+".txt") {
				t.Errorf("%s: prompt %d changes %v", tc.name, p.N, p.Changes)
			}
		}
	}
}
