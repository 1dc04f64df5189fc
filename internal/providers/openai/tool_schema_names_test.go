package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// b31Tools reads the MCP tools/list result of case B31 as tool specs.
func b31Tools(t *testing.T) []llm.ToolSpec {
	t.Helper()
	b, err := os.ReadFile("testdata/B31/tools_list_result.json")
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	var specs []llm.ToolSpec
	for _, tl := range res.Tools {
		specs = append(specs, llm.ToolSpec{Name: tl.Name, Description: tl.Description, Parameters: tl.InputSchema})
	}
	return specs
}

// canonical re-encodes JSON so values compare regardless of spacing.
func canonical(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// TestMCPToolIsCleanedAndItsNameMappedBothWays: the request carries the
// tool exactly as expected_openai_tool.json, a call to the wire name comes
// back under the real (dotted) name whether the server streams or answers
// with one JSON body, history calls go out under the wire name, and the
// rewrite warnings are reported once per provider.
// Case B31 (testdata/B31; openai/codex#8174, mark3labs/mcphost#35).
func TestMCPToolIsCleanedAndItsNameMappedBothWays(t *testing.T) {
	want, err := os.ReadFile("testdata/B31/expected_openai_tool.json")
	if err != nil {
		t.Fatal(err)
	}
	const args = `{"range":{"start":"2026-01-01T00:00:00Z","end":"2026-01-02T00:00:00Z"}}`
	whole := `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,` +
		`"tool_calls":[{"id":"call_1","type":"function","function":{"name":"calendar_list_events","arguments":` +
		mustQuote(args) + `}}]},"finish_reason":"tool_calls"}]}`
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("calendar_list_events", args).Split(3)),
		llmtest.Reply(llmtest.Respond(200, whole)),
	)
	p := newProvider(t, srv, Options{})
	req := llm.Request{Model: "m", Tools: b31Tools(t), Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "what is on my calendar?")}}

	var warnings [2][]string
	for turn := range 2 {
		ch, err := p.Stream(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		evs := drain(ch)
		for _, ev := range evs {
			if ev.ToolCall != nil && ev.ToolCall.Name != "calendar.list_events" {
				t.Errorf("turn %d: %s event names %q", turn, ev.Type, ev.ToolCall.Name)
			}
		}
		a := assemble(evs)
		warnings[turn] = a.Warnings
		if a.Err != nil {
			t.Fatalf("turn %d: %v", turn, a.Err)
		}
		calls := a.Message().ToolCalls()
		if len(calls) != 1 || calls[0].Name != "calendar.list_events" || canonical(t, []byte(calls[0].Arguments)) != canonical(t, []byte(args)) {
			t.Fatalf("turn %d: calls = %+v, want one call to calendar.list_events", turn, calls)
		}
		req.Messages = append(req.Messages, a.Message(),
			llm.ToolResultMessage(llm.ToolResult{CallID: calls[0].ID, Name: calls[0].Name, Content: "no events"}))
	}

	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		var body struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil || len(body.Tools) != 1 {
			t.Fatalf("request %d: tools %s (%v)", i, body.Tools, err)
		}
		// Byte for byte, key order included, as the schema package's
		// own test of case B31 compares it.
		var got bytes.Buffer
		if err := json.Indent(&got, body.Tools[0], "", "  "); err != nil {
			t.Fatal(err)
		}
		if got.String() != strings.TrimRight(string(want), "\n") {
			t.Errorf("request %d tool:\n%s\nwant:\n%s", i, got.Bytes(), want)
		}
	}
	// The second request replays the first call under its wire name.
	if !bytes.Contains(reqs[1].Body, []byte(`"tool_calls":[{"id":"call_llmtest_0_0","type":"function","function":{"name":"calendar_list_events"`)) {
		t.Errorf("history call not sent under the wire name:\n%s", reqs[1].Body)
	}
	if bytes.Contains(reqs[1].Body, []byte("calendar.list_events")) {
		t.Errorf("the dotted name reached the wire:\n%s", reqs[1].Body)
	}

	joined := strings.Join(warnings[0], "\n")
	for _, w := range []string{`sent to openai as "calendar_list_events"`, `inlined $ref "#/$defs/Range"`} {
		if !strings.Contains(joined, w) {
			t.Errorf("first turn warnings lack %q:\n%s", w, joined)
		}
	}
	if len(warnings[1]) != 0 {
		t.Errorf("warnings repeated on the second turn: %q", warnings[1])
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
