package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/run"
)

// mcpLong is `zero mcp --help`'s description.
const mcpLong = `MCP servers come from Zero's own file and the files of the tools you already
use, highest precedence first: Claude Code's local scope (~/.claude.json,
this project), the project's .mcp.json, Zero's mcp.json in the config dir,
Claude Code's user scope, Claude Desktop, Codex (~/.codex/config.toml),
Gemini CLI (the project's .gemini/settings.json, then ~/.gemini), and the
project's .vscode/mcp.json. The same name lower down is shadowed. Project
files load only once the folder is trusted (zero trust).

Zero edits only its own file: add, add-json, remove and import write it;
enable and disable of another tool's server write an override entry there
({"enabled": false}) that the other tool never sees.`

// mcpCmd is `zero mcp add|add-json|list|get|remove|enable|disable|import`;
// with no sub-verb it lists.
func mcpCmd(s stdio) *cobra.Command {
	c := &cobra.Command{
		Use:     "mcp",
		Short:   "Manage MCP servers (with no subcommand: list them)",
		Long:    mcpLong,
		GroupID: groupSetup,
		Args:    subcommands,
		RunE:    ran(func(*cobra.Command, []string) error { return mcpList(s, false) }),
	}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List every MCP server with its origin, transport and state",
		Args:  cobra.NoArgs,
		RunE:  ran(func(*cobra.Command, []string) error { return mcpList(s, asJSON) }),
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	named := func(use, short string, aliases []string, fn func(stdio, string) error) *cobra.Command {
		verb, _, _ := strings.Cut(use, " ")
		return &cobra.Command{
			Use:     use,
			Aliases: aliases,
			Short:   short,
			Args: func(_ *cobra.Command, args []string) error {
				if len(args) != 1 {
					return usagef("usage: zero mcp %s NAME", verb)
				}
				return nil
			},
			RunE:              ran(func(_ *cobra.Command, args []string) error { return fn(s, args[0]) }),
			ValidArgsFunction: completeMCPServers,
		}
	}
	c.AddCommand(
		mcpAddCmd(s), mcpAddJSONCmd(s), list,
		named("get NAME", "Show one server: where it comes from, what it runs, what it shadows", nil, mcpGet),
		named("remove NAME", "Remove a server from Zero's file", []string{"rm"}, mcpRemove),
		named("enable NAME", "Turn a server on (in Zero's file)", nil, func(s stdio, n string) error { return mcpSetEnabled(s, n, true) }),
		named("disable NAME", "Turn a server off without removing it (in Zero's file)", nil, func(s stdio, n string) error { return mcpSetEnabled(s, n, false) }),
		mcpImportCmd(s),
		mcpServeCmd(s),
		mcpDoctorCmd(s),
	)
	c.AddCommand(mcpLoginCmds(s)...)
	return c
}

// mcpOptions are the sources of this folder: the real home and config
// dir, the current folder as the workspace and its trust, the enabled
// plugins' servers.
func mcpOptions() (mcpconfig.Options, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return mcpconfig.Options{}, err
	}
	ws, err := run.Workdir("")
	if err != nil {
		return mcpconfig.Options{}, err
	}
	o, _ := run.MCPOptions(home, ws, run.ReadFolderTrust(ws).OK(), run.LoadPlugins())
	return o, nil
}

func mcpLoad() (mcpconfig.Options, mcpconfig.Loaded, error) {
	o, err := mcpOptions()
	if err != nil {
		return o, mcpconfig.Loaded{}, err
	}
	return o, mcpconfig.Load(o), nil
}

func userFile() mcpconfig.UserFile { return mcpconfig.NewUserFile(config.Dir()) }

// mcpAdd holds the flags of `zero mcp add`.
type mcpAdd struct {
	transport, scope string
	env, headers     []string
}

func mcpAddCmd(s stdio) *cobra.Command {
	a := &mcpAdd{}
	c := &cobra.Command{
		Use:   "add NAME [flags] -- COMMAND [ARGS...] | add NAME --transport http|sse URL",
		Short: "Add a server to Zero's file",
		Long: `Adds a stdio server (the words after -- are its command and arguments) or a
remote one (--transport http or sse, and its URL) to Zero's file. Values may
use ${VAR} and ${VAR:-default}: they are expanded when the server starts.`,
		Example: `  zero mcp add fs -- npx -y @modelcontextprotocol/server-filesystem ~/src
  zero mcp add --env GITHUB_TOKEN='${GITHUB_TOKEN}' gh -- docker run -i --rm ghcr.io/github/github-mcp-server
  zero mcp add --transport http sentry https://mcp.sentry.dev/mcp
  zero mcp add -t http -H 'Authorization: Bearer ${API_KEY}' api https://api.example.com/mcp`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) < 2 {
				return usagef("usage: zero mcp add NAME -- COMMAND [ARGS...], or zero mcp add NAME --transport http URL")
			}
			return nil
		},
		RunE:              ran(func(_ *cobra.Command, args []string) error { return mcpAddRun(s, a, args[0], args[1:]) }),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	fs := c.Flags()
	fs.StringVarP(&a.transport, "transport", "t", "", "`TRANSPORT`: stdio, http or sse (default: http for a URL, else stdio)")
	fs.StringArrayVarP(&a.env, "env", "e", nil, "environment variable `KEY=VALUE` for a stdio server (repeatable)")
	fs.StringArrayVarP(&a.headers, "header", "H", nil, "HTTP header `'NAME: VALUE'` for a remote server (repeatable)")
	fs.StringVarP(&a.scope, "scope", "s", "user", "`SCOPE`: user (Zero's file; the only one Zero writes)")
	c.RegisterFlagCompletionFunc("transport", cobra.FixedCompletions([]string{"stdio", "http", "sse"}, cobra.ShellCompDirectiveNoFileComp))
	c.RegisterFlagCompletionFunc("scope", cobra.FixedCompletions([]string{"user"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

func mcpAddRun(s stdio, a *mcpAdd, name string, rest []string) error {
	if a.scope != "user" {
		return usagef("--scope %q: Zero writes only its own file (--scope user); for a project server, write it in the project's .mcp.json", a.scope)
	}
	srv, err := a.server(name, rest)
	if err != nil {
		return err
	}
	if err := userFile().AddServer(srv); err != nil {
		if errors.Is(err, mcpconfig.ErrExists) {
			return usagef("%v: remove it first (zero mcp remove %s)", err, name)
		}
		if errors.Is(err, mcpconfig.ErrBadName) {
			return usagef("%v", err)
		}
		return err
	}
	fmt.Fprintf(s.out, "added %s (%s: %s) to %s\n", name, srv.Transport, what(srv), userFile().Path)
	return nil
}

// server is the Server the flags and words describe.
func (a *mcpAdd) server(name string, rest []string) (mcpconfig.Server, error) {
	srv := mcpconfig.Server{Name: name, Enabled: true, Transport: mcpconfig.Transport(a.transport)}
	if srv.Transport == "" {
		srv.Transport = mcpconfig.Stdio
		if len(rest) == 1 && isURL(rest[0]) {
			srv.Transport = mcpconfig.HTTP
		}
	}
	switch srv.Transport {
	case mcpconfig.Stdio:
		srv.Command, srv.Args = rest[0], rest[1:]
		if len(a.headers) > 0 {
			return srv, usagef("--header is for http and sse servers; a stdio server takes --env")
		}
	case mcpconfig.HTTP, mcpconfig.SSE:
		if len(rest) != 1 || !isURL(rest[0]) {
			return srv, usagef("a %s server takes one http(s) URL: zero mcp add --transport %s %s https://host/mcp", srv.Transport, srv.Transport, name)
		}
		srv.URL = rest[0]
		if len(a.env) > 0 {
			return srv, usagef("--env is for stdio servers; a remote server takes --header")
		}
	default:
		return srv, usagef("--transport %q: use stdio, http or sse", a.transport)
	}
	var err error
	if srv.Env, err = pairs(a.env, "=", "--env KEY=VALUE"); err != nil {
		return srv, err
	}
	srv.Headers, err = pairs(a.headers, ":", "--header 'NAME: VALUE'")
	return srv, err
}

func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// pairs splits each "KEY<sep>VALUE" (the value trimmed of spaces).
func pairs(list []string, sep, form string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, p := range list {
		k, v, ok := strings.Cut(p, sep)
		if k = strings.TrimSpace(k); !ok || k == "" {
			return nil, usagef("%q: use %s", p, form)
		}
		m[k] = strings.TrimSpace(v)
	}
	return m, nil
}

func mcpAddJSONCmd(s stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "add-json NAME JSON",
		Short: "Add a server to Zero's file from a JSON entry (as in .mcp.json)",
		Long: `Adds NAME with the JSON entry as written (Claude Code's keys: type, command,
args, env, url, headers; and Zero's: enabled, required, enabledTools,
disabledTools, alwaysLoad, startupTimeout, toolTimeout in seconds).`,
		Example: `  zero mcp add-json weather '{"type":"stdio","command":"uvx","args":["weather-mcp"],"env":{"KEY":"${WEATHER_KEY}"}}'`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef(`usage: zero mcp add-json NAME '{"command": "...", "args": [...]}'`)
			}
			return nil
		},
		RunE: ran(func(_ *cobra.Command, args []string) error {
			err := userFile().Add(args[0], json.RawMessage(args[1]))
			switch {
			case errors.Is(err, mcpconfig.ErrExists):
				return usagef("%v: remove it first (zero mcp remove %s)", err, args[0])
			case errors.Is(err, mcpconfig.ErrBadName), err != nil && strings.HasPrefix(err.Error(), "server "):
				return usagef("%v", err) // the entry given is wrong
			case err != nil:
				return err
			}
			fmt.Fprintf(s.out, "added %s to %s\n", args[0], userFile().Path)
			return nil
		}),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
}

func mcpRemove(s stdio, name string) error {
	err := userFile().Remove(name)
	if errors.Is(err, mcpconfig.ErrNoEntry) {
		_, l, lerr := mcpLoad()
		if lerr == nil {
			if srv, ok := winner(l, name); ok {
				return usagef("%s comes from %s (%s); Zero edits only its own file: remove it there, or turn it off with zero mcp disable %s", name, srv.Origin, srv.OriginPath, name)
			}
		}
		return usagef("no MCP server %q in %s", name, userFile().Path)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "removed %s from %s", name, userFile().Path)
	if _, l, err := mcpLoad(); err == nil {
		if srv, ok := winner(l, name); ok {
			fmt.Fprintf(s.out, "; %s still loads from %s (%s)", name, srv.Origin, srv.OriginPath)
		}
	}
	fmt.Fprintln(s.out)
	return nil
}

func mcpSetEnabled(s stdio, name string, on bool) error {
	_, l, err := mcpLoad()
	if err != nil {
		return err
	}
	srv, ok := winner(l, name)
	inZero, err := userFile().Has(name)
	if err != nil {
		return err
	}
	if !ok && !inZero {
		if i := slices.IndexFunc(l.Skipped, func(sk mcpconfig.Skipped) bool { return sk.Name == name }); i >= 0 {
			sk := l.Skipped[i]
			return usagef("MCP server %q is skipped, not loaded, so there is nothing to %s: %s (%s, %s)", name, map[bool]string{true: "enable", false: "disable"}[on], sk.Reason, sk.Origin, sk.OriginPath)
		}
		return usagef("no MCP server %q (zero mcp list shows them all)", name)
	}
	override, err := userFile().SetEnabled(name, on)
	if err != nil {
		return err
	}
	state := map[bool]string{true: "enabled", false: "disabled"}[on]
	if override && ok {
		fmt.Fprintf(s.out, "%s %s: it comes from %s (%s), which Zero does not edit; the override is in %s\n", state, name, srv.Origin, srv.OriginPath, userFile().Path)
		return nil
	}
	fmt.Fprintf(s.out, "%s %s (%s)\n", state, name, userFile().Path)
	return nil
}

func mcpImportCmd(s stdio) *cobra.Command {
	var from string
	c := &cobra.Command{
		Use:   "import --from claude|desktop|codex|gemini",
		Short: "Copy another tool's MCP servers into Zero's file",
		Long: `Copies the servers of Claude Code's user scope (claude), Claude Desktop
(desktop), Codex (codex) or Gemini CLI's user settings (gemini) into Zero's
file as written: ${VAR} references stay references. Names Zero's file
already holds are skipped. Zero reads those files anyway; import makes
Zero's copy independent of them.`,
		Args: cobra.NoArgs,
		RunE: ran(func(*cobra.Command, []string) error { return mcpImport(s, from) }),
	}
	c.Flags().StringVar(&from, "from", "", "`TOOL`: claude, desktop, codex or gemini")
	c.RegisterFlagCompletionFunc("from", cobra.FixedCompletions([]string{"claude", "desktop", "codex", "gemini"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

func mcpImport(s stdio, from string) error {
	if _, ok := mcpconfig.ImportFrom[from]; !ok {
		return usagef("--from %q: use claude, desktop, codex or gemini", from)
	}
	o, err := mcpOptions()
	if err != nil {
		return err
	}
	path, done, err := mcpconfig.Import(o, from)
	if err != nil {
		return err
	}
	if len(done) == 0 {
		fmt.Fprintf(s.out, "no MCP servers in %s\n", path)
		return nil
	}
	added := 0
	for _, d := range done {
		if d.Added {
			added++
			fmt.Fprintf(s.out, "imported %s (%s: %s)\n", d.Name, d.Server.Transport, what(d.Server))
		} else {
			fmt.Fprintf(s.out, "skipped %s: %s\n", d.Name, d.Reason)
		}
	}
	fmt.Fprintf(s.out, "%d of %d servers from %s copied to %s\n", added, len(done), path, userFile().Path)
	return nil
}

// mcpRow is one line of `zero mcp list`.
type mcpRow struct {
	Name      string   `json:"name"`
	State     string   `json:"state"` // on, off, shadowed, skipped
	Transport string   `json:"transport,omitempty"`
	Origin    string   `json:"origin"`
	Path      string   `json:"path"`
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	URL       string   `json:"url,omitempty"`
	// ShadowedBy is the origin of the entry that wins over this one.
	ShadowedBy string `json:"shadowedBy,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Override   string `json:"override,omitempty"`
}

// mcpRows is every server, shadowed and skipped entry, by name, the one
// that loads first.
func mcpRows(l mcpconfig.Loaded) []mcpRow {
	var rows []mcpRow
	row := func(srv mcpconfig.Server, state string) mcpRow {
		return mcpRow{Name: srv.Name, State: state, Transport: string(srv.Transport), Origin: srv.Origin, Path: srv.OriginPath,
			Command: srv.Command, Args: srv.Args, URL: srv.URL, Override: srv.OverridePath}
	}
	for _, srv := range l.Servers {
		rows = append(rows, row(srv, map[bool]string{true: "on", false: "off"}[srv.Enabled]))
	}
	for _, srv := range l.Shadowed {
		r := row(srv, "shadowed")
		if w, ok := winner(l, srv.Name); ok {
			r.ShadowedBy = w.Origin
		}
		rows = append(rows, r)
	}
	for _, sk := range l.Skipped {
		rows = append(rows, mcpRow{Name: sk.Name, State: "skipped", Origin: sk.Origin, Path: sk.OriginPath, Reason: sk.Reason})
	}
	slices.SortStableFunc(rows, func(a, b mcpRow) int { return strings.Compare(a.Name, b.Name) })
	return rows
}

// unreadable is the error of a listing that found nothing to show because
// a config file could not be read: "no servers configured" would hide
// that the user's servers are there but broken.
func unreadable(l mcpconfig.Loaded, shown int) error {
	if shown > 0 || len(l.Unreadable) == 0 {
		return nil
	}
	return &exitError{ExitFailed, fmt.Errorf("no MCP servers loaded: %s could not be read (the warning above says where); fix it and run this again", strings.Join(l.Unreadable, ", "))}
}

func mcpList(s stdio, asJSON bool) error {
	_, l, err := mcpLoad()
	if err != nil {
		return err
	}
	for _, w := range l.Warnings {
		fmt.Fprintln(s.err, "zero: warning:", w)
	}
	rows := mcpRows(l)
	if asJSON {
		if rows == nil {
			rows = []mcpRow{}
		}
		b, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintln(s.out, string(b))
		return unreadable(l, len(rows))
	}
	if len(rows) == 0 {
		if err := unreadable(l, 0); err != nil {
			return err
		}
		fmt.Fprintf(s.out, "no MCP servers configured: add one with zero mcp add, or import another tool's with zero mcp import --from claude\n")
		return nil
	}
	tw := tabs(s)
	fmt.Fprintln(tw, "NAME\tSTATE\tTRANSPORT\tORIGIN\tCOMMAND OR URL")
	for _, r := range rows {
		detail := what(mcpconfig.Server{Transport: mcpconfig.Transport(r.Transport), Command: r.Command, Args: r.Args, URL: r.URL})
		switch r.State {
		case "shadowed":
			r.State = "shadowed by " + r.ShadowedBy
		case "skipped":
			r.Transport, detail = "-", oneLine(r.Reason, 100)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", oneLine(r.Name, 40), r.State, r.Transport, r.Origin, detail)
	}
	return tw.Flush()
}

func mcpGet(s stdio, name string) error {
	_, l, err := mcpLoad()
	if err != nil {
		return err
	}
	var found bool
	for _, r := range mcpRows(l) {
		if r.Name != name {
			continue
		}
		found = true
		if r.State == "skipped" {
			fmt.Fprintf(s.out, "%s: not loaded from %s (%s): %s\n", name, r.Origin, r.Path, r.Reason)
			continue
		}
		if r.State == "shadowed" {
			fmt.Fprintf(s.out, "%s: shadowed by %s: %s (%s)\n", name, r.ShadowedBy, r.Origin, r.Path)
			continue
		}
		srv, _ := winner(l, name)
		printServer(s, srv, r.State)
	}
	if !found {
		return usagef("no MCP server %q (zero mcp list shows them all)", name)
	}
	return nil
}

// printServer shows srv's settings; env and header values are not
// printed (they often hold tokens), only whether they are set.
func printServer(s stdio, srv mcpconfig.Server, state string) {
	tw := tabs(s)
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(tw, "%s:\t%s\n", k, v)
		}
	}
	line("name", srv.Name)
	line("state", state)
	line("origin", srv.Origin+" ("+srv.OriginPath+")")
	line("override", srv.OverridePath)
	line("transport", string(srv.Transport))
	line("command", oneLine(srv.Command, 200))
	line("args", oneLine(strings.Join(srv.Args, " "), 200))
	line("cwd", srv.Cwd)
	line("url", srv.URL)
	line("env", setOrEmpty(srv.Env))
	line("headers", setOrEmpty(srv.Headers))
	if srv.BearerTokenEnv != "" {
		line("bearer token", "$"+srv.BearerTokenEnv+setOrEmpty(map[string]string{"": os.Getenv(srv.BearerTokenEnv)}))
	}
	line("required", map[bool]string{true: "yes"}[srv.Required])
	line("enabled tools", strings.Join(srv.EnabledTools, ", "))
	line("disabled tools", strings.Join(srv.DisabledTools, ", "))
	if srv.AlwaysLoad {
		line("always load", "every tool")
	}
	line("always load", strings.Join(srv.AlwaysLoadTools, ", "))
	if srv.StartupTimeout > 0 {
		line("startup timeout", srv.StartupTimeout.String())
	}
	if srv.ToolTimeout > 0 {
		line("tool timeout", srv.ToolTimeout.String())
	}
	tw.Flush()
}

// setOrEmpty lists m's keys, each marked (set) or (empty).
func setOrEmpty(m map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		mark := " (set)"
		if m[k] == "" {
			mark = " (empty)"
		}
		parts = append(parts, strings.TrimSpace(k+mark))
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// winner is the server of that name that loads, if any.
func winner(l mcpconfig.Loaded, name string) (mcpconfig.Server, bool) {
	i := slices.IndexFunc(l.Servers, func(s mcpconfig.Server) bool { return s.Name == name })
	if i < 0 {
		return mcpconfig.Server{}, false
	}
	return l.Servers[i], true
}

// what is what a server runs or reaches, on one line.
func what(s mcpconfig.Server) string {
	if s.Transport == mcpconfig.Stdio {
		return oneLine(strings.Join(append([]string{s.Command}, s.Args...), " "), 80)
	}
	return oneLine(s.URL, 80)
}

// completeMCPServers completes the names of the configured servers.
func completeMCPServers(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	_, l, err := mcpLoad()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, srv := range l.Servers {
		if strings.HasPrefix(srv.Name, toComplete) {
			out = append(out, cobra.CompletionWithDesc(srv.Name, srv.Origin))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// tabs is a tabwriter over w as the list commands use it.
func tabs(s stdio) *tabwriter.Writer { return tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0) }
