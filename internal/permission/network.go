package permission

import (
	"strings"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/shellguard"
	"github.com/zero-agent/zero/internal/tools"
)

// RuleNetwork names the ask of sandbox.network "ask": the engine would
// run the shell command, but it needs the network (shellguard's table of
// package managers and fetchers), and a person decides whether it gets it.
const RuleNetwork = "sandbox.network-ask"

// netAsk is what a gate found about one shell call's network under
// sandbox.network "ask": the parts that need it, whether it runs with it
// (a network grant covers them, or a person allowed it), and whether the
// network is the only reason a person is asked.
type netAsk struct {
	needs   []shellguard.NetworkNeed
	granted bool
	only    bool
}

// prefixes lists the needs' prefixes for a person: "npm install, curl".
func (n netAsk) prefixes() string {
	var ps []string
	for _, x := range n.needs {
		ps = append(ps, x.Prefix)
	}
	return strings.Join(ps, ", ")
}

// prefix is the grant prefix a network ask offers: the one need's, else
// none (a grant per part would be needed).
func (n netAsk) prefix() string {
	if len(n.needs) == 1 {
		return n.needs[0].Prefix
	}
	return ""
}

// networkNeeds returns the parts of command that need the network when
// the engine asks for it (Config.NetworkAsk) and tool is a shell that
// starts a command (write_stdin starts none).
func (e *Engine) networkNeeds(tool tools.Tool, command string) []shellguard.NetworkNeed {
	e.mu.Lock()
	ask := e.networkAsk
	e.mu.Unlock()
	if !ask || tool.SideEffect() != tools.SideShell || tool.Name() == tools.WriteStdinName || command == "" {
		return nil
	}
	parts, _ := shellguard.Parts(command, shellguard.Options{Workspace: e.ws.Root(), Home: e.home, Roots: e.ws.Roots()[1:]})
	return shellguard.NetworkNeeds(parts)
}

// SetNetworkAsk turns sandbox.network "ask" on or off (Config.NetworkAsk)
// for the following calls: off where no OS sandbox confines the network.
func (e *Engine) SetNetworkAsk(on bool) {
	e.mu.Lock()
	e.networkAsk = on
	e.mu.Unlock()
}

// NetworkAsk reports whether sandbox.network "ask" is in force.
func (e *Engine) NetworkAsk() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.networkAsk
}

// network decides the network of call under sandbox.network "ask": a
// network grant covering every part that needs it lets the call run with
// it; otherwise an allowed call becomes a question (RuleNetwork) and a
// call that asks anyway says it needs the network too. v is updated.
func (g *Gate) network(call llm.ToolCall, t tools.Tool, v *Verdict) netAsk {
	if v.Action == Deny {
		return netAsk{}
	}
	cmd := v.Command
	if cmd == "" {
		cmd = commandOf(call)
	}
	n := netAsk{needs: g.Engine.networkNeeds(t, cmd)}
	if len(n.needs) == 0 {
		return n
	}
	words := make([][]string, len(n.needs))
	for i, x := range n.needs {
		words[i] = x.Words
	}
	if g.Engine.grants.CoversNetwork(t.Name(), cmd, words, g.Engine.ws.Root()) {
		n.granted = true
		return n
	}
	why := "it needs the network (" + n.prefixes() + ") and sandbox.network is \"ask\""
	switch v.Action {
	case Allow:
		*v = Verdict{Action: Ask, Reason: cmd + ": " + why, Rule: RuleNetwork, Command: v.Command}
		n.only = true
	case Ask:
		v.Reason += "; " + why
	}
	return n
}

// CoversNetwork reports whether network grants (Grant.Network) approve
// command's network: one for the exact command line, or prefix grants
// that cover every part that needs the network (needs, from
// shellguard.NetworkNeeds).
func (g *Grants) CoversNetwork(tool, command string, needs [][]string, wsRoot string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	var prefixes [][]string
	for _, list := range [][]Grant{g.session, g.persistent} {
		for _, gr := range list {
			if !gr.Network || gr.Deny || !toolMatches(gr.Tool, tool) || gr.Workspace != "" && gr.Workspace != wsRoot || gr.Command == "" {
				continue
			}
			if !gr.Prefix && gr.Command == command {
				return true
			}
			if gr.Prefix {
				prefixes = append(prefixes, strings.Fields(gr.Command))
			}
		}
	}
	for _, words := range needs {
		ok := false
		for _, pre := range prefixes {
			ok = ok || hasWordPrefix(words, pre)
		}
		if !ok {
			return false
		}
	}
	return len(needs) > 0
}
