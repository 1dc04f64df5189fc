package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/providers/catalog"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/sessions"
	"github.com/zero-agent/zero/internal/skills"
	"github.com/zero-agent/zero/internal/subagents"
	"github.com/zero-agent/zero/internal/workspace"
)

// contextCmd is `zero context [--session ID]`: what the latest session of
// this workspace (or the one named) puts in the model's window, and the
// bytes each context lever saved. It reads the stored session only: no
// model server is needed or contacted. The window is the one the session
// last ran with (its run_start events record it); the tools are the run
// layer's tool set. The server's counts come from the logged usage events:
// the last prompt, the bytes-per-token ratio it implies, the prompt
// cache's hit rate. Its end lists the instruction files (AGENTS.md,
// CLAUDE.md, ZERO.md, imports) a session here loads, as /memory does.
func contextCmd(s stdio) *cobra.Command {
	var id string
	c := &cobra.Command{
		Use:   "context",
		Short: "What the latest session puts in the model's window and what each context lever saved",
		Long: `Reads the stored session (the latest of this workspace, or --session ID) and
prints what it puts in the model's window: system prompt, tool schemas,
messages and free space, with the bytes each context lever saved, then the
instruction files a session here loads (AGENTS.md, CLAUDE.md, ZERO.md and
their imports). No model server is contacted.`,
		GroupID: groupSessions,
		Args:    cobra.NoArgs,
		RunE: ran(func(*cobra.Command, []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			return contextReport(s, canonicalDir(wd), id)
		}),
	}
	c.Flags().StringVar(&id, "session", "", "session `ID` or prefix (default: the latest of this workspace)")
	c.RegisterFlagCompletionFunc("session", completeSessions)
	return c
}

// contextReport prints the context report of session id ("" the latest
// of workspace wd).
func contextReport(s stdio, wd, id string) error {
	st, err := openStore()
	if err != nil {
		return err
	}
	var sess *sessions.Session
	if id != "" {
		sess, err = st.Load(id)
	} else {
		sess, err = st.Latest(wd)
	}
	if errors.Is(err, sessions.ErrNotFound) {
		if id != "" {
			return usagef("no session %q (zero sessions --all lists them)", id)
		}
		return usagef("no session for %s yet (zero sessions --all lists them)", wd)
	}
	if err != nil {
		return usagef("%v", err)
	}
	defer sess.Close()
	evs, _, err := sess.Events()
	if err != nil {
		return err
	}
	history, _ := sessions.RebuildHistory(evs)
	meta := sess.Meta()
	cfg, trust, err := run.LoadConfig(wd, config.Overrides{})
	if err != nil {
		return err
	}
	inst := run.LoadInstructions(wd, trust.OK())
	compactions, ranWith, lastUsage := 0, 0, -1
	var cache contextmgr.PromptCache
	for i, e := range evs {
		switch {
		case e.Type == event.Compaction:
			compactions++
		case e.Type == event.Usage && e.Usage != nil && !e.Usage.Estimated && e.Usage.InputTokens > 0:
			cache.Add(*e.Usage)
			lastUsage = i
		case e.Type == event.RunStart && e.ContextWindow > 0:
			ranWith = e.ContextWindow
		}
	}
	window, source := ranWith, "the window the session ran with"
	if window == 0 {
		m, _ := catalog.Resolve(meta.Provider, meta.Model)
		window, source = catalog.Window(m, 0, cfg.ContextWindow)
	}
	ws, err := workspace.New(wd)
	if err != nil {
		return err
	}
	defer ws.Close()
	sk := skills.Discover(run.ExtensionOptions(wd, trust.OK(), run.LoadPlugins()))
	reg := run.ToolSet(ws, run.ToolOptions{})
	run.AddSkillTool(reg, sk, run.ToolOptions{})
	if meta.ParentID == "" { // sub-agents do not nest
		run.AddTaskTool(reg, subagents.Discover(run.ExtensionOptions(wd, trust.OK(), run.LoadPlugins())), window)
	}
	a := agent.New(agent.Options{
		Model:         meta.Model,
		System:        agent.SystemPrompt(wd, time.Now(), run.SystemExtra(inst, sk, window)),
		Tools:         reg,
		History:       history,
		ContextWindow: window,
		MaxToolOutput: cfg.MaxToolOutput,
		MaxTurnOutput: cfg.MaxTurnOutput,
	})
	if lastUsage >= 0 {
		counted, _ := sessions.RebuildHistory(evs[:lastUsage])
		a.RestoreMeasurements(counted, cache)
	}
	fmt.Fprintf(s.out, "session %s · model %s · window %d tokens (%s)\n", sess.ID(), meta.Model, window, source)
	fmt.Fprintf(s.out, "compactions logged: %d\n", compactions)
	report := a.ContextReport()
	run.FillSkillReport(&report, sk, window)
	fmt.Fprintln(s.out, report.String())
	fmt.Fprintln(s.out, inst.Report())
	return nil
}
