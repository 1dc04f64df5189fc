package run

import (
	"context"
	"fmt"
	"time"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/providers/discovery"
)

// toolProtocol is the agent's tool protocol for the config's toolProtocol
// ("auto" and unset: native until the server refuses tools).
func toolProtocol(configured string) agent.ToolProtocol {
	if configured == "auto" {
		return agent.ToolProtocolAuto
	}
	return agent.ToolProtocol(configured)
}

// sessionToolProtocol is the tool protocol a session on model starts
// with (StartToolProtocol), and a line for the user when it starts
// prompted. The config's "native" also forgets a remembered choice: the
// user says the server takes tools now, and a refusal is then one clear
// error.
func (rt *Runtime) sessionToolProtocol(model string) (agent.ToolProtocol, string) {
	p, note, err := StartToolProtocol(rt.Config.ToolProtocol, rt.Active, model)
	if err != nil {
		fmt.Fprintf(rt.warnings(), "zero: warning: %v (it is rewritten when a server next refuses tools)\n", err)
	}
	if p == agent.ToolProtocolNative {
		if err := forgetPrompted(toolMemoryPath(), rt.Active.BaseURL, model); err != nil {
			fmt.Fprintln(rt.warnings(), "zero: warning:", err)
		}
	}
	return p, note
}

// StartToolProtocol is the tool protocol a session on model of provider
// r starts with, with the reason when it is prompted (for the user at
// start, and `zero doctor`):
//   - the config's toolProtocol (configured) "native" or "prompted" wins;
//   - prompted when an earlier run on this server and model was refused
//     tools (toolmemory.go), so no request is sent only to be refused;
//   - prompted when the server says the model cannot take tools (Ollama's
//     capabilities, discovery.SupportsTools);
//   - else auto: native until the server refuses, then prompted.
//
// err reports a memory file that cannot be read (it is then ignored).
func StartToolProtocol(configured string, r *config.Resolved, model string) (agent.ToolProtocol, string, error) {
	switch p := toolProtocol(configured); p {
	case agent.ToolProtocolNative, agent.ToolProtocolPrompted:
		return p, "", nil
	}
	path := toolMemoryPath()
	m, err := readToolMemory(path)
	if err == nil && m.find(r.BaseURL, model) >= 0 {
		return agent.ToolProtocolPrompted, fmt.Sprintf("listing the tools in the prompt for %s at %s (prompted tool protocol): "+
			"an earlier run found the server refuses native tool calls (%s); \"toolProtocol\": \"native\" in the config tries them again",
			model, HostOf(r.BaseURL), path), nil
	}
	if r.Kind == config.KindOpenAICompatible && localHost(r.BaseURL) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		ok, known := (&discovery.Prober{}).SupportsTools(ctx, discovery.Server{BaseURL: r.BaseURL}, model)
		cancel()
		if known && !ok {
			return agent.ToolProtocolPrompted, fmt.Sprintf("Ollama lists no \"tools\" capability for %s: listing the tools in the prompt instead (prompted tool protocol)", model), err
		}
	}
	return agent.ToolProtocolAuto, "", err
}

// rememberPromptedTools is the agent's OnPromptedTools: the server just
// refused native tool calls for the model in use, so later runs start
// prompted.
func (rt *Runtime) rememberPromptedTools() {
	model, _ := rt.ModelWindow()
	if err := rememberPrompted(toolMemoryPath(), rt.Active.BaseURL, model, time.Now()); err != nil {
		fmt.Fprintln(rt.warnings(), "zero: warning: the prompted tool protocol is not remembered for the next run:", err)
	}
}
