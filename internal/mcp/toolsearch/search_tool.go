package toolsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/tools"
)

// MaxLimit caps how many schemas one search returns, so a result stays a
// small part of a small window.
const MaxLimit = 10

// Names of the two tools. They and their descriptions and schemas are
// constants: they are in every request, and a request prefix that never
// changes is what a prompt cache reuses.
const (
	SearchName = "mcp_search"
	CallName   = "mcp_call"
)

const (
	searchDescription = "Find MCP tools by keywords or exact name; returns their schemas. Run one with mcp_call."
	searchSchema      = `{"type":"object","properties":{"query":{"type":"string","description":"keywords or a tool name"},"limit":{"type":"integer","description":"max results, default 3"}},"required":["query"]}`
)

type searchTool struct{ catalog func() []Entry }

// NewSearchTool returns mcp_search over the entries catalog returns at
// each call (the tools of the servers connected then). Its result is one
// compact JSON object per matching tool ({"name","description",
// "parameters"}), best first; no match is a failed result naming the
// servers, so the model can search again.
func NewSearchTool(catalog func() []Entry) tools.Tool { return &searchTool{catalog: catalog} }

func (*searchTool) Name() string                 { return SearchName }
func (*searchTool) Description() string          { return searchDescription }
func (*searchTool) Schema() json.RawMessage      { return json.RawMessage(searchSchema) }
func (*searchTool) SideEffect() tools.SideEffect { return tools.SideRead }

func (t *searchTool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var args struct {
		Query string          `json:"query"`
		Limit json.RawMessage `json:"limit"`
	}
	if err := json.Unmarshal(orEmpty(raw), &args); err != nil {
		return failed("mcp_search takes {\"query\": \"words or a tool name\", \"limit\": 3}: %v", err), nil
	}
	limit, err := parseLimit(args.Limit)
	if err != nil {
		return failed("limit: %v", err), nil
	}
	entries := t.catalog()
	if len(entries) == 0 {
		return failed("no MCP tools are connected"), nil
	}
	if strings.TrimSpace(args.Query) == "" {
		return failed("query is empty. %s", serversLine(entries)), nil
	}
	found := Search(entries, args.Query, limit)
	if len(found) == 0 {
		return failed("no MCP tool matches %q. %s Try other words or a server name.", args.Query, serversLine(entries)), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MCP tools matching %q, best first; run one with mcp_call {\"name\": ..., \"arguments\": {...}}:\n", args.Query)
	for _, e := range found {
		line, _ := json.Marshal(struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}{e.Name, e.Description, compactSchema(e.Schema)})
		b.Write(line)
		b.WriteByte('\n')
	}
	return tools.Result{Content: b.String()}, nil
}

// parseLimit reads limit as a number or a string holding one (local models
// quote numbers), clamped to 1..MaxLimit; absent is DefaultLimit.
func parseLimit(raw json.RawMessage) (int, error) {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if s == "" || s == "null" {
		return DefaultLimit, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("want a number, got %s", raw)
	}
	return min(max(int(f), 1), MaxLimit), nil
}

// serversLine names the catalogue's servers and their tool counts.
func serversLine(entries []Entry) string {
	count := map[string]int{}
	for _, e := range entries {
		count[e.Server]++
	}
	names := make([]string, 0, len(count))
	for s := range count {
		names = append(names, s)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, s := range names {
		parts[i] = fmt.Sprintf("%s (%d)", s, count[s])
	}
	return "Servers (tools): " + strings.Join(parts, ", ") + "."
}

// compactSchema is schema without insignificant space; an empty or invalid
// schema is an object that takes anything.
func compactSchema(schema json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if len(schema) == 0 || json.Compact(&b, schema) != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return b.Bytes()
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage(`{}`)
	}
	return raw
}

func failed(format string, a ...any) tools.Result {
	return tools.Result{Content: fmt.Sprintf(format, a...), IsError: true}
}
