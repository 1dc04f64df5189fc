package toolsearch

import "encoding/json"

// DefaultFraction is the share of the context window MCP tool schemas may
// take before they go behind mcp_search (issue 12 item 7).
const DefaultFraction = 0.10

// BytesPerToken is the estimate Budget and Tokens use: about 4 bytes of
// English or JSON per token for the tokenizers of the models Zero talks to.
const BytesPerToken = 4

// Budget splits entries into those offered to the model directly and
// those deferred behind mcp_search and mcp_call. When the footprint of all
// of them (Footprint, in tokens at BytesPerToken) fits fraction ×
// windowTokens, all are direct and none deferred. Otherwise only the
// entries alwaysLoad keeps (nil keeps none) are direct, even if they alone
// exceed the budget: the user asked for them. Both lists keep the order of
// entries. fraction <= 0 means DefaultFraction; windowTokens <= 0 (a
// window nobody knows) offers everything directly, since there is nothing
// to budget against.
//
// The caller decides once per session, at its first request, and keeps
// the answer: a tool list that changes mid-session invalidates the prompt
// cache. It offers mcp_search and mcp_call only when deferred is not
// empty, and gives them a catalogue of the deferred entries (or of all of
// them; a search may as well find a direct tool).
func Budget(entries []Entry, windowTokens int, fraction float64, alwaysLoad func(Entry) bool) (direct, deferred []Entry) {
	if fraction <= 0 {
		fraction = DefaultFraction
	}
	if windowTokens <= 0 || float64(Tokens(Footprint(entries))) <= fraction*float64(windowTokens) {
		return append([]Entry(nil), entries...), nil
	}
	for _, e := range entries {
		if alwaysLoad != nil && alwaysLoad(e) {
			direct = append(direct, e)
		} else {
			deferred = append(deferred, e)
		}
	}
	return direct, deferred
}

// Footprint is how many bytes entries take in a request as tool specs:
// each one's name, description and parameter schema in the neutral
// {"name","description","parameters"} shape (llm.ToolSpec), schema
// compacted. Providers wrap it a little differently; this is the part
// that grows with the number of tools.
func Footprint(entries []Entry) int {
	n := 0
	for _, e := range entries {
		n += SpecBytes(e.Name, e.Description, e.Schema)
	}
	return n
}

// SpecBytes is the size of one tool spec as Footprint counts it.
func SpecBytes(name, description string, schema json.RawMessage) int {
	b, err := json.Marshal(struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}{name, description, compactSchema(schema)})
	if err != nil {
		return len(name) + len(description) + len(schema)
	}
	return len(b)
}

// Tokens estimates the tokens of n bytes, rounding up.
func Tokens(bytes int) int { return (bytes + BytesPerToken - 1) / BytesPerToken }
