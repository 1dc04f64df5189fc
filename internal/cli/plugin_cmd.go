package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/plugins"
)

// pluginCmd is `zero plugin add|list|info|enable|disable|remove` and
// `zero plugin marketplace add|list|remove`.
func pluginCmd(s stdio) *cobra.Command {
	c := &cobra.Command{
		Use:   "plugin",
		Short: "Plugins in Claude Code's layout: add, list, info, enable, disable, remove; marketplaces",
		Long: `A plugin is a folder with .claude-plugin/plugin.json and any of skills/,
commands/, agents/, hooks/hooks.json and .mcp.json (Claude Code's layout).
zero plugin add copies it (from a folder, a git URL, or NAME@MARKETPLACE) into
Zero's data folder (~/.local/share/zero/plugins) and pins it in
~/.config/zero/plugins.lock.json by the SHA-256 of its files (and the commit,
from git). Nothing of it runs at install time. A plugin whose hooks or MCP
servers run programs is installed disabled: zero plugin info NAME shows them,
zero plugin enable NAME turns it on (or add --enable). An enabled plugin's
skills and commands load as NAME:skill and /NAME:command, its hooks and MCP
servers (plugin_NAME_SERVER) with your own; ${CLAUDE_PLUGIN_ROOT} is its
folder. A plugin whose files changed after install is refused with a warning.`,
		GroupID: groupSetup,
		Args:    subcommands,
		RunE:    ran(func(*cobra.Command, []string) error { return runPluginList(s) }),
	}
	var enable bool
	add := &cobra.Command{Use: "add PATH|GIT-URL[#REF]|NAME@MARKETPLACE", Short: "Install a plugin (a copy, pinned by hash; nothing runs)",
		Args: exactArgs(1, "zero plugin add PATH|GIT-URL[#REF]|NAME@MARKETPLACE"),
		RunE: ran(func(c *cobra.Command, a []string) error { return runPluginAdd(c.Context(), s, a[0], enable) })}
	add.Flags().BoolVar(&enable, "enable", false, "enable at once even when its hooks or MCP servers run programs")
	name := func(use, short string, fn func(stdio, string) error) *cobra.Command {
		return &cobra.Command{Use: use + " NAME", Short: short, Args: exactArgs(1, "zero plugin "+use+" NAME"),
			RunE: ran(func(_ *cobra.Command, a []string) error { return fn(s, a[0]) }), ValidArgsFunction: completePlugins}
	}
	c.AddCommand(add,
		&cobra.Command{Use: "list", Short: "List the installed plugins", Args: cobra.NoArgs,
			RunE: ran(func(*cobra.Command, []string) error { return runPluginList(s) }), ValidArgsFunction: cobra.NoFileCompletions},
		name("info", "Show a plugin: its source, hash, skills, commands, agents, and the hooks and MCP servers it runs", runPluginInfo),
		name("enable", "Enable a plugin (its parts load in new sessions)", func(s stdio, n string) error { return runPluginEnable(s, n, true) }),
		name("disable", "Disable a plugin (it stays installed)", func(s stdio, n string) error { return runPluginEnable(s, n, false) }),
		name("remove", "Uninstall a plugin (its folder and lock entry)", runPluginRemove),
		marketplaceCmd(s),
	)
	return c
}

func marketplaceCmd(s stdio) *cobra.Command {
	c := &cobra.Command{Use: "marketplace", Short: "Plugin marketplaces (.claude-plugin/marketplace.json): add, list, remove",
		Args: subcommands, RunE: ran(func(*cobra.Command, []string) error { return runMarketList(s) })}
	c.AddCommand(
		&cobra.Command{Use: "add PATH|GIT-URL[#REF]", Short: "Add a marketplace (a copy, pinned by hash); then zero plugin add NAME@MARKETPLACE",
			Args: exactArgs(1, "zero plugin marketplace add PATH|GIT-URL[#REF]"),
			RunE: ran(func(c *cobra.Command, a []string) error { return runMarketAdd(c.Context(), s, a[0]) })},
		&cobra.Command{Use: "list", Short: "List the marketplaces and the plugins each offers", Args: cobra.NoArgs,
			RunE: ran(func(*cobra.Command, []string) error { return runMarketList(s) })},
		&cobra.Command{Use: "remove NAME", Short: "Forget a marketplace (plugins installed from it stay)", Args: exactArgs(1, "zero plugin marketplace remove NAME"),
			RunE: ran(func(_ *cobra.Command, a []string) error { return plugins.DefaultStore().RemoveMarketplace(a[0]) })},
	)
	return c
}

func completePlugins(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, in := range plugins.DefaultStore().Load().Plugins {
		out = append(out, in.Name)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// marketRef is NAME@MARKETPLACE.
var marketRef = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)@([A-Za-z0-9][A-Za-z0-9._-]*)$`)

func runPluginAdd(ctx context.Context, s stdio, source string, enable bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	st := plugins.DefaultStore()
	var added *plugins.Added
	var err error
	if m := marketRef.FindStringSubmatch(source); m != nil && !fileExists(source) {
		added, err = st.AddFromMarketplace(ctx, m[1], m[2], plugins.AddOptions{Enable: enable})
	} else {
		if err := checkPluginFolder(source); err != nil {
			return err
		}
		added, err = st.Add(ctx, source, plugins.AddOptions{Enable: enable})
	}
	if err != nil {
		return err
	}
	p, e := added.Plugin, added.Entry
	fmt.Fprintf(s.out, "installed %s from %s (%s)\n", strings.TrimSpace(p.Name+" "+p.Version), sourceLine(e), e.Hash)
	writeParts(s.out, added.Parts)
	switch {
	case e.Enabled && added.Parts.Runs():
		fmt.Fprintf(s.out, "enabled (--enable): its hooks and MCP servers above run in new sessions\n")
	case e.Enabled:
		fmt.Fprintf(s.out, "enabled: its parts load in new sessions (zero plugin disable %s turns it off)\n", p.Name)
	case added.Parts.Unread:
		fmt.Fprintf(s.out, "disabled: a hooks or MCP file or entry above could not be read, so what it would run is unknown; fix the plugin, then zero plugin remove %s and add it again\n", p.Name)
	default:
		fmt.Fprintf(s.out, "disabled: it runs programs (the hooks and MCP servers above); review them, then: zero plugin enable %s\n", p.Name)
	}
	return nil
}

// checkPluginFolder is a usage error for a source that names no git
// repository and no folder here: a path that is not there or is a file.
func checkPluginFolder(source string) error {
	if plugins.IsGitSource(source) {
		return nil
	}
	fi, err := os.Stat(source)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("no folder %s: zero plugin add takes a plugin folder, a git URL or NAME@MARKETPLACE", source)
	case err == nil && !fi.IsDir():
		return usagef("%s is a file, not a plugin folder", source)
	}
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// sourceLine is where a plugin came from, with its commit.
func sourceLine(e plugins.Entry) string {
	src := e.Source
	if e.Ref != "" {
		src += "#" + e.Ref
	}
	if e.Marketplace != "" {
		src += ", marketplace " + e.Marketplace
	}
	if e.Commit != "" {
		return fmt.Sprintf("%s (git, commit %s)", src, e.Commit)
	}
	return src
}

// writeParts lists what a plugin brings, programs it runs last.
func writeParts(w io.Writer, pt plugins.Parts) {
	list := func(label string, names []string, prefix string) {
		if len(names) > 0 {
			fmt.Fprintf(w, "  %s: %s%s\n", label, prefix, strings.Join(names, " "+prefix))
		}
	}
	list("skills", pt.Skills, "")
	list("commands", pt.Commands, "/")
	list("agents", pt.Agents, "")
	block := func(label string, lines []string) {
		if len(lines) > 0 {
			fmt.Fprintf(w, "  %s:\n", label)
			for _, l := range lines {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
	}
	block("hooks (run on their events once enabled)", pt.Hooks)
	block("MCP servers (started with each session once enabled)", pt.MCP)
	for _, p := range pt.Problems {
		fmt.Fprintf(w, "  ! %s\n", p)
	}
}

// doctorPlugins is `zero doctor`'s plugins line: how many are installed
// and load; an enabled one that does not load (modified, missing,
// broken) or an unreadable lock file fails the check.
func doctorPlugins(c *checks) {
	set := plugins.DefaultStore().Load()
	active, disabled := 0, 0
	for _, in := range set.Plugins {
		switch {
		case in.Active():
			active++
		case !in.Entry.Enabled:
			disabled++
		}
	}
	c.line(len(set.Warnings) == 0, "plugins: %d installed, %d loaded, %d disabled, %d not loaded (zero plugin list)",
		len(set.Plugins), active, disabled, len(set.Plugins)-active-disabled)
	for _, w := range set.Warnings {
		c.note("  ! %s", w)
	}
}

func runPluginList(s stdio) error {
	set := plugins.DefaultStore().Load()
	if len(set.Plugins) == 0 {
		fmt.Fprintln(s.out, "no plugins installed (zero plugin add PATH|GIT-URL|NAME@MARKETPLACE)")
		return nil
	}
	for _, in := range set.Plugins {
		state := "disabled"
		if in.Entry.Enabled {
			state = "enabled"
		}
		if in.Status != plugins.StatusOK {
			state += ", " + string(in.Status) + ": not loaded"
		}
		version := in.Entry.Version
		if version == "" {
			version = "-"
		}
		fmt.Fprintf(s.out, "%s  %s  %s  %s\n", in.Name, version, state, sourceLine(in.Entry))
	}
	return nil
}

func installed(name string) (plugins.Installed, error) {
	in, ok := plugins.DefaultStore().Load().Get(name)
	if !ok {
		_, err := plugins.DefaultStore().ReadLock()
		if err != nil {
			return in, err
		}
		return in, usagef("no plugin %q is installed (zero plugin list shows them)", name)
	}
	return in, nil
}

func runPluginInfo(s stdio, name string) error {
	in, err := installed(name)
	if err != nil {
		return err
	}
	e := in.Entry
	state := "disabled"
	if e.Enabled {
		state = "enabled"
	}
	fmt.Fprintf(s.out, "%s (%s)\n", strings.TrimSpace(in.Name+" "+e.Version), state)
	if p := in.Plugin; p != nil {
		if p.Description != "" {
			fmt.Fprintf(s.out, "  %s\n", p.Description)
		}
		if a := p.Author.String(); a != "" {
			fmt.Fprintf(s.out, "  author: %s\n", a)
		}
	}
	fmt.Fprintf(s.out, "  source: %s\n  folder: %s\n  hash: %s (%s)\n  installed: %s\n",
		sourceLine(e), plugins.DefaultStore().PluginDir(name), e.Hash, in.Status, e.InstalledAt)
	if in.Problem != "" {
		fmt.Fprintf(s.out, "  ! %s\n", in.Problem)
	}
	if in.Plugin != nil {
		writeParts(s.out, in.Plugin.Parts())
	}
	return nil
}

func runPluginEnable(s stdio, name string, on bool) error {
	st := plugins.DefaultStore()
	if err := st.SetEnabled(name, on); err != nil {
		if _, ok := err.(*plugins.NotInstalledError); ok {
			return usagef("%v", err)
		}
		return err
	}
	if !on {
		fmt.Fprintf(s.out, "disabled %s (new sessions do not load it)\n", name)
		return nil
	}
	fmt.Fprintf(s.out, "enabled %s (new sessions load it)\n", name)
	if in, ok := st.Load().Get(name); ok && in.Status != plugins.StatusOK {
		fmt.Fprintf(s.err, "zero: warning: plugin %s does not load: %s\n", name, in.Problem)
	} else if ok {
		pt := in.Plugin.Parts()
		writeParts(s.out, plugins.Parts{Hooks: pt.Hooks, MCP: pt.MCP, Problems: pt.Problems})
	}
	return nil
}

func runPluginRemove(s stdio, name string) error {
	if err := plugins.DefaultStore().Remove(name); err != nil {
		if _, ok := err.(*plugins.NotInstalledError); ok {
			return usagef("%v", err)
		}
		return err
	}
	fmt.Fprintf(s.out, "removed %s\n", name)
	return nil
}

func runMarketAdd(ctx context.Context, s stdio, source string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := plugins.DefaultStore().AddMarketplace(ctx, source)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "added marketplace %s (%d plugins)\n", m.Name, len(m.Plugins))
	writeMarket(s.out, m)
	if missing := m.Missing(); len(missing) > 0 {
		fmt.Fprintf(s.err, "zero: warning: marketplace %s lists plugins it has no folder for, which cannot be added: %s\n", m.Name, strings.Join(missing, ", "))
	}
	return nil
}

func writeMarket(w io.Writer, m *plugins.Marketplace) {
	for _, p := range m.Plugins {
		line := "  " + p.Name + "@" + m.Name
		if p.Version != "" {
			line += " " + p.Version
		}
		if p.Description != "" {
			line += "  " + p.Description
		}
		fmt.Fprintln(w, line)
	}
}

func runMarketList(s stdio) error {
	st := plugins.DefaultStore()
	ms, err := st.Marketplaces()
	if err != nil {
		return err
	}
	if len(ms) == 0 {
		fmt.Fprintln(s.out, "no marketplaces (zero plugin marketplace add PATH|GIT-URL)")
		return nil
	}
	names := make([]string, 0, len(ms))
	for n := range ms {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(s.out, "%s  %s\n", name, sourceLine(ms[name]))
		m, err := st.Marketplace(name)
		if err != nil {
			fmt.Fprintf(s.out, "  ! %v\n", err)
			continue
		}
		writeMarket(s.out, m)
	}
	return nil
}
