package mcpconfig

import "fmt"

// OriginPlugin is the origin of an enabled plugin's servers (followed by
// the plugin's name in Server.Origin).
const OriginPlugin = "plugin"

// PluginServerName is the name Zero gives server of plugin: Claude Code's
// plugin_<plugin>_<server>, so its tools are
// mcp__plugin_<plugin>_<server>__<tool> there and here, and hook matchers
// and permission rules written for Claude Code carry over.
func PluginServerName(plugin, server string) string {
	return "plugin_" + plugin + "_" + server
}

// Plugin is one plugin's MCP configuration: a .mcp.json at its root, a
// file its plugin.json names, or plugin.json itself (its mcpServers
// key), as Claude Code reads them
// (https://docs.claude.com/en/docs/claude-code/plugins-reference#mcp-servers).
type Plugin struct {
	// Name is the plugin's; Root its installed folder, which
	// ${CLAUDE_PLUGIN_ROOT} names in commands, args, env and urls.
	Name, Root string
	// DataDir is the plugin's folder for its own state, which
	// ${CLAUDE_PLUGIN_DATA} names ("" leaves the variable to lookup).
	DataDir string
	// Path is the file, Data its bytes.
	Path string
	Data []byte
}

// PluginServers reads the servers of p (under "mcpServers", or the file
// is the map alone, as Claude Code also accepts), named PluginServerName, with
// their variables expanded (CLAUDE_PLUGIN_ROOT is the plugin's folder,
// CLAUDE_PLUGIN_DATA its state folder; other variables come from
// lookup). An entry Zero cannot use is in skipped ("plugin P: MCP server
// "x" (FILE:LINE:COL) skipped: why"): what the plugin would run there is
// not known. Warnings are the rest worth saying (a key ignored, a
// variable not set); a file that does not parse is an error.
func PluginServers(p Plugin, lookup func(string) (string, bool)) (servers []Server, skipped, warns []string, err error) {
	doc, err := parseJSONDoc(p.Path, p.Data, true)
	if err != nil {
		return nil, nil, nil, err
	}
	entries := doc.members
	if m := doc.member("mcpServers"); m != nil {
		if entries, err = doc.subMembers(m); err != nil {
			return nil, nil, nil, err
		}
	}
	r := doc.servers(entries, shapeClaude)
	warns = r.warns
	for _, sk := range r.skipped {
		skipped = append(skipped, fmt.Sprintf("plugin %s: MCP server %q (%s) skipped: %s", p.Name, sk.Name, sk.OriginPath, sk.Reason))
	}
	look := func(name string) (string, bool) {
		switch {
		case name == "CLAUDE_PLUGIN_ROOT":
			return p.Root, true
		case name == "CLAUDE_PLUGIN_DATA" && p.DataDir != "":
			return p.DataDir, true
		}
		if lookup == nil {
			return "", false
		}
		return lookup(name)
	}
	for _, s := range r.servers {
		s.Name = PluginServerName(p.Name, s.Name)
		s.Origin, s.OriginPath = OriginPlugin+" "+p.Name, p.Path
		x := &expander{lookup: look}
		x.server(&s)
		if w := x.missingWarning(s); w != "" {
			warns = append(warns, w)
		}
		servers = append(servers, s)
	}
	return servers, skipped, warns, nil
}
