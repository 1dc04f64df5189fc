package permission

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/shellguard"
)

// Request is what a person is asked to approve: the same fields on every
// surface (the app's prompt, a permission_request event in stream-json,
// an editor's session/request_permission). Strings come from the model
// and are untrusted: surfaces sanitise them for display.
type Request struct {
	// ID is the tool call's id.
	ID   string
	Tool string
	// Summary is the call's arguments on one line (for tools that have
	// neither a command nor a diff to show).
	Summary string
	// Command is a shell call's whole command line, shown unabridged.
	Command string
	// Path is the file an edit or write touches; Diff its unified diff
	// against the file as it is now (hunk line numbers are the file's).
	Path string
	Diff string
	// Why says why a person is asked ("flagged: rm with -r", "edits ask
	// in normal mode"), with any preview note.
	Why string
	// Prefix is the command prefix a grant could cover ("go test"), for
	// shell calls that ask only because of the mode or the network;
	// empty otherwise.
	Prefix string
	// Network: the command will run with the network if allowed
	// (sandbox.network "ask"); a grant then covers its network too.
	Network bool
	// Recheck, set by the gate, decides the call again with the engine
	// as it is now, for an asker whose user changes the mode while the
	// question waits (an editor's session/set_mode): Allow if it would
	// run without asking, Deny (with the reason) if it would be refused,
	// Ask if a person must still decide. A call a PreToolUse hook asks
	// about rechecks as Ask: the hook is not run twice.
	Recheck func() Verdict
}

// Event is r as a permission_request event's payload.
func (r Request) Event() *event.Permission {
	return &event.Permission{ID: r.ID, Tool: r.Tool, Summary: r.Summary, Command: r.Command, Path: r.Path, Diff: r.Diff, Prefix: r.Prefix, Reason: r.Why, Network: r.Network}
}

// Choice is a person's answer to a Request.
type Choice string

// Choices, spelled as permission_decision events spell them.
const (
	AllowOnce    Choice = "allow_once"
	AllowSession Choice = "allow_session"
	// AllowAlways is saved in grants.json and holds in later sessions.
	AllowAlways Choice = "allow_always"
	Reject      Choice = "deny"
	// RejectAlways is a denial saved in grants.json: the same call (the
	// same command, file or tool) is refused without asking, in later
	// sessions too, until the user removes it there.
	RejectAlways Choice = "deny_always"
)

// ParseChoice is the one parser of decision names (stream-json input,
// editor clients). "allow" and "yes" are allow_once, "always" is
// allow_always, "no" is deny, "never" is deny_always, and the ACP option
// kinds reject_once and reject_always are deny and deny_always
// (https://agentclientprotocol.com/protocol/tool-calls#permission-options).
func ParseChoice(s string) (Choice, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "allow_once", "allow", "once", "yes", "y":
		return AllowOnce, nil
	case "allow_session", "session":
		return AllowSession, nil
	case "allow_always", "always":
		return AllowAlways, nil
	case "deny", "reject", "no", "n", "reject_once":
		return Reject, nil
	case "deny_always", "reject_always", "never":
		return RejectAlways, nil
	}
	return "", fmt.Errorf("unknown decision %q (want allow_once, allow_session, allow_always, deny or deny_always)", s)
}

// Decision is a person's answer: the choice, for a shell call allowed for
// the session or always a command Prefix to grant instead of the exact
// line ("go test" approves `go test ./...`, never `go test; rm -rf ~`),
// and with a denial the Reason sent to the model.
type Decision struct {
	Choice Choice
	Prefix string
	Reason string
}

// Allowed reports whether d lets the call run.
func (d Decision) Allowed() bool {
	return d.Choice == AllowOnce || d.Choice == AllowSession || d.Choice == AllowAlways
}

// Scope is how long the grant of an allowing decision holds.
func (d Decision) Scope() Scope {
	switch d.Choice {
	case AllowSession:
		return ScopeSession
	case AllowAlways:
		return ScopePersistent
	}
	return ScopeOnce
}

// Event is d, answering req, as a permission_decision event's payload.
func (d Decision) Event(req Request) *event.Permission {
	return &event.Permission{ID: req.ID, Tool: req.Tool, Decision: string(d.Choice), Prefix: d.Prefix, Reason: d.Reason}
}

// Describe is d for a person: "allowed once", "allowed `go test …` for
// this session", "denied (use make test)".
func (d Decision) Describe() string {
	scope := map[Choice]string{AllowOnce: "once", AllowSession: "for this session", AllowAlways: "always"}[d.Choice]
	switch {
	case d.Choice == RejectAlways:
		return "denied always"
	case !d.Allowed():
		if d.Reason != "" {
			return "denied (" + d.Reason + ")"
		}
		return "denied"
	case d.Prefix != "" && d.Choice != AllowOnce:
		return "allowed `" + d.Prefix + " …` " + scope
	}
	return "allowed " + scope
}

// SuggestPrefix returns the command prefix a grant for command could
// cover: its program and, when the next word is a subcommand ("go test",
// "npm run", "git status"), that word too. Only a command of one simple
// command gets one (a pipeline or list would need a grant for each part);
// "" when there is none to suggest.
func SuggestPrefix(command string, opts shellguard.Options) string {
	parts, ok := shellguard.Parts(command, opts)
	if !ok || len(parts) != 1 || len(parts[0]) == 0 {
		return ""
	}
	words := parts[0]
	if !plainWord(words[0]) {
		return ""
	}
	if len(words) > 1 && plainWord(words[1]) && subcommandish(words[1]) {
		return words[0] + " " + words[1]
	}
	return words[0]
}

// plainWord is a word known before run time without quoting surprises:
// printable, no spaces, no shell metacharacters.
func plainWord(w string) bool {
	if w == "" || strings.Contains(w, shellguard.Unknown) || strings.ContainsAny(w, "=$`\"'*?[") {
		return false
	}
	for _, r := range w {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// subcommandish: a lowercase word that is not a flag, path or file name.
func subcommandish(w string) bool {
	for i, r := range w {
		if !(unicode.IsLower(r) || unicode.IsDigit(r) || (i > 0 && (r == '-' || r == '_' || r == ':'))) {
			return false
		}
	}
	return true
}
