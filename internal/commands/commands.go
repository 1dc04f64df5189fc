// Package commands owns custom slash commands in the formats users
// already have: Claude Code's Markdown commands (NAME.md with front matter
// description, argument-hint, allowed-tools, model; $ARGUMENTS and
// $1…$N; !`cmd` output; @file contents,
// https://docs.anthropic.com/en/docs/claude-code/slash-commands) and
// Gemini CLI's TOML commands (NAME.toml with prompt and description;
// {{args}}, !{cmd}, @{file},
// https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/custom-commands.md).
// A file in a sub-folder is namespaced with a colon: frontend/test.md is
// /frontend:test.
//
// Where commands come from, first found wins for a name:
//
//  1. the user's folders: <config dir>/commands (~/.config/zero/commands),
//     ~/.claude/commands, ~/.gemini/commands;
//  2. the project's, from the working directory up to the repository
//     root, nearest folder first, and in each folder .zero/commands,
//     .claude/commands, .gemini/commands — only when the folder is
//     trusted (`zero trust`): a command can run shell commands;
//  3. the enabled plugins' command folders and files (Options.Plugins),
//     named PLUGIN:NAME.
//
// Expand, the one expansion every surface uses (the app, `zero exec`),
// is pure: running a command line and reading a file are the caller's
// (Env), so the shell guard, the sandbox and the workspace's confinement
// apply as they do to the model's tools. This package must not run
// anything itself nor decide permissions.
package commands

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/zero-agent/zero/internal/frontmatter"
	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/skills"
)

// Format is a command file's format.
type Format string

// Formats.
const (
	Markdown Format = "markdown"
	TOML     Format = "toml"
)

// Command is one custom command.
type Command struct {
	// Name is what follows the slash ("test", "frontend:test").
	Name         string
	Description  string
	ArgumentHint string
	// AllowedTools and Model are the front matter's, as written.
	AllowedTools []string
	Model        string
	// Template is the Markdown body or the TOML prompt.
	Template string
	Format   Format
	Path     string
	Scope    skills.Scope
}

// Options say where to look (as skills.Options).
type Options = skills.Options

// Set is the commands found, by name, with notes on what was skipped.
type Set struct {
	Commands []Command
	Notes    []string
	// Untrusted counts project commands not loaded (the folder is not
	// trusted); Broken those skipped as unreadable or malformed.
	Untrusted, Broken int
}

// Folders are the command folders of a project directory, in precedence
// order.
var Folders = []string{".zero/commands", ".claude/commands", ".gemini/commands"}

// dirs are the command folders o names, in precedence order.
func dirs(o Options) (out []string, scopes []skills.Scope) {
	if o.ConfigDir != "" {
		out, scopes = append(out, filepath.Join(o.ConfigDir, "commands")), append(scopes, skills.User)
	}
	if o.Home != "" {
		for _, f := range Folders[1:] {
			out, scopes = append(out, filepath.Join(o.Home, f)), append(scopes, skills.User)
		}
	}
	for _, d := range skills.ProjectDirs(o.Workdir) {
		for _, f := range Folders {
			p := filepath.Join(d, f)
			if o.Home != "" && p == filepath.Join(o.Home, f) {
				continue
			}
			out, scopes = append(out, p), append(scopes, skills.Project)
		}
	}
	return out, scopes
}

// namePart is one segment of a command name.
var namePart = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Discover finds the commands o names. A malformed file is skipped with a
// note naming it.
func Discover(o Options) *Set {
	s := &Set{}
	seen := map[string]string{}
	ds, scopes := dirs(o)
	for i, dir := range ds {
		s.addDir(dir, scopes[i], "", o.Trusted, seen)
	}
	for _, ns := range o.Plugins {
		for _, p := range ns.Commands {
			s.addDir(p, skills.Plugin, ns.Prefix, true, seen)
		}
	}
	if s.Untrusted > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d project command(s) not loaded: the folder is not trusted (zero trust loads them)", s.Untrusted))
	}
	return s
}

// addDir adds the command files under dir (or dir itself when it is a
// file), named prefix:NAME when prefix is set; names in seen are taken.
func (s *Set) addDir(dir string, scope skills.Scope, prefix string, trusted bool, seen map[string]string) {
	base := dir
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		base = filepath.Dir(dir)
	}
	var found []Command
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		ext := filepath.Ext(p)
		if ext != ".md" && ext != ".toml" {
			return nil
		}
		if scope == skills.Project && !trusted {
			s.Untrusted++
			return nil
		}
		c, err := load(base, p)
		if err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("command %s skipped: %v", p, err))
			s.Broken++
			return nil
		}
		c.Scope = scope
		if prefix != "" {
			c.Name = prefix + ":" + c.Name
		}
		found = append(found, c)
		return nil
	})
	sort.Slice(found, func(a, b int) bool { return found[a].Name < found[b].Name })
	for _, c := range found {
		if first, dup := seen[c.Name]; dup {
			s.Notes = append(s.Notes, fmt.Sprintf("command /%s in %s is shadowed by %s", c.Name, c.Path, first))
			continue
		}
		seen[c.Name] = c.Path
		s.Commands = append(s.Commands, c)
	}
}

// load reads the command file p under dir.
func load(dir, p string) (Command, error) {
	rel, _ := filepath.Rel(dir, p)
	rel = strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
	parts := strings.Split(rel, "/")
	for _, part := range parts {
		if !namePart.MatchString(part) {
			return Command{}, fmt.Errorf("%q is not a usable command name (letters, digits, . _ -)", rel)
		}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return Command{}, err
	}
	var c Command
	if filepath.Ext(p) == ".toml" {
		c, err = ParseTOML(data)
	} else {
		c, err = ParseMarkdown(data)
	}
	if err != nil {
		return Command{}, err
	}
	// a command is prose the model follows: invisible and control
	// characters go, as in instruction files
	c.Template, c.Description = rules.Sanitize(c.Template), rules.Sanitize(c.Description)
	c.ArgumentHint = rules.Sanitize(c.ArgumentHint)
	c.Name, c.Path = strings.Join(parts, ":"), p
	return c, nil
}

// ParseMarkdown reads a Claude Code command file.
func ParseMarkdown(data []byte) (Command, error) {
	d, err := frontmatter.Parse(data)
	if err != nil {
		return Command{}, err
	}
	c := Command{Format: Markdown, Template: d.Body, Description: d.String("description"),
		ArgumentHint: hint(d), AllowedTools: d.List("allowed-tools"), Model: d.String("model")}
	if c.Description == "" {
		c.Description = firstLine(d.Body)
	}
	return c, nil
}

// hint is the argument-hint as written: "[file]" parses as a YAML list,
// which is not what its author meant.
func hint(d frontmatter.Doc) string {
	if l, ok := d.Fields["argument-hint"].([]string); ok {
		return "[" + strings.Join(l, "] [") + "]"
	}
	return d.String("argument-hint")
}

// ParseTOML reads a Gemini CLI command file: prompt (required) and
// description.
func ParseTOML(data []byte) (Command, error) {
	var f struct {
		Prompt      *string `toml:"prompt"`
		Description string  `toml:"description"`
	}
	if _, err := toml.Decode(string(data), &f); err != nil {
		return Command{}, fmt.Errorf("TOML: %v", err)
	}
	if f.Prompt == nil {
		return Command{}, fmt.Errorf("no prompt = \"…\" in the file")
	}
	c := Command{Format: TOML, Template: *f.Prompt, Description: f.Description}
	if c.Description == "" {
		c.Description = firstLine(c.Template)
	}
	return c, nil
}

// firstLine is a description made from a template: its first non-empty
// line, cut to 80 bytes.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "# ")); l != "" {
			if len(l) > 80 {
				l = l[:77] + "…"
			}
			return l
		}
	}
	return ""
}

// Get returns the command called name.
func (s *Set) Get(name string) (Command, bool) {
	if s == nil {
		return Command{}, false
	}
	for _, c := range s.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// FromSkill is the command /NAME of a skill: its instructions (as the
// skill tool returns them) with the arguments, expanded as a Markdown
// command is.
func FromSkill(sk skills.Skill) (Command, error) {
	text, err := skills.Text(sk)
	if err != nil {
		return Command{}, err
	}
	return Command{Name: sk.Name, Description: sk.Description, AllowedTools: sk.AllowedTools, Template: text, Format: Markdown, Path: sk.Path(), Scope: sk.Scope}, nil
}

// linePattern is a prompt that calls a command: "/name" then, after a
// space or a newline, its arguments.
var linePattern = regexp.MustCompile(`^/([A-Za-z0-9][A-Za-z0-9._:-]*)(?:[ \t\n]+([\s\S]*))?$`)

// ParseLine splits a prompt "/name args" into the name and the
// arguments; ok is false for a prompt that is not shaped like a command
// ("/usr/bin is missing" names a path, not a command).
func ParseLine(prompt string) (name, args string, ok bool) {
	m := linePattern.FindStringSubmatch(strings.TrimSpace(prompt))
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// Report lists the commands: name, hint, scope, description, file, then
// the notes on what was skipped.
func (s *Set) Report() string {
	var b strings.Builder
	if len(s.Commands) == 0 {
		b.WriteString("no custom commands (folders read: .zero/commands, .claude/commands, .gemini/commands in the project up to the repository root; ~/.config/zero/commands, ~/.claude/commands, ~/.gemini/commands)\n")
	}
	for _, c := range s.Commands {
		name := "/" + c.Name
		if c.ArgumentHint != "" {
			name += " " + c.ArgumentHint
		}
		fmt.Fprintf(&b, "%s  (%s)  %s\n    %s\n", name, c.Scope, c.Description, c.Path)
	}
	for _, n := range s.Notes {
		b.WriteString("! " + n + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
