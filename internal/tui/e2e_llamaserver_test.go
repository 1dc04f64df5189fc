package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llamatest"
)

// These tests run the app in tmux against the real llama.cpp llama-server
// that .ci/llama-server builds, with models written by internal/llamatest
// (its doc says how a reply is chosen: by the number of chat messages in
// the prompt; one prompt is 3 messages, each tool round or further prompt
// adds 2). e2e/llamaserver_test.go drives `zero exec` the same way.

// readNotesThen is a tool round (the model reads notes.txt, then answers)
// followed by the replies to further prompts.
func readNotesThen(more ...llamatest.Reply) []llamatest.Reply {
	return append([]llamatest.Reply{
		// "\n\n" after the marker: a reply cannot hold a bare "\n"
		// (llamatest's doc), and the server's parser skips either.
		{Messages: 3, Text: "<tool_call>\n\n" + `{"name":"read_file","arguments":{"path":"notes.txt"}}` + "\n</tool_call>"},
		{Messages: 5, Text: "The notes say hello."},
	}, more...)
}

// startOnLlamaServer starts the app on srv with no model named (the
// server's loaded model is picked) and writes notes.txt in its workspace.
func startOnLlamaServer(t *testing.T, srv *llamatest.Server) tmux {
	t.Helper()
	x, work := startAppInTmux(t, buildZero(t), "--base-url", srv.V1())
	if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("hello from the notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x.waitFor("the footer", func(l []string) bool { return contains(l, llamatest.ModelName) && contains(l, "· normal") })
	return x
}

// askAboutNotes sends the tool round's prompt and waits for its answer.
func askAboutNotes(x tmux) {
	x.typeLine("what do the notes say?")
	x.waitFor("the tool round's answer", func(l []string) bool {
		return contains(l, "⚙ read_file(notes.txt)") && contains(l, "The notes say hello.") && contains(l, "ask anything")
	})
}

// cacheLine matches /context's prompt-cache line (agent.Report.measured),
// which the app wraps to the pane's width.
var cacheLine = regexp.MustCompile(strings.ReplaceAll(`prompt cache: (\d+)% of prompt tokens read from the server's cache \((\d+) of (\d+) in (\d+) requests\); last request (\d+)%`, " ", `\s+`))

func TestAppToolRoundOnLlamaServer(t *testing.T) {
	srv := llamatest.Serve(t, llamatest.Options{Context: 8192},
		readNotesThen(llamatest.Reply{Messages: 7, Text: "Second answer here!"})...)
	x := startOnLlamaServer(t, srv)
	askAboutNotes(x)

	x.typeLine("anything else?")
	x.waitFor("the second answer", func(l []string) bool { return contains(l, "Second answer here!") && contains(l, "ask anything") })

	x.typeLine("/context")
	var m []string
	x.waitFor("the window and the prompt cache in /context", func(l []string) bool {
		m = cacheLine.FindStringSubmatch(strings.Join(l, "\n"))
		return contains(l, "of 8192 tokens (") && contains(l, "measured by the server: last request") && m != nil
	})
	// Three requests, each after the first starting with the one before:
	// the server's slot serves all but the new tokens of a later prompt
	// from its cache (issue 11's bar: >= 90%).
	if m[4] != "3" {
		t.Errorf("cache account over %s requests, want 3: %s", m[4], m[0])
	}
	if last, _ := strconv.Atoi(m[5]); last < 90 {
		t.Errorf("the last request read only %d%% from the cache: %s", last, m[0])
	}
	if got := count(x.screen(), "The notes say hello."); got != 1 {
		t.Errorf("the first answer is shown %d times:\n%s", got, strings.Join(x.screen(), "\n"))
	}
	x.exit()
}

func TestAppSmallWindowOnLlamaServer(t *testing.T) {
	// At -c 2048 Zero's full prompt and tools leave no room to work: the
	// app says so at start, takes the minimal profile and still completes
	// the tool round.
	srv := llamatest.Serve(t, llamatest.Options{Context: 2048}, readNotesThen()...)
	x := startOnLlamaServer(t, srv)
	x.waitFor("the minimal-profile notice", func(l []string) bool {
		return contains(l, "window (2048 tokens) is small") && contains(l, "using the minimal profile")
	})
	askAboutNotes(x)
	x.typeLine("/context")
	x.waitFor("the minimal profile's tools in /context", func(l []string) bool {
		return contains(l, "of 2048 tokens (") && contains(l, "tool schemas (5)")
	})
	if strings.Contains(srv.Log(), "exceeds the available context size") {
		t.Error("a request was over the window")
	}
	x.exit()
}
