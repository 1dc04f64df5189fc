package contextmgr_test

import (
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/llm"
)

func ExampleCap() {
	out := strings.Repeat("x", 10000)
	kept, cut := contextmgr.Cap(out, 200, "/s/tool-output/call_1.txt")
	fmt.Println(cut, len(kept) <= 200)
	fmt.Println(strings.Contains(kept, "bytes omitted; full output in /s/tool-output/call_1.txt, read it with read_file offset/limit"))
	// Output:
	// true true
	// true
}

func ExampleRepair() {
	call := llm.ToolCall{ID: "call_1", Name: "bash", Arguments: `{"command":"go test ./..."}`}
	history := []llm.Message{
		llm.TextMessage(llm.RoleUser, "run the tests"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &call}}},
		llm.TextMessage(llm.RoleUser, "stop"), // interrupted: no result recorded
	}
	fixed, log := contextmgr.Repair(history)
	fmt.Println(len(fixed), fixed[2].Role, fixed[2].ToolResults()[0].IsError)
	fmt.Println(log[0])
	// Output:
	// 4 tool true
	// added a synthetic error result for tool call call_1 (bash), which had none
}
