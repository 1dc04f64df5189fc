// Package run is the one run layer every surface stands on: the app
// (internal/tui), `zero exec` (internal/headless), and later the editor
// bridge, `zero mcp serve`, sub-agents and loops. Open resolves, once per
// process, the configuration and folder trust, the provider and its
// context window, the workspace, the tool set, the permission engine, the
// rules, and the settings files' hooks and permission rules (setup.go);
// Runtime.OpenSession opens a session (new, resumed or forked) with its
// agent loop, its permission gate and its event sink chain (stamp →
// pricing → session log → surface); Session.Prompt runs one prompt, and
// Session handles compaction, model and mode switches, the user's own
// shell commands and interruption (cancel the context). Sessions fire
// each hook event where it happens (hooks.go, sessionhooks.go).
//
// It owns assembly and policy shared by surfaces, nothing else: the loop
// is internal/agent's, the decisions internal/permission's, the log
// internal/sessions'. It must not draw, parse flags or print anything but
// set-up warnings to Options.Stderr; a surface consumes its events.
package run
