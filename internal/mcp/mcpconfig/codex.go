package mcpconfig

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/zero-agent/zero/internal/decodeerr"
)

// codexEntry is one [mcp_servers.NAME] table of Codex's config.toml
// (https://github.com/openai/codex/blob/main/docs/config.md#mcp_servers).
type codexEntry struct {
	Command           string            `toml:"command"`
	Args              []string          `toml:"args"`
	Env               map[string]string `toml:"env"`
	Cwd               string            `toml:"cwd"`
	URL               string            `toml:"url"`
	BearerTokenEnvVar string            `toml:"bearer_token_env_var"`
	HTTPHeaders       map[string]string `toml:"http_headers"`
	// EnvHTTPHeaders maps a header to the environment variable holding
	// its value.
	EnvHTTPHeaders    map[string]string `toml:"env_http_headers"`
	StartupTimeoutSec *float64          `toml:"startup_timeout_sec"`
	StartupTimeoutMs  *float64          `toml:"startup_timeout_ms"`
	ToolTimeoutSec    *float64          `toml:"tool_timeout_sec"`
	Enabled           *bool             `toml:"enabled"`
	Required          bool              `toml:"required"`
	EnabledTools      []string          `toml:"enabled_tools"`
	DisabledTools     []string          `toml:"disabled_tools"`
}

// readCodex reads the [mcp_servers] tables of a Codex config.toml, in
// file order. One bad table is skipped with the reason; a file that is
// not TOML is an error naming its line.
func readCodex(path string, data []byte) (servers []Server, bad []Skipped, err error) {
	var f struct {
		MCPServers map[string]toml.Primitive `toml:"mcp_servers"`
	}
	md, err := toml.Decode(string(bytes.TrimPrefix(data, bom)), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, name := range codexOrder(md, f.MCPServers) {
		var e codexEntry
		if err := md.PrimitiveDecode(f.MCPServers[name], &e); err != nil {
			bad = append(bad, Skipped{Name: name, OriginPath: path, Reason: decodeerr.TOML(err, &e).Error()})
			continue
		}
		s, err := e.server(name)
		if err != nil {
			bad = append(bad, Skipped{Name: name, OriginPath: path, Reason: err.Error()})
			continue
		}
		servers = append(servers, s)
	}
	return servers, bad, nil
}

// codexOrder is the server names in the order the file defines them.
func codexOrder(md toml.MetaData, tables map[string]toml.Primitive) []string {
	var names []string
	seen := map[string]bool{}
	for _, k := range md.Keys() {
		if len(k) >= 2 && k[0] == "mcp_servers" && !seen[k[1]] {
			if _, ok := tables[k[1]]; ok {
				seen[k[1]] = true
				names = append(names, k[1])
			}
		}
	}
	for _, name := range sortedKeys(tables) { // defined inline: mcp_servers = { ... }
		if !seen[name] {
			names = append(names, name)
		}
	}
	return names
}

func (e codexEntry) server(name string) (Server, error) {
	s := Server{
		Name: name, Command: e.Command, Args: e.Args, Env: e.Env, Cwd: e.Cwd,
		URL: e.URL, Headers: e.HTTPHeaders, BearerTokenEnv: e.BearerTokenEnvVar,
		Enabled: e.Enabled == nil || *e.Enabled, Required: e.Required,
		EnabledTools: e.EnabledTools, DisabledTools: e.DisabledTools,
	}
	switch {
	case e.URL != "":
		s.Transport = HTTP // Codex speaks streamable HTTP only
	case e.Command != "":
		s.Transport = Stdio
	default:
		return s, fmt.Errorf(`has neither "command" nor "url"`)
	}
	if len(e.EnvHTTPHeaders) > 0 {
		h := make(map[string]string, len(e.HTTPHeaders)+len(e.EnvHTTPHeaders))
		for k, v := range e.HTTPHeaders {
			h[k] = v
		}
		for k, env := range e.EnvHTTPHeaders {
			h[k] = "${" + env + "}"
		}
		s.Headers = h
	}
	switch {
	case e.StartupTimeoutSec != nil:
		s.StartupTimeout = millis(*e.StartupTimeoutSec * 1000)
	case e.StartupTimeoutMs != nil:
		s.StartupTimeout = millis(*e.StartupTimeoutMs)
	}
	if e.ToolTimeoutSec != nil {
		s.ToolTimeout = millis(*e.ToolTimeoutSec * float64(time.Second/time.Millisecond))
	}
	return s, nil
}
