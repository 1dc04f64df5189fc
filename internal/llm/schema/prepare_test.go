package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// Tools whose schemas get the same rewrite are named in one warning, not
// one line each (an MCP server's every tool carries additionalProperties).
func TestSameRewriteOfManyToolsIsOneWarning(t *testing.T) {
	var tools []llm.ToolSpec
	for i := range 5 {
		tools = append(tools, llm.ToolSpec{Name: fmt.Sprintf("mcp__s__t%d", i), Parameters: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{}}`)})
	}
	tools = append(tools, llm.ToolSpec{Name: "other", Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","format":"email","default":"x"}}}`)})
	_, _, warnings := PrepareTools(Gemini, tools)
	if len(warnings) != 2 {
		t.Fatalf("warnings %q", warnings)
	}
	if !strings.HasPrefix(warnings[0], `5 tools ("mcp__s__t0", "mcp__s__t1", "mcp__s__t2" and 2 more): schema rewritten for gemini: `) {
		t.Errorf("grouped warning %q", warnings[0])
	}
	if !strings.HasPrefix(warnings[1], `tool "other": schema rewritten for gemini: `) {
		t.Errorf("single warning %q", warnings[1])
	}
}
