// Package mcptest holds MCP servers of our own for the tests of
// internal/mcp and of the surfaces that use it: behaviour npm's servers do
// not offer (a crash mid-call, noise on stdout, a slow call with progress,
// an 8 MB result, 200 tools, a tool list that fails after list_changed).
// NewServer builds one in process (for the HTTP and SSE handlers and
// in-memory tests); cmd/mcptestserver runs it on stdio; Binary builds that
// command once per test process. It is imported by tests only and owns no
// product code.
package mcptest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options choose a server's behaviour beyond its fixed tools.
type Options struct {
	// Tools adds that many tools named tool_000, tool_001, ... (the
	// search path of issue 12 item 7).
	Tools int
	// Exit, when set, offers the tool "crash", which writes to stderr and
	// calls Exit(3) in the middle of the call, and "exit_later", which
	// answers and calls Exit(4) a moment later, while idle.
	Exit func(code int)
}

// HugeErrorLine is the last line of the "huge" tool's result.
const HugeErrorLine = "Error: disk quota exceeded while writing /tmp/out.bin"

// NewServer returns a server offering:
//   - echo {text}: the text back;
//   - add {a, b}: the sum;
//   - peek {}: marked readOnlyHint, returns "peeked";
//   - fail {}: a result with isError, "something broke";
//   - mixed {}: text, a 4-byte PNG image and an embedded text resource;
//   - slow {progress_ms, finish_ms}: sleeps until cancelled (or finish_ms
//     when > 0), sending a progress notification every progress_ms when
//     > 0;
//   - huge {bytes}: one line of that many 'x' (default 8 MB), then a
//     newline and HugeErrorLine;
//   - change {fail}: adds the tool "added" (the server then sends
//     notifications/tools/list_changed); with fail true the next
//     tools/list answers an error;
//   - elicit {}: asks the client for a form (name, required; count, an
//     integer; agree, yes/no; color, red or green) and answers with the
//     action and the values it got, sorted by name;
//   - crash {}, exit_later {}: see Options.Exit.
func NewServer(opts Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "1"}, nil)
	var failList atomic.Bool
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" && failList.CompareAndSwap(true, false) {
				return nil, errors.New("tool list unavailable (simulated)")
			}
			return next(ctx, method, req)
		}
	})
	type echoArgs struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo text back"}, func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
		return text(a.Text), nil, nil
	})
	type addArgs struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Add two numbers"}, func(_ context.Context, _ *mcp.CallToolRequest, a addArgs) (*mcp.CallToolResult, any, error) {
		return text(fmt.Sprint(a.A + a.B)), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "peek", Description: "Look without touching", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return text("peeked"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "something broke"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "mixed", Description: "Text, image and resource"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "here"},
			&mcp.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "note body"}},
		}}, nil, nil
	})
	addSlow(s)
	addHuge(s)
	addElicit(s)
	type changeArgs struct {
		Fail bool `json:"fail,omitempty"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "change", Description: "Add a tool"}, func(_ context.Context, _ *mcp.CallToolRequest, a changeArgs) (*mcp.CallToolResult, any, error) {
		failList.Store(a.Fail)
		mcp.AddTool(s, &mcp.Tool{Name: "added", Description: "Added by change"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return text("added"), nil, nil
		})
		return text("changed"), nil, nil
	})
	if opts.Exit != nil {
		mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Dies mid-call"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "fatal: simulated crash")
			opts.Exit(3)
			return text("unreachable"), nil, nil
		})
		mcp.AddTool(s, &mcp.Tool{Name: "exit_later", Description: "Answers, then dies while idle"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			go func() {
				time.Sleep(100 * time.Millisecond) // after the answer is written
				fmt.Fprintln(os.Stderr, "fatal: idle crash")
				opts.Exit(4)
			}()
			return text("bye"), nil, nil
		})
	}
	for i := range opts.Tools {
		name := fmt.Sprintf("tool_%03d", i)
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: "Numbered tool " + name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return text(name), nil, nil
		})
	}
	return s
}

func addSlow(s *mcp.Server) {
	type slowArgs struct {
		ProgressMS int `json:"progress_ms,omitempty"`
		FinishMS   int `json:"finish_ms,omitempty"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Sleeps, sending progress"}, func(ctx context.Context, req *mcp.CallToolRequest, a slowArgs) (*mcp.CallToolResult, any, error) {
		var tick <-chan time.Time
		if a.ProgressMS > 0 {
			t := time.NewTicker(time.Duration(a.ProgressMS) * time.Millisecond)
			defer t.Stop()
			tick = t.C
		}
		var finish <-chan time.Time
		if a.FinishMS > 0 {
			finish = time.After(time.Duration(a.FinishMS) * time.Millisecond)
		}
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			case <-finish:
				return text("finished"), nil, nil
			case <-tick:
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: req.Params.GetProgressToken(), Progress: float64(n), Message: "working"})
			}
		}
	})
}

func addHuge(s *mcp.Server) {
	type hugeArgs struct {
		Bytes int `json:"bytes,omitempty"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "huge", Description: "A huge one-line result"}, func(_ context.Context, _ *mcp.CallToolRequest, a hugeArgs) (*mcp.CallToolResult, any, error) {
		if a.Bytes <= 0 {
			a.Bytes = 8 << 20
		}
		return text(strings.Repeat("x", a.Bytes) + "\n" + HugeErrorLine), nil, nil
	})
}

func addElicit(s *mcp.Server) {
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name":  map[string]any{"type": "string", "title": "Your name"},
			"count": map[string]any{"type": "integer", "default": 1},
			"agree": map[string]any{"type": "boolean"},
			"color": map[string]any{"type": "string", "enum": []string{"red", "green"}},
		},
		"required": []string{"name"},
	}
	mcp.AddTool(s, &mcp.Tool{Name: "elicit", Description: "Ask the user for a form"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		// The multi round-trip form (SEP-2322): the SDK turns it into an
		// elicitation/create request for clients on older revisions.
		if len(req.Params.InputResponses) == 0 {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"who": &mcp.ElicitParams{Message: "Who is there?", RequestedSchema: schema},
			}}, nil, nil
		}
		res, ok := req.Params.InputResponses["who"].(*mcp.ElicitResult)
		if !ok {
			return nil, nil, errors.New("no answer to the elicitation")
		}
		keys := make([]string, 0, len(res.Content))
		for k := range res.Content {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := res.Action
		for _, k := range keys {
			out += fmt.Sprintf(" %s=%v", k, res.Content[k])
		}
		return text(out), nil, nil
	})
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
