package mcpconfig

import (
	"fmt"
	"slices"
	"strings"
)

// ImportFrom maps `zero mcp import --from` names to the user-level file
// each reads (a project's local files stay where they are).
var ImportFrom = map[string]string{
	"claude":  OriginClaudeUser,
	"desktop": OriginClaudeDesktop,
	"codex":   OriginCodex,
	"gemini":  OriginGeminiUser,
}

// Imported is what Import did with one server of the source.
type Imported struct {
	Name string
	// Added is false for a server skipped; Reason says why.
	Added  bool
	Reason string
	Server Server
}

// ReadOrigin reads the servers of one source (an Origin constant) as
// written, variables not expanded, with the entries it could not use.
func (o Options) ReadOrigin(origin string) (path string, servers []Server, skipped []Skipped, err error) {
	i := slices.IndexFunc(o.sources(), func(s source) bool { return s.origin == origin })
	if i < 0 {
		return "", nil, nil, fmt.Errorf("no MCP source %q", origin)
	}
	src := o.sources()[i]
	r, err := readSource(src)
	for j := range r.servers {
		r.servers[j].Origin, r.servers[j].OriginPath = src.origin, src.path
	}
	return src.path, r.servers, r.skipped, err
}

// Import copies the servers of another tool's user file (from: a key of
// ImportFrom) into Zero's file as written (a ${VAR} stays a reference:
// no secret is copied out of the environment). Names Zero's file
// already holds are skipped. It writes the file once, and not at all
// when nothing is new.
func Import(o Options, from string) (path string, done []Imported, err error) {
	origin, ok := ImportFrom[from]
	if !ok {
		return "", nil, fmt.Errorf("--from %q: use one of %s", from, strings.Join(sortedKeys(ImportFrom), ", "))
	}
	path, servers, skipped, err := o.ReadOrigin(origin)
	if err != nil {
		return path, nil, err
	}
	f := NewUserFile(o.ConfigDir)
	var added int
	err = f.edit(func(entries []member) ([]member, error) {
		for _, s := range servers {
			if indexOf(entries, s.Name) >= 0 {
				done = append(done, Imported{Name: s.Name, Reason: "already in " + f.Path, Server: s})
				continue
			}
			entries = append(entries, member{Key: s.Name, Value: Entry(s)})
			done = append(done, Imported{Name: s.Name, Added: true, Server: s})
			added++
		}
		if added == 0 {
			return nil, errNothingNew
		}
		return entries, nil
	})
	if err == errNothingNew {
		err = nil
	}
	for _, sk := range skipped {
		done = append(done, Imported{Name: sk.Name, Reason: sk.Reason})
	}
	return path, done, err
}

// errNothingNew stops an import edit that would change nothing.
var errNothingNew = fmt.Errorf("nothing new")
