package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/schema"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// headerRecorder wraps an MCP handler and keeps the headers of the
// requests it saw.
type headerRecorder struct {
	mu   sync.Mutex
	next http.Handler
	seen []http.Header
}

func (h *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.seen = append(h.seen, r.Header.Clone())
	h.mu.Unlock()
	h.next.ServeHTTP(w, r)
}

func (h *headerRecorder) allHad(key, value string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, hd := range h.seen {
		if hd.Get(key) != value {
			return false
		}
	}
	return len(h.seen) > 0
}

func TestRemoteServersOverStreamableHTTPAndSSESendHeadersAndBearerToken(t *testing.T) {
	srv := mcptest.NewServer(mcptest.Options{})
	getServer := func(*http.Request) *mcp.Server { return srv }
	for _, tc := range []struct {
		transport mcpconfig.Transport
		handler   http.Handler
	}{
		{mcpconfig.HTTP, mcp.NewStreamableHTTPHandler(getServer, nil)},
		{mcpconfig.SSE, mcp.NewSSEHandler(getServer, nil)},
	} {
		t.Run(string(tc.transport), func(t *testing.T) {
			rec := &headerRecorder{next: tc.handler}
			hs := httptest.NewServer(rec)
			t.Cleanup(hs.Close) // after the manager's Close (cleanups run last first)
			cfg := mcpconfig.Server{Name: "remote", Transport: tc.transport, URL: hs.URL, Enabled: true,
				Headers: map[string]string{"X-Team": "zero"}, BearerTokenEnv: "REMOTE_TOKEN"}
			var r recorder
			opts := r.options(t)
			opts.Getenv = func(k string) string {
				if k == "REMOTE_TOKEN" {
					return "s3cret"
				}
				return ""
			}
			m := startManager(t, opts, cfg)
			waitNoFailures(t, m)
			if got := call(t, toolNamed(t, m, "mcp__remote__echo"), `{"text":"over http"}`); got.Content != "over http" {
				t.Errorf("echo: %+v", got)
			}
			if !rec.allHad("Authorization", "Bearer s3cret") || !rec.allHad("X-Team", "zero") {
				t.Errorf("requests lacked the configured headers: %v", rec.seen)
			}
		})
	}
}

func TestMissingBearerTokenVariableFailsTheServerSayingWhich(t *testing.T) {
	cfg := mcpconfig.Server{Name: "remote", Transport: mcpconfig.HTTP, URL: "http://127.0.0.1:1/mcp", Enabled: true, BearerTokenEnv: "NOPE_TOKEN"}
	m := startManager(t, Options{Getenv: func(string) string { return "" }}, cfg)
	failed := m.Wait(context.Background())
	if len(failed) != 1 {
		t.Fatalf("Wait: %+v", failed)
	}
	mustContain(t, "error", failed[0].Err.Error(), "NOPE_TOKEN is not set")
}

func TestUnauthorizedRemoteServerSaysHowToGiveItAToken(t *testing.T) {
	for _, tr := range []mcpconfig.Transport{mcpconfig.HTTP, mcpconfig.SSE} {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "token required", http.StatusUnauthorized)
		}))
		t.Cleanup(hs.Close)
		m := startManager(t, Options{}, mcpconfig.Server{Name: "remote", Transport: tr, URL: hs.URL, Enabled: true})
		failed := m.Wait(context.Background())
		if len(failed) != 1 {
			t.Fatalf("%s: Wait %+v", tr, failed)
		}
		mustContain(t, string(tr)+" error", failed[0].Err.Error(), "Unauthorized", "bearer_token_env_var")
	}
}

// TestDottedToolGoesThroughNamingAndEveryProvidersSchemaCleaning: a tool
// with a dotted name and a schema full of what providers reject
// ($defs/$ref, an array without items, anyOf with null, const) comes out
// of the adapter with a valid name and its raw schema, and the provider
// layer's cleaning accepts it for every dialect.
// Case B31 (testdata/B31/tools_list_result.json; google-gemini/gemini-cli#13326).
func TestDottedToolGoesThroughNamingAndEveryProvidersSchemaCleaning(t *testing.T) {
	raw, err := os.ReadFile("testdata/B31/tools_list_result.json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Tools []*mcp.Tool }
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "cal"}, nil)
	for _, tl := range list.Tools {
		srv.AddTool(tl, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "3 events"}}}, nil
		})
	}
	m := inMemory(t, srv, mcpconfig.Server{}, Options{})
	defer m.Close()
	tl := toolNamed(t, m, "mcp__mem__calendar_list_events")
	if srv, tool, _ := m.Lookup(tl.Name()); srv != "mem" || tool != "calendar.list_events" {
		t.Errorf("Lookup: %s %s", srv, tool)
	}
	if !strings.Contains(string(tl.Schema()), `"$ref":"#/$defs/Range"`) {
		t.Errorf("the adapter must pass the raw schema: %s", tl.Schema())
	}
	for _, d := range []schema.Dialect{schema.OpenAI, schema.Anthropic, schema.Gemini} {
		specs, _, warnings := schema.PrepareTools(d, []llm.ToolSpec{{Name: tl.Name(), Description: tl.Description(), Parameters: tl.Schema()}})
		if len(specs) != 1 || specs[0].Name != tl.Name() || strings.Contains(string(specs[0].Parameters), "$ref") {
			t.Errorf("%s: specs %+v, warnings %q", d, specs, warnings)
		}
	}
	if got := call(t, tl, `{"range":{"start":"2026-01-01T00:00:00Z","end":"2026-01-02T00:00:00Z"}}`); got.Content != "3 events" {
		t.Errorf("call: %+v", got)
	}
}

// A remote server that goes away is noticed on the next call: the call
// fails saying so, the server is failed and its tools withdrawn.
func TestRemoteServerThatGoesAwayIsFailedOnTheNextCall(t *testing.T) {
	srv := mcptest.NewServer(mcptest.Options{})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	cfg := mcpconfig.Server{Name: "remote", Transport: mcpconfig.HTTP, URL: hs.URL, Enabled: true}
	var r recorder
	m := startManager(t, r.options(t), cfg)
	waitNoFailures(t, m)
	echo := toolNamed(t, m, "mcp__remote__echo")
	hs.CloseClientConnections()
	hs.Close()
	got := call(t, echo, `{"text":"anyone?"}`)
	if !got.IsError || !strings.Contains(got.Content, "cannot be reached") || !strings.Contains(got.Content, "/mcp reconnect remote") {
		t.Fatalf("call to a gone server: %+v", got)
	}
	st := r.waitState(t, "remote", StateFailed)
	if len(m.Tools()) != 0 {
		t.Fatalf("tools still offered after the server went away: %v (%+v)", m.Tools(), st)
	}
}
