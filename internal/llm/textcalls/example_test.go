package textcalls_test

import (
	"fmt"

	"github.com/zero-agent/zero/internal/llm/textcalls"
)

func ExampleRecover() {
	ids := textcalls.NewIDGen() // one per session
	text := "<think>Need the module file.</think>\nLet me check.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {'path': 'go.mod',}}\n</tool_call>"
	res := textcalls.Recover(text, []string{"read_file", "grep"}, textcalls.Options{IDs: ids})
	for _, c := range res.Calls {
		fmt.Println(c.Name, c.Arguments, c.Recovered, len(c.ID))
	}
	fmt.Printf("text=%q reasoning=%q\n", res.Text, res.Reasoning)
	// Output:
	// read_file {"path":"go.mod"} true 17
	// text="Let me check." reasoning="Need the module file."
}

func ExampleStreamFilter() {
	f := textcalls.NewStreamFilter(textcalls.StreamOptions{})
	for _, chunk := range []string{"Reading it.\n<tool", "_call>{\"name\":", "\"read_file\"}</tool_call>"} {
		fmt.Printf("%q\n", f.Feed(chunk).Text)
	}
	fmt.Printf("%q\n", f.Flush().Text)
	// Output:
	// "Reading it.\n"
	// ""
	// ""
	// ""
}
