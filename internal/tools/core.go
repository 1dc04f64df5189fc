package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"

	"github.com/zero-agent/zero/internal/workspace"
)

// Options tunes the core tools. The zero value gives the defaults named
// on each field.
type Options struct {
	// ReadLimit is read_file's default line count (2000).
	ReadLimit int
	// ReadMaxBytes caps read_file output in bytes (256 KiB); the result
	// then says which offset to read next.
	ReadMaxBytes int
	// ListLimit caps list_dir entries (1000).
	ListLimit int
	// GlobLimit caps glob results (1000).
	GlobLimit int
	// GrepMaxMatches caps grep's reported lines (100); the rest are counted.
	GrepMaxMatches int
	// GrepPreviewBytes caps each grep preview line in bytes (200).
	GrepPreviewBytes int
	// BashTimeout is the bash default timeout (120 s).
	BashTimeout time.Duration
	// BashMaxTimeout bounds a model-requested timeout_ms and the default
	// (10 min).
	BashMaxTimeout time.Duration
	// BashOutputCap is how many output bytes bash keeps in memory, half
	// from the head and half from the tail (1 MiB); the raw size is always
	// reported.
	BashOutputCap int
	// BashFullOutputLimit bounds the file bash streams its whole output to
	// when the caller asks (WithFullOutput) and the output passes
	// BashOutputCap (64 MiB): the file holds at most this many bytes, the
	// first ones, and the marker says so.
	BashFullOutputLimit int
	// BashEnv, when non-nil, replaces the inherited environment of bash.
	BashEnv []string
	// CommandWrapper, when set, is called on every bash command after it
	// is built (bash -c, Dir, process group, pipes) and before it starts;
	// it may rewrite Path and Args to run it under a sandbox (bubblewrap,
	// landlock helper) or change Env. ctx is the call's (WithNetwork says
	// whether it was granted the network). An error refuses the call and
	// is shown to the model.
	CommandWrapper func(ctx context.Context, cmd *exec.Cmd) error
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.ReadLimit, 2000)
	def(&o.ReadMaxBytes, 256<<10)
	def(&o.ListLimit, 1000)
	def(&o.GlobLimit, 1000)
	def(&o.GrepMaxMatches, 100)
	def(&o.GrepPreviewBytes, 200)
	def(&o.BashOutputCap, 1<<20)
	def(&o.BashFullOutputLimit, 64<<20)
	if o.BashTimeout <= 0 {
		o.BashTimeout = 120 * time.Second
	}
	if o.BashMaxTimeout <= 0 {
		o.BashMaxTimeout = 10 * time.Minute
	}
	if o.BashTimeout > o.BashMaxTimeout {
		o.BashTimeout = o.BashMaxTimeout
	}
	return o
}

// Core returns the core tools bound to ws: read_file, list_dir, glob, grep,
// write_file, edit_file and bash.
func Core(ws *workspace.Workspace, opts Options) []Tool {
	o := opts.withDefaults()
	return []Tool{
		&ReadFile{ws: ws, opts: o},
		&ListDir{ws: ws, opts: o},
		&Glob{ws: ws, opts: o},
		&Grep{ws: ws, opts: o},
		&WriteFile{ws: ws},
		&EditFile{ws: ws},
		&Bash{ws: ws, opts: o},
	}
}

// errorResult is a failure the model can act on.
func errorResult(format string, a ...any) Result {
	return Result{Content: fmt.Sprintf(format, a...), IsError: true}
}

// decodeArgs unmarshals args into v; a failure becomes a Result naming the
// expected shape.
func decodeArgs(args json.RawMessage, v any, shape string) (Result, bool) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, v); err != nil {
		return errorResult("invalid arguments (%v); expected %s", err, shape), false
	}
	return Result{}, true
}

// resolve maps a model path to an absolute one, or to a Result saying why
// it cannot be used (outside the workspace, unresolvable).
func resolve(ws *workspace.Workspace, path string, forWrite bool) (string, Result, bool) {
	abs, err := ws.Resolve(path, forWrite)
	if err != nil {
		return "", errorResult("%v", err), false
	}
	return abs, Result{}, true
}

// schema builds a minimal JSON Schema object; props maps a name to its
// {"type":..., "description":...} fragment.
func schema(props string, required ...string) json.RawMessage {
	if len(required) == 0 {
		return json.RawMessage(`{"type":"object","properties":{` + props + `}}`)
	}
	req, _ := json.Marshal(required)
	return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `}`)
}
