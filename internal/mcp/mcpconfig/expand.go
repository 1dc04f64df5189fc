package mcpconfig

import (
	"fmt"
	"strings"
)

// expander expands ${VAR} and ${VAR:-default} as Claude Code does in
// command, args, env values, url and headers
// (https://docs.claude.com/en/docs/claude-code/mcp#environment-variable-expansion-in-mcp-json).
// The default applies when VAR is unset or empty, as in the shell. An
// unset VAR without a default expands to "" and is recorded in missing.
type expander struct {
	lookup func(string) (string, bool)
	// bare also expands $VAR (Gemini CLI's settings do).
	bare bool
	// vscode resolves VS Code's ${env:VAR}, ${workspaceFolder} and
	// ${userHome}
	// (https://code.visualstudio.com/docs/reference/variables-reference).
	vscode          bool
	workspace, home string

	missing []string
}

// server expands every field of s that takes variables.
func (x *expander) server(s *Server) {
	s.Command = x.expand(s.Command)
	s.Cwd = x.expand(s.Cwd)
	s.URL = x.expand(s.URL)
	if s.Args != nil {
		args := make([]string, len(s.Args))
		for i, a := range s.Args {
			args[i] = x.expand(a)
		}
		s.Args = args
	}
	s.Env = x.values(s.Env)
	s.Headers = x.values(s.Headers)
}

// values is m with each value expanded (a copy: m may be shared).
func (x *expander) values(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = x.expand(v)
	}
	return out
}

// expand expands the variables in s. A "$" that starts no variable is
// kept as written.
func (x *expander) expand(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			i++
			continue
		}
		if s[i+1] == '{' {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				b.WriteString(s[i:])
				break
			}
			b.WriteString(x.braced(s[i+2 : i+end]))
			i += end + 1
			continue
		}
		n := nameLen(s[i+1:])
		if !x.bare || n == 0 {
			b.WriteByte('$')
			i++
			continue
		}
		b.WriteString(x.value(s[i+1:i+1+n], "", false))
		i += 1 + n
	}
	return b.String()
}

// braced is the value of the inside of ${...}.
func (x *expander) braced(inner string) string {
	name, def, hasDef := strings.Cut(inner, ":-")
	if x.vscode {
		switch {
		case name == "workspaceFolder":
			return x.workspace
		case name == "userHome":
			return x.home
		case strings.HasPrefix(name, "env:"):
			name = name[len("env:"):]
		}
	}
	if nameLen(name) != len(name) || name == "" {
		return "${" + inner + "}" // not a variable: keep it
	}
	return x.value(name, def, hasDef)
}

func (x *expander) value(name, def string, hasDef bool) string {
	v, ok := x.lookup(name)
	switch {
	case v != "":
		return v
	case hasDef:
		return def
	case !ok:
		x.noteMissing(name)
	}
	return v
}

func (x *expander) noteMissing(name string) {
	for _, m := range x.missing {
		if m == name {
			return
		}
	}
	x.missing = append(x.missing, name)
}

// missingWarning is the one warning for a server whose variables were
// not set, or "".
func (x *expander) missingWarning(s Server) string {
	if len(x.missing) == 0 {
		return ""
	}
	vars := make([]string, len(x.missing))
	for i, m := range x.missing {
		vars[i] = "${" + m + "}"
	}
	return fmt.Sprintf("%s: server %q: %s not set; expanded to \"\"", s.OriginPath, s.Name, strings.Join(vars, ", "))
}

// nameLen is the length of the environment variable name s starts with.
func nameLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return i
	}
	return len(s)
}
