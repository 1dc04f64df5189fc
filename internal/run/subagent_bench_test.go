package run

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// surveyFiles are the files the survey reads: real Go sources of this
// repository (the agent loop), copied into the benchmark's workspace.
var surveyFiles = []string{"../agent/loop.go", "../agent/toolrun.go", "../agent/compact.go", "../agent/levers.go", "../agent/report.go", "../agent/verify.go"}

// surveyAnswer is the survey's finding, the same inline and from the
// explorer.
const surveyAnswer = "The agent loop (loop.go) sends a request, runs the turn's tool calls through toolrun.go (read-only ones in parallel), shapes results with the levers in levers.go, compacts in compact.go when the window fills, and reports usage in report.go; verify.go checks claims of passing tests."

// BenchmarkSurveyParentWindow runs the same survey (read six source
// files, summarise them) inline and through the explore sub-agent
// against the fake server, and reports the bytes of the parent's last
// request's messages (parent-window-B): what the survey left in the
// parent's window. Through the explorer, child-window-B is the same of
// the child's last request: where the reads went instead.
func BenchmarkSurveyParentWindow(b *testing.B) {
	files := map[string]string{}
	var reads []llmtest.Step
	for i, f := range surveyFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Base(f)
		files["agent/"+name] = string(data)
		reads = append(reads, llmtest.ToolCall("read_file", fmt.Sprintf(`{"path":"agent/%s"}`, name)).WithID(fmt.Sprintf("read_%d", i)))
	}
	for _, mode := range []string{"inline", "explorer"} {
		b.Run(mode, func(b *testing.B) {
			srv := llmtest.NewServer(b)
			testbin.Isolate(b)
			b.Setenv("ZERO_CONTEXT_WINDOW", "131072")
			dir := CanonicalDir(b.TempDir())
			testbin.WriteTree(b, dir, files)
			rt, _ := openIsolated(b, srv, Options{Workdir: dir})
			var parentBytes, childBytes int
			for b.Loop() {
				s, err := rt.OpenSession(Which{})
				if err != nil {
					b.Fatal(err)
				}
				if mode == "inline" {
					srv.Script(llmtest.Reply(reads...), llmtest.Reply(llmtest.Text(surveyAnswer)))
				} else {
					srv.Script(
						llmtest.Reply(llmtest.ToolCall("task", `{"prompt":"Read every file under agent/ and summarise what each does","agent":"explore"}`)),
						llmtest.Reply(reads...),
						llmtest.Reply(llmtest.Text(surveyAnswer)),
						llmtest.Reply(llmtest.Text(surveyAnswer)),
					)
				}
				res := s.Prompt(context.Background(), Turn{Prompt: "Survey the agent package: what does each file do?"})
				s.Close()
				if res.StopReason != event.StopCompleted {
					b.Fatalf("%s: %+v", mode, res)
				}
				chat := chatRequests(srv)
				parentBytes = messageBytes(chat[len(chat)-1])
				if mode == "explorer" {
					child := chat[len(chat)-2]
					if !strings.Contains(string(child.Body), "You are a sub-agent") {
						b.Fatal("the request before the parent's last is not the explorer's")
					}
					childBytes = messageBytes(child)
				}
			}
			b.ReportMetric(float64(parentBytes), "parent-window-B")
			if mode == "explorer" {
				b.ReportMetric(float64(childBytes), "child-window-B")
			}
		})
	}
}

// messageBytes is the size of a chat request's messages as JSON.
func messageBytes(r llmtest.Request) int {
	msgs, _ := json.Marshal(r.Map()["messages"])
	return len(msgs)
}
