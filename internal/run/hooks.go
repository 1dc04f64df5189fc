package run

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/hooks"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/workspace"
)

// HookRunner fires configured hooks and records every run as a hook event
// in the session's sink chain (the session log is the audit trail). A nil
// HookRunner, or one without hooks, does nothing.
type HookRunner struct {
	runner *hooks.Runner
	audit  event.Sink
	sessID string
}

// Fire runs the hooks of ev and reports whether one blocked, and why.
func (h *HookRunner) Fire(ctx context.Context, ev hooks.Event, p hooks.Payload) (bool, string) {
	if h == nil || h.runner == nil {
		return false, ""
	}
	p.Event, p.SessionID, p.Cwd = ev, h.sessID, h.runner.Dir
	blocked, reason, runs := h.runner.Fire(ctx, ev, p)
	for _, r := range runs {
		if h.audit == nil {
			break
		}
		h.audit.Emit(event.Event{Type: event.Hook, HookRun: &event.HookRun{
			Event: string(r.Event), Command: r.Command, Source: r.Source, Tool: p.Tool, ExitCode: r.ExitCode,
			ElapsedMs: r.Elapsed.Milliseconds(), Blocked: r.Blocked, TimedOut: r.TimedOut, Stderr: r.Stderr, Error: r.Error,
		}})
	}
	return blocked, reason
}

// BeforeTool implements permission.Hooks.
func (h *HookRunner) BeforeTool(ctx context.Context, call llm.ToolCall) (bool, string) {
	return h.Fire(ctx, hooks.BeforeTool, hooks.Payload{Tool: call.Name, Arguments: json.RawMessage(argsOrEmpty(call.Arguments))})
}

func argsOrEmpty(s string) string {
	if json.Valid([]byte(s)) {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// safety is what decides and audits tool calls for a runtime: the
// permission engine with the user's (and, in a trusted folder, the
// project's) rules, the hooks, and the instruction files' text.
type safety struct {
	engine *permission.Engine
	hooks  *hooks.Runner
	// trusted is whether the user trusted this folder (`zero trust`):
	// only then do project rules and hooks load.
	trusted bool
}

// newSafety builds the engine and hooks. Project rules and hooks are
// untrusted code that arrived with the repository: they load only after
// `zero trust` (trust is the state LoadConfig read for the config, so both
// agree and the trust file is read once), and Zero says so when they are
// present but ignored.
func newSafety(stderr io.Writer, ws *workspace.Workspace, cfg *config.Config, trust FolderTrust, mode permission.Mode) (*safety, error) {
	home, _ := os.UserHomeDir()
	root := ws.Root()
	sf := &safety{trusted: trust.OK()}
	projectDir := ""
	switch {
	case sf.trusted:
		projectDir = root
	case trust.State == permission.TrustChanged:
		fmt.Fprintf(stderr, "zero: %s changed since you trusted this folder; project rules, hooks and provider choices are ignored until you review them and run `zero trust` again\n", strings.Join(trust.Changed, ", "))
	case exists(filepath.Join(root, ".zero", "rules.json")) || exists(filepath.Join(root, ".zero", "hooks.json")) || len(cfg.ProjectHooks) > 0:
		fmt.Fprintf(stderr, "zero: this folder has project rules or hooks; they are ignored until you run `zero trust` here\n")
	}
	set, err := rules.Load(projectDir, home)
	if err != nil {
		return nil, configErrorf("rules: %v", err)
	}
	sf.engine, err = permission.New(permission.Config{Workspace: ws, Home: home, ConfigDir: config.Dir(), Mode: mode, Rules: set})
	if err != nil {
		return nil, err
	}
	sf.hooks, err = loadHooks(root, cfg, sf.trusted)
	if err != nil {
		return nil, err
	}
	return sf, nil
}

// loadHooks merges the user's hooks and, in a trusted folder, the
// project's; nil when there are none.
func loadHooks(root string, cfg *config.Config, trusted bool) (*hooks.Runner, error) {
	var cfgs []hooks.Config
	if len(cfg.Hooks) > 0 {
		c, err := hooks.Parse(cfg.Hooks)
		if err != nil {
			return nil, configErrorf("hooks in the user config: %v", err)
		}
		cfgs = append(cfgs, c)
	}
	if trusted {
		if len(cfg.ProjectHooks) > 0 {
			c, err := hooks.Parse(cfg.ProjectHooks)
			if err != nil {
				return nil, configErrorf("hooks in .zero/config.json: %v", err)
			}
			cfgs = append(cfgs, c)
		}
		c, err := hooks.LoadFile(filepath.Join(root, ".zero", "hooks.json"))
		if err != nil {
			return nil, configErrorf("%v", err)
		}
		cfgs = append(cfgs, c)
	}
	merged := hooks.Merge(cfgs...)
	if len(merged.BeforeTool)+len(merged.AfterTool)+len(merged.SessionStart)+len(merged.SessionEnd) == 0 {
		return nil, nil
	}
	return &hooks.Runner{Config: merged, Dir: root, Env: bashEnv()}, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
