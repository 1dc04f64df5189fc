// Package tools holds the tools the model may call (read_file, list_dir,
// glob, grep, write_file, edit_file, bash) and the registry that offers
// them. A tool is a value with a name, a JSON schema, a side-effect class
// and Run. Tools touch the workspace only through paths resolved by
// internal/workspace; they never decide permissions (internal/permission
// does) and never shape output for the context window (internal/contextmgr
// does). A tool that keeps only part of its output (bash) streams the whole
// of it to a file its caller names (WithFullOutput, output.go).
package tools

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// SideEffect classifies what a tool can do; the permission engine decides
// from it.
type SideEffect string

// Side effects.
const (
	SideRead    SideEffect = "read"
	SideWrite   SideEffect = "write"
	SideShell   SideEffect = "shell"
	SideNetwork SideEffect = "network"
	// SideExternal is a tool another program runs (an MCP server's): Zero
	// cannot see what it does, so it asks in normal mode and plan mode
	// refuses it. SideExternalRead is one its server marks read-only
	// (readOnlyHint, a hint, not a guarantee): it still asks in normal
	// mode, and plan mode offers and runs it.
	SideExternal     SideEffect = "external"
	SideExternalRead SideEffect = "external-read"
	// SideNone changes only the session's own state (update_plan): it
	// runs in every mode without asking.
	SideNone SideEffect = "none"
)

// Result is what a tool run produced.
type Result struct {
	// Content is the text sent to the model (before context caps).
	Content string
	// IsError marks a failed call; Content then says what went wrong and
	// what the model can do.
	IsError bool
	// ExitCode is set by shell tools.
	ExitCode *int
	// Diff is a unified diff of an edit or write, for display.
	Diff string
	// Paths lists workspace-absolute files the call read or changed, for
	// read-cache invalidation.
	Paths []string
	// RawBytes is the size in bytes of the output the tool produced when
	// the tool itself kept only part of it (bash keeps a head and a tail);
	// 0 when Content holds all of it.
	RawBytes int
	// FullOutput, when set, is the file holding the whole output (the
	// path WithFullOutput named) while Content holds part of it;
	// FullOutputBytes is how many bytes the file holds, less than RawBytes
	// when the tool's file limit stopped it.
	FullOutput      string
	FullOutputBytes int
	// Images are images the tool returned (MCP image content, checked
	// against the strictest provider limit); Content describes them too.
	Images []llm.Image
	// Plan is the plan an update_plan call set; the agent keeps the
	// latest and emits it as an event.TaskPlan.
	Plan *event.TaskPlan
}

// Tool is one callable tool.
type Tool interface {
	Name() string
	// Description is sent to the model with every request: keep it short.
	Description() string
	// Schema is the JSON Schema of the arguments object.
	Schema() json.RawMessage
	SideEffect() SideEffect
	// Run executes the call. A failure the model can act on (bad
	// arguments, no match, non-zero exit) is a Result with IsError, not an
	// error; error is for cancellation and internal faults.
	Run(ctx context.Context, args json.RawMessage) (Result, error)
}

// Registry is an ordered set of tools by name.
type Registry struct {
	byName map[string]Tool
}

// NewRegistry returns a registry holding ts (later names win).
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: map[string]Tool{}}
	for _, t := range ts {
		r.Add(t)
	}
	return r
}

// Add registers t under its name.
func (r *Registry) Add(t Tool) { r.byName[t.Name()] = t }

// Get returns the tool named name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Names returns the tool names sorted.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.byName))
	for n := range r.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Specs returns the tool specs for a request, sorted by name, keeping only
// tools for which keep returns true (nil keeps all).
func (r *Registry) Specs(keep func(Tool) bool) []llm.ToolSpec {
	var out []llm.ToolSpec
	for _, n := range r.Names() {
		t := r.byName[n]
		if keep != nil && !keep(t) {
			continue
		}
		out = append(out, llm.ToolSpec{Name: t.Name(), Description: t.Description(), Parameters: t.Schema()})
	}
	return out
}
