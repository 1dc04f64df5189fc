package run

// A sub-agent's session is set up from its definition
// (internal/subagents) and clamped to its parent: it never runs in a wider
// permission mode than the parent's (a definition's acceptEdits or
// bypassPermissions under a parent in normal mode runs in normal mode,
// with a warning), it is offered only tools its parent is offered (and of
// those only the ones its definition names), and it shares the parent's
// workspace roots, rules, hooks and sandbox (the same runtime).

import (
	"context"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/subagents"
	"github.com/zero-agent/zero/internal/tools"
)

// openChild opens the session of a sub-agent def runs in, and the brief
// its prompt starts with; job is the task, its title.
func (p *Session) openChild(def subagents.Definition, job string) (*Session, string, error) {
	root := p.log.Meta().RootID
	if root == "" {
		root = p.ID()
	}
	child, err := p.rt.OpenSession(Which{Parent: p.ID(), Root: root, Agent: def.Name, Title: oneLine(job, 120)})
	if err != nil {
		return nil, "", err
	}
	mode := p.childMode(def)
	child.gate.Cap, child.gate.Agent = mode, def.Name
	child.subagentStopHook = func(ctx context.Context, active bool, final string) string {
		return p.subagentStop(ctx, child, def.Name, active, final)
	}
	parentHas := map[string]bool{}
	for _, t := range p.Offered() {
		parentHas[t.Name()] = true
	}
	base := child.toolFilter(mode)
	named := p.namedTools(def, child.tools)
	child.agent.SetVisible(func(t tools.Tool) bool { return base(t) && parentHas[t.Name()] && named(t) })
	child.agent.SetMaxTurns(def.MaxTurns)
	if m := p.childModel(def); m != "" {
		child.useModel(m)
	}
	brief := subagentBrief
	if mode == permission.ModePlan {
		brief += exploreBrief
	}
	if def.Prompt != "" {
		brief += "\n\n" + def.Prompt
	}
	brief += p.childSkills(def, child)
	return child, brief, nil
}

// childMode is the mode a sub-agent runs in: its definition's, never
// wider than the parent's (then the parent's, with a warning); "" is the
// parent's, whatever it becomes.
func (p *Session) childMode(def subagents.Definition) permission.Mode {
	parent := p.rt.Engine.Mode()
	want := strings.TrimSpace(def.PermissionMode)
	if want == "" || strings.EqualFold(want, "inherit") {
		return ""
	}
	m, err := permission.ParseMode(want)
	if strings.EqualFold(want, "bypassPermissions") {
		// Zero has no mode that skips the gate; auto-accept is the
		// widest it has (and it still cannot exceed the parent's).
		m, err = permission.ModeAutoAccept, nil
	}
	if err != nil {
		m = permission.Narrower(permission.ModeNormal, parent)
		p.Warn(fmt.Sprintf("agent %s: %v: it runs in %s mode", def.Name, err, m))
		return m
	}
	if m.Wider(parent) {
		p.Warn(fmt.Sprintf("agent %s asks for permissionMode %s, wider than the session's %s mode: it runs in %s mode (a sub-agent never widens its parent's mode)", def.Name, want, parent, parent))
		return parent
	}
	return m
}

// namedTools is the definition's tools filter: all tools when it names
// none, else those it names, less its disallowedTools. A name that covers
// none of the session's tools is a warning, not an error.
func (p *Session) namedTools(def subagents.Definition, reg *tools.Registry) func(tools.Tool) bool {
	covers := func(list []string, name string) bool {
		for _, n := range list {
			if permission.RuleNames(n, name) {
				return true
			}
		}
		return false
	}
	for _, n := range append(append([]string(nil), def.Tools...), def.DisallowedTools...) {
		known := false
		for _, t := range reg.Names() {
			known = known || permission.RuleNames(n, t)
		}
		if !known {
			p.Warn(fmt.Sprintf("agent %s: tool %q is not one of Zero's tools (%s): ignored", def.Name, n, def.Path))
		}
	}
	return func(t tools.Tool) bool {
		if covers(def.DisallowedTools, t.Name()) {
			return false
		}
		return len(def.Tools) == 0 || covers(def.Tools, t.Name())
	}
}

// claudeAliases are Claude Code's model aliases, which mean nothing to
// other providers unless the config's agentModels maps them.
var claudeAliases = map[string]bool{"sonnet": true, "opus": true, "haiku": true}

// childModel is the model a sub-agent runs with ("": the parent's): its
// definition's model through the config's agentModels, a model id, or
// "provider/model" for the session's provider. Another provider, or a
// Claude alias the config does not map, is a warning and the parent's
// model.
func (p *Session) childModel(def subagents.Definition) string {
	want := strings.TrimSpace(def.Model)
	if mapped, ok := p.rt.Config.AgentModels[want]; ok {
		want = mapped
	}
	if want == "" || want == "inherit" {
		return ""
	}
	current, _ := p.rt.ModelWindow()
	if prov, model := p.rt.SplitModel(want); prov != "" {
		if prov != p.rt.Active.Name {
			p.Warn(fmt.Sprintf("agent %s asks for %s: a sub-agent runs on the session's provider (%s), so it uses %s", def.Name, want, p.rt.Active.Name, current))
			return ""
		}
		want = model
	}
	if claudeAliases[want] {
		p.Warn(fmt.Sprintf("agent %s asks for model %s: map it with \"agentModels\": {\"%s\": \"MODEL\"} in the config; it uses %s", def.Name, want, want, current))
		return ""
	}
	if want == current {
		return ""
	}
	return want
}

// childSkills are the bodies of the skills the definition names, for
// the sub-agent's brief; a skill not found is a warning.
func (p *Session) childSkills(def subagents.Definition, child *Session) string {
	var b strings.Builder
	for _, name := range def.Skills {
		sk, ok := child.skills.Get(name)
		var body string
		var err error
		if ok {
			body, err = sk.Body()
		}
		if !ok || err != nil {
			why := "no such skill"
			if err != nil {
				why = err.Error()
			}
			p.Warn(fmt.Sprintf("agent %s: skill %s not loaded: %s", def.Name, name, why))
			continue
		}
		fmt.Fprintf(&b, "\n\nSkill %s:\n%s", name, strings.TrimSpace(body))
	}
	return b.String()
}
