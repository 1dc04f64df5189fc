package llmtest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// A test scripts one turn, points a client (or the zero binary, via
// OPENAI_BASE_URL) at URL(), then checks what the client sent.
func Example() {
	srv := llmtest.NewServer(nil)
	defer srv.Close()
	srv.Script(llmtest.Reply(
		llmtest.Text("Reading go.mod."),
		llmtest.ToolCall("read_file", `{"path":"go.mod"}`).Split(3),
		llmtest.Usage(812, 12),
	))
	resp, err := http.Post(srv.URL()+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"go version?"}]}`))
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(strings.Count(string(body), "data: "), "frames")
	fmt.Println(srv.Requests()[0].Map()["model"])
	// Output:
	// 6 frames
	// m
}
