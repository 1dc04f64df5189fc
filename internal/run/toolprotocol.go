package run

import "github.com/zero-agent/zero/internal/agent"

// toolProtocol is the agent's tool protocol for the config's toolProtocol
// ("auto" and unset: native until the server refuses tools).
func toolProtocol(configured string) agent.ToolProtocol {
	if configured == "auto" {
		return agent.ToolProtocolAuto
	}
	return agent.ToolProtocol(configured)
}
