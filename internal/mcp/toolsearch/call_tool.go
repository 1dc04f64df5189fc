package toolsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/zero-agent/zero/internal/tools"
)

const (
	callDescription = "Run an MCP tool found with mcp_search."
	callSchema      = `{"type":"object","properties":{"name":{"type":"string","description":"tool name from mcp_search"},"arguments":{"type":"object","description":"arguments per its parameters"}},"required":["name"]}`
)

// CallTool is mcp_call: it runs one catalogue tool by name.
//
// Its SideEffect is tools.SideExternal, the most careful class, but the
// permission engine, rules and hooks must see the tool it runs, not
// mcp_call: a grant for mcp__github__get_issue, a hook matcher on
// mcp__github__.*, plan mode's read-only filter and the server's
// readOnlyHint all concern the real tool. So the run layer resolves the
// target with Target (or Resolve, for its Entry) before gating and gates
// the call as that tool: its name, the inner arguments, and
// Entry.SideEffect. When Target is not ok, gate the call as mcp_call
// itself: Run will then most likely only return a failed result, but the
// catalogue can change between the two.
type CallTool struct {
	catalog func() []Entry
	call    func(ctx context.Context, name string, args json.RawMessage) (tools.Result, error)
}

// NewCallTool returns mcp_call (a *CallTool) over the entries catalog
// returns at each call. call runs the tool with the exposed name and the
// arguments object (at least {}); its Result and error pass through.
func NewCallTool(catalog func() []Entry, call func(ctx context.Context, name string, args json.RawMessage) (tools.Result, error)) tools.Tool {
	return &CallTool{catalog: catalog, call: call}
}

func (*CallTool) Name() string                 { return CallName }
func (*CallTool) Description() string          { return callDescription }
func (*CallTool) Schema() json.RawMessage      { return json.RawMessage(callSchema) }
func (*CallTool) SideEffect() tools.SideEffect { return tools.SideExternal }

// callArgs is what a model sends. Besides the schema's name and arguments
// it takes server and tool, which models given the issue's wording ("a
// call tool (server, tool, arguments)") or another agent's habits send.
type callArgs struct {
	Name      string          `json:"name"`
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

func (a callArgs) target() string {
	if a.Name != "" {
		return strings.TrimSpace(a.Name)
	}
	if a.Server != "" && a.Tool != "" {
		return a.Server + "__" + a.Tool
	}
	return strings.TrimSpace(a.Tool)
}

// Target is the exposed name of the tool args would run, and whether it
// names exactly one catalogue tool. The run layer gates an mcp_call as
// that tool.
func (t *CallTool) Target(args json.RawMessage) (name string, ok bool) {
	var a callArgs
	if json.Unmarshal(orEmpty(args), &a) != nil {
		return "", false
	}
	matches := Resolve(t.catalog(), a.target())
	if len(matches) != 1 {
		return "", false
	}
	return matches[0].Name, true
}

// Resolve returns the entries name names: the one whose exposed name it
// is, else those it names exactly as Search's first tier does (a tool's
// own name may name one tool on each of several servers).
func Resolve(entries []Entry, name string) []Entry {
	if name == "" {
		return nil
	}
	for _, e := range entries {
		if e.Name == name {
			return []Entry{e}
		}
	}
	var out []Entry
	for _, e := range entries {
		if isExact(e, name) {
			out = append(out, e)
		}
	}
	return out
}

func (t *CallTool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a callArgs
	if err := json.Unmarshal(orEmpty(raw), &a); err != nil {
		return failed(`mcp_call takes {"name": "mcp__server__tool", "arguments": {...}}: %v`, err), nil
	}
	name := a.target()
	if name == "" {
		return failed(`name is empty: give the tool's name from mcp_search, e.g. {"name": "mcp__server__tool", "arguments": {...}}`), nil
	}
	entries := t.catalog()
	matches := Resolve(entries, name)
	switch {
	case len(matches) == 0:
		return failed("no MCP tool named %q. Closest: %s. Find tools with mcp_search.", name, strings.Join(closest(entries, name, 3), ", ")), nil
	case len(matches) > 1:
		names := make([]string, len(matches))
		for i, e := range matches {
			names[i] = e.Name
		}
		return failed("%q names %d tools: %s. Call one by its full name.", name, len(matches), strings.Join(names, ", ")), nil
	}
	args, err := argumentsObject(a.Arguments)
	if err != nil {
		return failed("arguments: %v; send the tool's arguments as a JSON object", err), nil
	}
	return t.call(ctx, matches[0].Name, args)
}

// argumentsObject is the arguments as a JSON object: absent or null is {},
// and an object sent as a JSON string (local models do) is unwrapped.
func argumentsObject(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`), nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		raw = bytes.TrimSpace([]byte(s))
		if len(raw) == 0 {
			return json.RawMessage(`{}`), nil
		}
	}
	var obj map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		return nil, errNotObject
	}
	return raw, nil
}

var errNotObject = errors.New("not a JSON object")

// closest names up to n catalogue tools near name: first those within a
// few typos of it (nearest first), then the best search matches for its
// words.
func closest(entries []Entry, name string, n int) []string {
	type near struct {
		name string
		d    int
	}
	var typos []near
	for _, e := range entries {
		d := editDistance(strings.ToLower(name), strings.ToLower(e.Name))
		if d <= max(2, len(name)/5) {
			typos = append(typos, near{e.Name, d})
		}
	}
	sort.SliceStable(typos, func(i, j int) bool {
		if typos[i].d != typos[j].d {
			return typos[i].d < typos[j].d
		}
		return typos[i].name < typos[j].name
	})
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] && len(out) < n {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, t := range typos {
		add(t.name)
	}
	for _, e := range Search(entries, name, n) {
		add(e.Name)
	}
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
