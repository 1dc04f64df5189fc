package mcpserve

import (
	"slices"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/run"
)

func TestChangedFilesAreTheWritesThatSucceeded(t *testing.T) {
	c := newChanges(run.ToolSet(nil, run.ToolOptions{}), "/ws")
	calls := []struct {
		name, args string
		failed     bool
	}{
		{"write_file", `{"path":"a.txt","content":"x"}`, false},
		{"edit_file", `{"path":"/ws/src/b.go","old_string":"a","new_string":"b"}`, false},
		{"edit_file", `{"path":"c.go","old_string":"a","new_string":"b"}`, true},
		{"read_file", `{"path":"d.txt"}`, false},
		{"apply_patch", `{"patch":"*** Begin Patch\n*** Add File: e.txt\n+e\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch\n"}`, false},
		{"write_file", `{"path":"/elsewhere/f.txt","content":"x"}`, false},
	}
	for i, k := range calls {
		id := string(rune('a' + i))
		c.Emit(event.Event{Type: event.ToolCall, ToolCall: &llm.ToolCall{ID: id, Name: k.name, Arguments: k.args}})
		c.Emit(event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{CallID: id, Name: k.name, IsError: k.failed}})
	}
	want := []string{"a.txt", "src/b.go", "e.txt", "/elsewhere/f.txt"}
	if got := c.paths(); !slices.Equal(got, want) {
		t.Fatalf("changed files %q, want %q", got, want)
	}
}
