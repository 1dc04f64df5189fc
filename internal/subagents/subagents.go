// Package subagents owns sub-agent definitions in Claude Code's shape
// (https://docs.claude.com/en/docs/claude-code/sub-agents): one Markdown
// file per agent whose front matter gives name, description, tools,
// disallowedTools, model, permissionMode, maxTurns and skills, and whose
// body is the agent's instructions.
//
// Where definitions come from, first found wins a name:
//
//  1. the built-ins (explore, general): a file cannot replace them;
//  2. the user's folders: <config dir>/agents (~/.config/zero/agents),
//     ~/.claude/agents;
//  3. the project's, from the working directory up to the repository
//     root, nearest folder first, .zero/agents then .claude/agents in
//     each — only when the folder is trusted (`zero trust`): a definition
//     steers a model that runs tools, and a cloned repository must not
//     hand it one, nor shadow a user's;
//  4. the enabled plugins' agents/ folders and the files their manifests
//     name (skills.Options.Plugins), named PLUGIN:NAME, as their skills
//     and commands are: the user installed them, so they load in any
//     folder.
//
// This package reads and lists definitions. It must not decide what a
// sub-agent may do at run time (internal/run clamps the mode, tools and
// model to the parent's) nor run anything.
package subagents

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/frontmatter"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/skills"
)

// Built-in agent names.
const (
	// Explore reads and searches only and reports what it found.
	Explore = "explore"
	// General has the parent's tools, each call gated as the parent's.
	General = "general"
)

// Definition is one sub-agent.
type Definition struct {
	Name, Description string
	// Tools are the tools it may use, as written (Claude's Read or Zero's
	// read_file); nil: all of the parent's. DisallowedTools are taken
	// out of them.
	Tools, DisallowedTools []string
	// Model is "" or "inherit" (the parent's), a model id,
	// "provider/model", or a Claude alias (sonnet, opus, haiku) the
	// config's agentModels maps.
	Model string
	// PermissionMode is as written ("": the parent's); the run layer
	// never lets it widen the parent's.
	PermissionMode string
	// MaxTurns caps its model requests (0: the default).
	MaxTurns int
	// Skills are skills whose bodies it starts with.
	Skills []string
	// Prompt is the body: the agent's instructions.
	Prompt string
	// Path is the file it came from ("" for a built-in); Scope whose it
	// is; Builtin marks explore and general.
	Path    string
	Scope   skills.Scope
	Builtin bool
}

// ReadOnly reports whether the definition runs with read-only tools only
// (explore, or permissionMode plan).
func (d Definition) ReadOnly() bool {
	return d.Name == Explore && d.Builtin || strings.EqualFold(d.PermissionMode, "plan")
}

// Builtins are the definitions every session has.
var Builtins = []Definition{
	{Name: Explore, Description: "read-only search and reading, the default", PermissionMode: "plan", Builtin: true},
	{Name: General, Description: "may change files", Builtin: true},
}

// Folders are a project directory's agent folders, in precedence order.
var Folders = []string{".zero/agents", ".claude/agents"}

// Set is the definitions found, in precedence order (built-ins first),
// with notes on what was skipped and why.
type Set struct {
	Agents []Definition
	Notes  []string
	// Untrusted counts project files not loaded because the folder is
	// not trusted.
	Untrusted int
}

// Get returns the definition called name.
func (s *Set) Get(name string) (Definition, bool) {
	if s == nil {
		return Definition{}, false
	}
	for _, d := range s.Agents {
		if d.Name == name {
			return d, true
		}
	}
	return Definition{}, false
}

// Names lists the definitions' names in precedence order.
func (s *Set) Names() []string {
	var out []string
	for _, d := range s.Agents {
		out = append(out, d.Name)
	}
	return out
}

// Dirs are the agent folders o names, in precedence order, with the
// scope of each.
func Dirs(o skills.Options) (dirs []string, scopes []skills.Scope) {
	if o.ConfigDir != "" {
		dirs, scopes = append(dirs, filepath.Join(o.ConfigDir, "agents")), append(scopes, skills.User)
	}
	if o.Home != "" {
		dirs, scopes = append(dirs, filepath.Join(o.Home, ".claude", "agents")), append(scopes, skills.User)
	}
	for _, d := range skills.ProjectDirs(o.Workdir) {
		for _, f := range Folders {
			p := filepath.Join(d, f)
			if o.Home != "" && p == filepath.Join(o.Home, f) {
				continue // the home folder is the user's, not a project's
			}
			dirs, scopes = append(dirs, p), append(scopes, skills.Project)
		}
	}
	return dirs, scopes
}

// Discover finds the definitions o names. A file that cannot be read or
// parsed is skipped with a note; it never stops the others.
func Discover(o skills.Options) *Set {
	s := &Set{Agents: append([]Definition(nil), Builtins...)}
	seen := map[string]string{Explore: "the built-in", General: "the built-in"}
	dirs, scopes := Dirs(o)
	for i, dir := range dirs {
		s.add(dir, scopes[i], "", o.Trusted, seen)
	}
	for _, ns := range o.Plugins {
		for _, p := range ns.Agents {
			s.add(p, skills.Plugin, ns.Prefix, true, seen)
		}
	}
	if s.Untrusted > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d project agent definition(s) not loaded: the folder is not trusted (zero trust loads them)", s.Untrusted))
	}
	return s
}

// add adds the definitions in path (a folder's .md files, or one file),
// named prefix:NAME when prefix is set (a plugin's, as its skills and
// commands are); names in seen are taken.
func (s *Set) add(path string, scope skills.Scope, prefix string, trusted bool, seen map[string]string) {
	for _, f := range mdFiles(path) {
		if scope == skills.Project && !trusted {
			s.Untrusted++
			continue
		}
		d, err := load(f, scope)
		if err != nil {
			s.Notes = append(s.Notes, err.Error())
			continue
		}
		if prefix != "" {
			d.Name = prefix + ":" + d.Name
		}
		if first, dup := seen[d.Name]; dup {
			s.Notes = append(s.Notes, fmt.Sprintf("agent %s in %s is shadowed by %s", d.Name, f, first))
			continue
		}
		seen[d.Name] = f
		s.Agents = append(s.Agents, d)
	}
}

// mdFiles are the .md files in the folder path, by name (sub-folders are
// not read), or path itself when it is a file.
func mdFiles(path string) []string {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if !fi.IsDir() {
		return []string{path}
	}
	entries, err := os.ReadDir(path) // sorted by name
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			out = append(out, filepath.Join(path, e.Name()))
		}
	}
	return out
}

func load(path string, scope skills.Scope) (Definition, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Definition{}, fmt.Errorf("agent %s skipped: %v", path, err)
	}
	d, err := Parse(data, strings.TrimSuffix(filepath.Base(path), ".md"))
	if err != nil {
		return Definition{}, fmt.Errorf("agent %s skipped: %v", path, err)
	}
	d.Path, d.Scope = path, scope
	return d, nil
}

// namePattern is a usable agent name (Claude Code's are lowercase
// letters and hyphens; digits, underscores and dots are tolerated).
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// MaxDescription caps a description in the task tool's schema, in bytes.
const MaxDescription = 300

// Parse reads one definition file; base is its file name without .md,
// the name when the front matter gives none.
func Parse(data []byte, base string) (Definition, error) {
	doc, err := frontmatter.Parse(data)
	if err != nil {
		return Definition{}, err
	}
	d := Definition{
		Name:            doc.String("name"),
		Description:     strings.Join(strings.Fields(rules.Sanitize(doc.String("description"))), " "),
		Tools:           doc.List("tools"),
		DisallowedTools: doc.List("disallowedTools"),
		Model:           doc.String("model"),
		PermissionMode:  doc.String("permissionMode"),
		Skills:          doc.List("skills"),
		Prompt:          strings.TrimSpace(doc.Body),
	}
	if d.Name == "" {
		d.Name = base
	}
	if !namePattern.MatchString(d.Name) {
		return Definition{}, fmt.Errorf("name %q is not 1-64 letters, digits, hyphens", d.Name)
	}
	if d.Description == "" {
		return Definition{}, fmt.Errorf("no description in the front matter (the model picks an agent by it)")
	}
	if len(d.Description) > MaxDescription {
		d.Description = strings.TrimSpace(d.Description[:MaxDescription]) + "…"
	}
	if mt := doc.String("maxTurns"); mt != "" {
		n, err := strconv.Atoi(mt)
		if err != nil || n < 1 {
			return Definition{}, fmt.Errorf("maxTurns %q is not a positive number", mt)
		}
		d.MaxTurns = n
	}
	return d, nil
}

// Report lists the definitions, where each comes from, and the notes, for
// `zero agents` and /agents.
func (s *Set) Report() string {
	var b strings.Builder
	for _, d := range s.Agents {
		from := "built-in"
		if !d.Builtin {
			from = string(d.Scope) + ", " + d.Path
		}
		fmt.Fprintf(&b, "%s  (%s)  %s\n", d.Name, from, d.Description)
	}
	if len(s.Agents) == len(Builtins) {
		b.WriteString("no agent definitions (folders read: ~/.config/zero/agents, ~/.claude/agents; .zero/agents, .claude/agents in the project up to the repository root; the enabled plugins' agents/)\n")
	}
	for _, n := range s.Notes {
		b.WriteString("! " + n + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// Show is one definition in full, for `zero agents show`.
func (d Definition) Show() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", d.Name, d.Description)
	if d.Builtin {
		b.WriteString("source: built-in\n")
	} else {
		fmt.Fprintf(&b, "source: %s (%s)\n", d.Path, d.Scope)
	}
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	tools := strings.Join(d.Tools, ", ")
	if tools == "" {
		tools = "the parent's"
		if d.ReadOnly() {
			tools = "the parent's read-only ones"
		}
	}
	field("tools", tools)
	field("disallowedTools", strings.Join(d.DisallowedTools, ", "))
	model := d.Model
	if model == "" {
		model = "inherit"
	}
	field("model", model)
	mode := d.PermissionMode
	if mode == "" {
		mode = "the parent's"
	}
	field("permissionMode", mode+" (never wider than the parent's)")
	if d.MaxTurns > 0 {
		field("maxTurns", strconv.Itoa(d.MaxTurns))
	}
	field("skills", strings.Join(d.Skills, ", "))
	if d.Prompt != "" {
		b.WriteString("\n" + d.Prompt + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
