// Package acp is `zero acp`: the editor bridge over the Agent Client
// Protocol (https://agentclientprotocol.com, protocol version 1), built on
// github.com/coder/acp-go-sdk. Each ACP session is one run-layer runtime
// and session (internal/run: Open → OpenSession → Session.Prompt) for the
// session's folder, so the editor gets the CLI's providers, MCP servers,
// skills, rules and hooks. Zero's events (internal/event) become
// session/update notifications (updates.go), its permission requests
// session/request_permission (permission.go), and a session log
// (internal/sessions) is replayed on session/load (replay.go).
//
// It owns the protocol mapping only: it must not build providers, tools
// or gates (internal/run does), decide permissions (internal/permission
// does) or parse flags (internal/cli does). stdout carries protocol
// messages only; everything else goes to Options.Stderr.
package acp
