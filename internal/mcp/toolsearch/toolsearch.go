// Package toolsearch keeps many MCP tools usable in a small context window.
// When the schemas of every connected server's tools would take more than a
// budget of the window (Budget), the model is offered two stable tools in
// their place: mcp_search, which ranks the catalogue over names,
// descriptions and parameters and returns the matching tools' schemas, and
// mcp_call, which runs one of them by name. The two tools' names,
// descriptions and schemas never change, so the offered tool list stays the
// same for the whole session and every request is the previous one plus new
// messages: a local server reuses its prompt cache, a cloud API bills the
// cached prefix at a fraction (issue 12 item 7).
//
// The package is a pure core. It owns the ranking (Search), the budget
// decision (Budget, Footprint) and the two tools; it never connects to a
// server, never lists tools and never decides permissions. Its caller (the
// run layer) gives it the catalogue as a function, runs calls through the
// MCP client, and gates an mcp_call as the real tool it names (see
// CallTool.Target).
package toolsearch

import (
	"encoding/json"
	"strings"

	"github.com/zero-agent/zero/internal/tools"
)

// Entry is one MCP tool as the catalogue knows it.
type Entry struct {
	Server string
	Tool   string // the tool's own name on its server
	// Name is the name Zero exposes: mcp__<server>__<tool>, sanitized and
	// cut to the provider's limit by the caller.
	Name        string
	Description string
	// Schema is the JSON Schema of the tool's arguments object.
	Schema json.RawMessage
	// ReadOnly is the server's readOnlyHint.
	ReadOnly bool
}

// SideEffect is the class the permission engine gates e with:
// SideExternalRead when its server marks it read-only, else SideExternal.
func (e Entry) SideEffect() tools.SideEffect {
	if e.ReadOnly {
		return tools.SideExternalRead
	}
	return tools.SideExternal
}

// DefaultLimit is how many tools a search returns when asked for none:
// three schemas of a GitHub-sized server are about 500 tokens, a fair
// share of an 8K window for one look-up.
const DefaultLimit = 3

// Search returns up to limit entries matching query, best first. An entry
// whose exposed name or own tool name is the query (case-insensitive; also
// "server.tool", "server/tool", "server:tool" and "server__tool") comes
// first; the rest are ranked by a BM25F score over the name, the
// description and the parameters' names and descriptions (rank.go). Entries
// that match no query word are left out. Equal scores are ordered by Name,
// then by position in entries, so the result is the same for the same
// catalogue however the caller ordered it. limit <= 0 means DefaultLimit.
func Search(entries []Entry, query string, limit int) []Entry {
	if limit <= 0 {
		limit = DefaultLimit
	}
	query = strings.TrimSpace(query)
	if query == "" {
		return nil
	}
	ranked := rank(entries, query)
	if len(ranked) > limit {
		ranked = ranked[:limit]
	}
	out := make([]Entry, len(ranked))
	for i, r := range ranked {
		out[i] = entries[r.index]
	}
	return out
}

// isExact reports whether q names e exactly.
func isExact(e Entry, q string) bool {
	if strings.EqualFold(q, e.Name) || strings.EqualFold(q, e.Tool) {
		return true
	}
	for _, sep := range []string{"__", ".", "/", ":"} {
		if strings.EqualFold(q, e.Server+sep+e.Tool) {
			return true
		}
	}
	return false
}
