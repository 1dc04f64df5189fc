package acp

import (
	"encoding/json"
	"path/filepath"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/llm"
)

// callInfo is what a tool call shows an editor: its kind, title and the
// files it touches (absolute paths).
type callInfo struct {
	kind      acpsdk.ToolKind
	title     string
	locations []acpsdk.ToolCallLocation
	// path is the one file an edit changes ("" otherwise), for the diff.
	path string
	raw  any
}

// describe maps one of Zero's tool calls to the ACP tool kinds
// (https://agentclientprotocol.com/protocol/tool-calls#creating); root
// makes relative paths absolute.
func describe(call llm.ToolCall, root string) callInfo {
	var args map[string]any
	_ = json.Unmarshal([]byte(call.Arguments), &args)
	str := func(k string) string { s, _ := args[k].(string); return s }
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}
	info := callInfo{kind: acpsdk.ToolKindOther, title: call.Name, raw: args}
	if info.raw == nil {
		info.raw = call.Arguments
	}
	path := abs(str("path"))
	withPath := func(title string) {
		info.title = title
		if path != "" {
			info.title += " " + str("path")
			loc := acpsdk.ToolCallLocation{Path: path}
			if n, ok := args["offset"].(float64); ok && n >= 1 {
				loc.Line = acpsdk.Ptr(int(n))
			}
			info.locations = []acpsdk.ToolCallLocation{loc}
		}
	}
	switch call.Name {
	case "read_file":
		info.kind = acpsdk.ToolKindRead
		withPath("Read")
	case "list_dir":
		info.kind = acpsdk.ToolKindRead
		withPath("List")
	case "write_file", "edit_file":
		info.kind = acpsdk.ToolKindEdit
		withPath(map[string]string{"write_file": "Write", "edit_file": "Edit"}[call.Name])
		info.path = path
	case "apply_patch":
		info.kind, info.title = patchKind(call.Arguments), "Apply patch"
		for _, p := range patchPaths(call.Arguments) {
			info.locations = append(info.locations, acpsdk.ToolCallLocation{Path: abs(p)})
		}
	case "bash", "exec_command":
		info.kind = acpsdk.ToolKindExecute
		info.title = firstNonEmpty(str("command"), str("cmd"), call.Name)
	case "write_stdin":
		info.kind, info.title = acpsdk.ToolKindExecute, "Write to process"
	case "grep", "glob", "mcp_search":
		info.kind = acpsdk.ToolKindSearch
		info.title = strings.TrimSpace(call.Name + " " + firstNonEmpty(str("pattern"), str("query")))
	case "ask_user":
		info.title = firstNonEmpty(str("question"), call.Name)
	case "update_plan":
		info.kind, info.title = acpsdk.ToolKindThink, "Update plan"
	case "web_fetch", "fetch":
		info.kind = acpsdk.ToolKindFetch
		info.title = strings.TrimSpace("Fetch " + str("url"))
	}
	return info
}

// patchKind is an apply_patch call's kind: delete or move when that is
// all it does, else edit.
func patchKind(patch string) acpsdk.ToolKind {
	text := patchText(patch)
	adds := strings.Count(text, "*** Add File:")
	updates := strings.Count(text, "*** Update File:")
	deletes := strings.Count(text, "*** Delete File:")
	moves := strings.Count(text, "*** Move to:")
	switch {
	case deletes > 0 && adds == 0 && updates == 0:
		return acpsdk.ToolKindDelete
	case moves > 0 && moves == updates && adds == 0 && deletes == 0 && !strings.Contains(text, "\n@@"):
		return acpsdk.ToolKindMove
	}
	return acpsdk.ToolKindEdit
}

// patchPaths are the files an apply_patch call names.
func patchPaths(patch string) []string {
	var out []string
	for _, line := range strings.Split(patchText(patch), "\n") {
		for _, p := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			if rest, ok := strings.CutPrefix(line, p); ok {
				out = append(out, strings.TrimSpace(rest))
			}
		}
	}
	return out
}

// patchText is the patch of apply_patch's arguments (an object with
// "input" or "patch", or the raw text).
func patchText(args string) string {
	var a map[string]any
	if json.Unmarshal([]byte(args), &a) == nil {
		for _, k := range []string{"input", "patch"} {
			if s, ok := a[k].(string); ok {
				return s
			}
		}
	}
	return args
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
