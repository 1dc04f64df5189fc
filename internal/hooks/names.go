package hooks

import (
	"encoding/json"
)

// toolName is how one of Zero's tools appears to Claude-shape hooks: the
// name sent as tool_name, the further names a matcher may use (Claude's
// Edit rules cover every file-editing tool), and the argument fields
// renamed between Zero's and Claude's input (Zero's → Claude's).
type toolName struct {
	claude  string
	aliases []string
	fields  map[string]string
}

// toolNames maps Zero's tool names (internal/tools) to Claude Code's
// (https://docs.claude.com/en/docs/claude-code/settings#tools-available-to-claude).
// MCP tools are mcp__server__tool in both.
var toolNames = map[string]toolName{
	"bash":        {claude: "Bash", fields: map[string]string{"timeout_ms": "timeout"}},
	"read_file":   {claude: "Read", fields: map[string]string{"path": "file_path"}},
	"write_file":  {claude: "Write", fields: map[string]string{"path": "file_path"}},
	"edit_file":   {claude: "Edit", aliases: []string{"MultiEdit"}, fields: map[string]string{"path": "file_path"}},
	"apply_patch": {claude: "Edit", aliases: []string{"MultiEdit", "Write"}},
	"glob":        {claude: "Glob"},
	"grep":        {claude: "Grep", fields: map[string]string{"ignore_case": "-i"}},
	"list_dir":    {claude: "LS"},
	"web_fetch":   {claude: "WebFetch"},
	// exec_command has no Claude name; Bash matchers cover it and see
	// its command where a Bash hook reads it.
	"exec_command": {claude: "exec_command", aliases: []string{"Bash"}, fields: map[string]string{"cmd": "command"}},
}

// ClaudeName is the name a Claude-shape hook sees for Zero's tool (the
// name itself for MCP and Zero-only tools).
func ClaudeName(zero string) string {
	if n, ok := toolNames[zero]; ok {
		return n.claude
	}
	return zero
}

// ZeroName is Zero's tool for a name written as Claude's or Zero's
// ("Bash" or "bash" → bash); the name itself when neither knows it.
func ZeroName(name string) string {
	if _, ok := toolNames[name]; ok {
		return name
	}
	for z, n := range toolNames {
		if n.claude == name && z != "apply_patch" {
			return z
		}
	}
	return name
}

// matchNames are the names a tool matcher is tried against: Claude's
// name, its aliases, and Zero's own.
func matchNames(zero string) []string {
	n, ok := toolNames[zero]
	if !ok {
		return []string{zero}
	}
	return append(append([]string{n.claude}, n.aliases...), zero)
}

// ClaudeInput renames the fields of Zero's arguments to Claude's (path →
// file_path for Read, Write and Edit; timeout_ms → timeout for Bash);
// other fields pass as they are. apply_patch adds file_path (its first
// file) and file_paths (all of them) so an Edit hook finds its files.
func ClaudeInput(zero string, args json.RawMessage, patchPaths func(json.RawMessage) ([]string, error)) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil || m == nil {
		return args
	}
	for from, to := range toolNames[zero].fields {
		if v, ok := m[from]; ok {
			delete(m, from)
			m[to] = v
		}
	}
	if zero == "apply_patch" && patchPaths != nil {
		if ps, err := patchPaths(args); err == nil && len(ps) > 0 {
			m["file_path"], m["file_paths"] = ps[0], ps
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return b
}

// ZeroInput is the reverse of ClaudeInput for a hook's updatedInput:
// Claude's field names become Zero's; fields Zero's tool has no name for
// pass unchanged (the tool reports what it cannot use).
func ZeroInput(zero string, input json.RawMessage) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(input, &m); err != nil || m == nil {
		return nil, errNotObject
	}
	for from, to := range toolNames[zero].fields {
		if v, ok := m[to]; ok {
			delete(m, to)
			m[from] = v
		}
	}
	if zero == "apply_patch" {
		delete(m, "file_path")
		delete(m, "file_paths")
	}
	return json.Marshal(m)
}

type hookError string

func (e hookError) Error() string { return string(e) }

const errNotObject = hookError("updatedInput is not a JSON object")
