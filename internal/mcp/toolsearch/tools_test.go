package toolsearch

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/tools"
)

func TestSearchAndCallToolsTakeUnderSevenHundredBytesTogether(t *testing.T) {
	search := NewSearchTool(func() []Entry { return nil })
	call := NewCallTool(func() []Entry { return nil }, nil)
	total := 0
	for _, tl := range []tools.Tool{search, call} {
		if !json.Valid(tl.Schema()) {
			t.Fatalf("%s: schema is not JSON", tl.Name())
		}
		n := toolBytes(tl)
		t.Logf("%s: %d bytes (description %d, schema %d)", tl.Name(), n, len(tl.Description()), len(tl.Schema()))
		total += n
	}
	if total >= 700 {
		t.Fatalf("the two tools take %d bytes of every request, want under 700", total)
	}
}

// The offered tools never change during a session: what the model sees of
// them does not depend on which servers are connected.
func TestOfferedToolsDoNotDependOnTheCatalogue(t *testing.T) {
	cat := catalogue200(t)
	empty := func() []Entry { return nil }
	full := func() []Entry { return cat }
	pairs := [][2]tools.Tool{
		{NewSearchTool(empty), NewSearchTool(full)},
		{NewCallTool(empty, nil), NewCallTool(full, nil)},
	}
	for _, p := range pairs {
		a, b := p[0], p[1]
		if a.Name() != b.Name() || a.Description() != b.Description() || string(a.Schema()) != string(b.Schema()) || a.SideEffect() != b.SideEffect() {
			t.Fatalf("%s changes with the catalogue", a.Name())
		}
	}
	if pairs[0][0].SideEffect() != tools.SideRead || pairs[1][0].SideEffect() != tools.SideExternal {
		t.Fatal("mcp_search is a read, mcp_call is external")
	}
	// The real tool's class, which the run layer gates an mcp_call with.
	if (Entry{ReadOnly: true}).SideEffect() != tools.SideExternalRead || (Entry{}).SideEffect() != tools.SideExternal {
		t.Fatal("Entry.SideEffect follows the server's read-only mark")
	}
}

func runTool(t *testing.T, tl tools.Tool, args string) tools.Result {
	t.Helper()
	res, err := tl.Run(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", tl.Name(), args, err)
	}
	return res
}

func TestSearchToolReturnsMatchingSchemasAsCompactJSONLines(t *testing.T) {
	cat := catalogue200(t)
	search := NewSearchTool(func() []Entry { return cat })
	res := runTool(t, search, `{"query":"create issue","limit":"2"}`)
	if res.IsError {
		t.Fatalf("failed: %s", res.Content)
	}
	lines := strings.Split(strings.TrimSpace(res.Content), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "mcp_call") {
		t.Fatalf("want a header naming mcp_call and 2 tools:\n%s", res.Content)
	}
	var got struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &got); err != nil {
		t.Fatalf("line is not JSON: %v\n%s", err, lines[1])
	}
	if got.Name != "mcp__github__create_issue" || got.Description == "" {
		t.Fatalf("first match: %+v", got)
	}
	want := Resolve(cat, "mcp__github__create_issue")[0].Schema
	if string(got.Parameters) != string(compactSchema(want)) || strings.Contains(string(got.Parameters), "\n") {
		t.Fatalf("parameters are not the tool's compact schema: %s", got.Parameters)
	}
}

func TestSearchToolClampsTheLimit(t *testing.T) {
	cat := catalogue200(t)
	search := NewSearchTool(func() []Entry { return cat })
	count := func(args string) int {
		res := runTool(t, search, args)
		return strings.Count(res.Content, "\n") - 1
	}
	if n := count(`{"query":"list"}`); n != DefaultLimit {
		t.Errorf("no limit: %d results, want %d", n, DefaultLimit)
	}
	if n := count(`{"query":"list","limit":500}`); n != MaxLimit {
		t.Errorf("limit 500: %d results, want MaxLimit %d", n, MaxLimit)
	}
	if res := runTool(t, search, `{"query":"list","limit":"many"}`); !res.IsError {
		t.Errorf("limit \"many\" should fail: %s", res.Content)
	}
}

func TestSearchToolWithoutAMatchNamesTheServers(t *testing.T) {
	cat := catalogue200(t)
	search := NewSearchTool(func() []Entry { return cat })
	res := runTool(t, search, `{"query":"xylophone"}`)
	if !res.IsError || !strings.Contains(res.Content, "github (58)") || !strings.Contains(res.Content, "slack (8)") {
		t.Fatalf("want a failed result naming servers and counts: %s", res.Content)
	}
	if res := runTool(t, NewSearchTool(func() []Entry { return nil }), `{"query":"x"}`); !res.IsError {
		t.Fatalf("empty catalogue should fail: %s", res.Content)
	}
}

type recorded struct {
	name string
	args string
}

func newCall(t *testing.T) (*CallTool, *[]recorded) {
	cat := catalogue200(t)
	var calls []recorded
	tl := NewCallTool(func() []Entry { return cat }, func(ctx context.Context, name string, args json.RawMessage) (tools.Result, error) {
		calls = append(calls, recorded{name, string(args)})
		return tools.Result{Content: "ran " + name}, ctx.Err()
	})
	return tl.(*CallTool), &calls
}

func TestCallToolRunsTheNamedToolWithItsArguments(t *testing.T) {
	cases := []struct{ args, name, sent string }{
		{`{"name":"mcp__github__get_issue","arguments":{"owner":"o","repo":"r","issue_number":1}}`, "mcp__github__get_issue", `{"owner":"o","repo":"r","issue_number":1}`},
		{`{"name":"github.get_issue","arguments":{"owner":"o"}}`, "mcp__github__get_issue", `{"owner":"o"}`},
		{`{"server":"slack","tool":"slack_get_users"}`, "mcp__slack__slack_get_users", `{}`},
		{`{"name":"slack_get_users","arguments":null}`, "mcp__slack__slack_get_users", `{}`},
		{`{"name":"mcp__time__get_current_time","arguments":"{\"timezone\":\"UTC\"}"}`, "mcp__time__get_current_time", `{"timezone":"UTC"}`},
	}
	for _, c := range cases {
		tl, calls := newCall(t)
		res := runTool(t, tl, c.args)
		if res.IsError || len(*calls) != 1 {
			t.Errorf("%s: %+v, calls %v", c.args, res, *calls)
			continue
		}
		if got := (*calls)[0]; got.name != c.name || got.args != c.sent {
			t.Errorf("%s: ran %s %s, want %s %s", c.args, got.name, got.args, c.name, c.sent)
		}
		if name, ok := tl.Target(json.RawMessage(c.args)); !ok || name != c.name {
			t.Errorf("%s: Target = %q, %v; want %s", c.args, name, ok, c.name)
		}
	}
}

func TestCallToolRefusesWhatItCannotResolveWithoutCalling(t *testing.T) {
	cases := []struct{ args, want string }{
		{`{"name":"mcp__github__get_isue"}`, "mcp__github__get_issue"},          // closest names listed
		{`{"name":"create_issue"}`, "mcp__gitlab__create_issue"},                // ambiguous: both named
		{`{"name":""}`, "mcp_search"},                                           // empty
		{`{"name":"mcp__git__git_status","arguments":[1]}`, "JSON object"},      // not an object
		{`{"name":"mcp__git__git_status","arguments":"not json"}`, "arguments"}, // string that is no object
		{`[`, "mcp_call takes"},
	}
	for _, c := range cases {
		tl, calls := newCall(t)
		res := runTool(t, tl, c.args)
		if !res.IsError || !strings.Contains(res.Content, c.want) || len(*calls) != 0 {
			t.Errorf("%s: IsError %v, calls %v, content %q; want a failed result containing %q", c.args, res.IsError, *calls, res.Content, c.want)
		}
	}
	tl, _ := newCall(t)
	for _, args := range []string{`{"name":"nope_nothing"}`, `{"name":"create_issue"}`, `{`} {
		if name, ok := tl.Target(json.RawMessage(args)); ok {
			t.Errorf("Target(%s) = %q, want not ok", args, name)
		}
	}
}

func TestCallToolPassesTheCallsErrorThrough(t *testing.T) {
	tl, _ := newCall(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tl.Run(ctx, json.RawMessage(`{"name":"mcp__git__git_status","arguments":{"repo_path":"."}}`))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
