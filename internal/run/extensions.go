package run

// Skills (internal/skills) and custom commands (internal/commands),
// discovered once per session so the offered tools stay the same for the
// whole of it (the skill tool is added only when a skill exists, before
// the first request), and a "/name args" prompt expanded the same way for
// every surface (Session.Prompt; `zero exec` checks the name first with
// ExpandPrompt).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/commands"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/instructions"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/plugins"
	"github.com/zero-agent/zero/internal/shellguard"
	"github.com/zero-agent/zero/internal/skills"
	"github.com/zero-agent/zero/internal/tools"
)

// ExtensionOptions are where skills and commands are looked for from
// workspace root, with the folder's trust (project folders need it) and
// the enabled plugins (nil: none).
func ExtensionOptions(root string, trusted bool, plug *plugins.Set) skills.Options {
	home, _ := os.UserHomeDir()
	return skills.Options{Workdir: root, Home: home, ConfigDir: config.Dir(), Trusted: trusted, Plugins: plug.Namespaces()}
}

// LoadPlugins reads the installed plugins (`zero plugin`) and checks
// each against its pinned hash; Set.Warnings name those refused.
func LoadPlugins() *plugins.Set { return plugins.DefaultStore().Load() }

// Skills is the session's skills (what /skills lists).
func (s *Session) Skills() *skills.Set { return s.skills }

// Commands is the session's custom commands.
func (s *Session) Commands() *commands.Set { return s.commands }

// Slash is one custom slash command for /help and Tab completion: a
// skill's or a command file's.
type Slash struct {
	Name, Hint, Description string
	// Skill: /Name runs a skill.
	Skill bool
}

// SlashCommands lists the session's custom slash commands by name: skills
// and command files (a skill wins a name both use, as in Claude Code).
func (s *Session) SlashCommands() []Slash {
	var out []Slash
	seen := map[string]bool{}
	for _, sk := range s.skills.Skills {
		seen[sk.Name] = true
		out = append(out, Slash{Name: sk.Name, Description: sk.Description, Skill: true})
	}
	for _, c := range append(s.commands.Commands, initCommand) {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, Slash{Name: c.Name, Hint: c.ArgumentHint, Description: c.Description})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// loadExtensions discovers the session's skills and commands and adds
// the skill tool when there is a skill.
func (s *Session) loadExtensions(o ToolOptions) {
	eo := ExtensionOptions(s.rt.Workspace.Root(), s.rt.Trusted, s.rt.plugins)
	s.skills, s.commands = skills.Discover(eo), commands.Discover(eo)
	AddSkillTool(s.tools, s.skills, o)
	if n, m := s.skills.Untrusted, s.commands.Untrusted; n+m > 0 {
		s.rt.extOnce.Do(func() {
			fmt.Fprintf(s.rt.warnings(), "zero: this folder has project skills or commands (%d skills, %d commands); they are ignored until you run `zero trust` here\n", n, m)
		})
	}
}

// AddSkillTool adds the skill tool to reg when set has a skill (sessions
// and `zero context` alike).
func AddSkillTool(reg *tools.Registry, set *skills.Set, o ToolOptions) {
	if set.Len() > 0 {
		reg.Add(wrapTool(skills.NewTool(set), o))
	}
}

// SystemExtra is what follows Zero's own system prompt: the instruction
// files, then the skills listing for a window of window tokens.
func SystemExtra(inst *instructions.Set, set *skills.Set, window int) string {
	extra := inst.Text()
	if l := set.Listing(skills.Budget(window)); l != "" {
		extra = strings.TrimSpace(extra + "\n\n" + l)
	}
	return extra
}

// FillSkillReport adds the skills listing's share of the system prompt to
// r (/context, `zero context`).
func FillSkillReport(r *agent.Report, set *skills.Set, window int) {
	if n := set.Len(); n > 0 {
		budget := skills.Budget(window)
		text, listed := set.ListingCount(budget)
		r.SkillBytes, r.SkillBudget, r.SkillsListed, r.Skills = len(text), budget, listed, n
	}
}

// lookup is the command a "/name" prompt calls: a skill, else a command
// file; ok is false for a prompt not shaped like one or a name neither
// has.
func (s *Session) lookup(prompt string) (c commands.Command, args string, ok bool, err error) {
	name, args, shaped := commands.ParseLine(prompt)
	if !shaped {
		return commands.Command{}, "", false, nil
	}
	if sk, found := s.skills.Get(name); found {
		c, err := commands.FromSkill(sk)
		return c, args, true, err
	}
	c, found := s.commands.Get(name)
	if !found {
		c, found = builtinCommand(name)
	}
	return c, args, found, nil
}

// errUnknownCommand: a "/name" prompt names no skill, command or MCP
// prompt (exec refuses it rather than send the model a typo).
var errUnknownCommand = errors.New("unknown command")

// checkCommand is ExpandPrompt's check that a "/name" prompt names
// something: a skill, a command file or an MCP prompt.
func (s *Session) checkCommand(prompt string) error {
	name, _, shaped := commands.ParseLine(prompt)
	if !shaped || strings.HasPrefix(name, "mcp__") {
		return nil
	}
	if _, _, ok, err := s.lookup(prompt); ok || err != nil {
		return err
	}
	var names []string
	for _, c := range s.SlashCommands() {
		names = append(names, "/"+c.Name)
	}
	if len(names) == 0 {
		return fmt.Errorf("%w /%s: no skills or custom commands are loaded (zero skills list shows where they are read from)", errUnknownCommand, name)
	}
	return fmt.Errorf("%w /%s (the skills and commands: %s)", errUnknownCommand, name, strings.Join(names, " "))
}

// expandCommand turns a "/name args" prompt into what the model gets: the
// skill's instructions or the command's template, expanded. A prompt that
// calls neither is unchanged; a failed expansion (a refused or failing
// !`cmd`) is an error and nothing is sent.
// For the prompt, until done is called, the command's allowed-tools are
// allow rules (its !`cmd` lines included) and its model answers.
func (s *Session) expandCommand(ctx context.Context, prompt string) (expanded string, done func(), err error) {
	c, args, ok, err := s.lookup(prompt)
	if err != nil || !ok {
		return prompt, func() {}, err
	}
	allowed := s.allowWhile(c)
	expanded, err = commands.Expand(ctx, c, args, commands.Env{Shell: s.commandShell, ReadFile: s.commandFile})
	if err != nil {
		allowed()
		return "", func() {}, err
	}
	model := s.commandModel(ctx, c.Model)
	return expanded, func() { model(); allowed() }, nil
}

// allowWhile makes c's allowed-tools allow rules of c's origin (a
// project command's are project rules: they never reach outside the
// workspace) until the returned function is called; a rule that does not
// parse is a warning.
func (s *Session) allowWhile(c commands.Command) (done func()) {
	origin := permission.OriginUser
	if c.Scope == skills.Project {
		origin = permission.OriginProject
	}
	var rs permission.ToolRules
	for _, err := range rs.Add("allow", c.AllowedTools, origin, c.Path+" (allowed-tools)") {
		s.chain.Emit(event.Event{Type: event.Warning, Text: err.Error()})
	}
	return s.rt.Engine.AllowWhile(rs.Allow)
}

// commandModel switches to the model a command's front matter names for
// its prompt and returns what switches back. The name is matched against
// the provider's models: exactly, else as a Claude Code alias (haiku,
// sonnet, opus: the first model whose id has it); a name the provider
// does not offer is a warning and the session's model stays ("inherit"
// keeps it silently).
func (s *Session) commandModel(ctx context.Context, want string) (restore func()) {
	current, _ := s.rt.ModelWindow()
	if want == "" || want == "inherit" || want == current {
		return func() {}
	}
	r := *s.rt.Active
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	ids, err := ModelIDs(lctx, &r)
	cancel()
	pick := ""
	for _, id := range ids {
		if id == want {
			pick = id
			break
		}
		if pick == "" && !strings.ContainsAny(want, "-/.:") && strings.Contains(id, want) {
			pick = id
		}
	}
	if pick == "" {
		why := "the provider does not offer it"
		if err != nil {
			why = "the provider's models could not be listed: " + err.Error()
		}
		s.chain.Emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("the command asks for model %s (%s): using %s", want, why, current)})
		return func() {}
	}
	if pick == current {
		return func() {}
	}
	s.SetModel(pick)
	return func() { s.SetModel(current) }
}

// maxCommandFile caps a file a command's @path includes.
const maxCommandFile = 256 << 10

var commandCalls atomic.Int64

// commandShell runs a command file's !`cmd` as the model's bash call
// would be run: the permission gate (guard, rules, mode, grants; it asks
// the surface's asker of the prompt, and headless runs without one get a
// denial), the beforeTool hooks, the sandbox. A refusal or a non-zero exit
// is an error that stops the command.
func (s *Session) commandShell(ctx context.Context, line string) (string, error) {
	t, ok := s.tools.Get("bash")
	if !ok {
		return "", errors.New("no shell tool")
	}
	args, _ := json.Marshal(map[string]string{"command": line})
	call := llm.ToolCall{ID: fmt.Sprintf("command_%d", commandCalls.Add(1)), Name: t.Name(), Arguments: string(args)}
	o := s.gate.Decide(ctx, call, t)
	if !o.Allow {
		return "", fmt.Errorf("refused: %s", o.Reason)
	}
	if o.Rewrite != "" {
		args = json.RawMessage(o.Rewrite)
	}
	if o.Network {
		ctx = tools.WithNetwork(ctx)
	}
	res, err := t.Run(ctx, args)
	if err != nil {
		return "", err
	}
	if res.IsError {
		code := "failed"
		if res.ExitCode != nil {
			code = fmt.Sprintf("exited %d", *res.ExitCode)
		}
		return "", fmt.Errorf("%s:\n%s", code, strings.TrimSpace(res.Content))
	}
	return res.Content, nil
}

// commandFile reads a file a command's @path names as read_file would: in
// the workspace, never a secret.
func (s *Session) commandFile(path string) (string, error) {
	ws := s.rt.Workspace
	abs, err := ws.Resolve(path, false)
	if err != nil {
		return "", err
	}
	home, _ := os.UserHomeDir()
	if kind, secret := shellguard.SecretPath(abs, home, config.Dir()); secret {
		return "", fmt.Errorf("%s is a secret (%s)", path, kind)
	}
	fi, err := ws.Stat(abs)
	if err != nil || fi.IsDir() {
		return "", fmt.Errorf("%s is not a file", path)
	}
	if fi.Size() > maxCommandFile {
		return "", fmt.Errorf("%s is %d bytes, more than a command includes (%d)", path, fi.Size(), maxCommandFile)
	}
	data, err := ws.ReadFile(abs)
	if err != nil {
		return "", err
	}
	return redactSecrets(string(data)), nil
}
