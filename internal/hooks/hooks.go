// Package hooks runs the user's and project's hook commands around tool
// calls, prompts and sessions, in Claude Code's settings shape
// (https://docs.claude.com/en/docs/claude-code/hooks):
//
//	{"hooks": {"PreToolUse": [{"matcher": "Bash|Edit",
//	  "hooks": [{"type": "command", "command": "./check.sh", "timeout": 60, "onError": "block"}]}]}}
//
// A hook reads Claude's JSON on stdin (session_id, transcript_path, cwd,
// hook_event_name, tool_name in Claude's names, tool_input in Claude's
// field names, ...); exit 2 blocks with stderr as the reason, exit 0 may
// print a JSON decision (permissionDecision, updatedInput,
// additionalContext, continue/stopReason, decision: block). Zero's own
// addition is "onError": "block": a crash, a timeout or unreadable JSON
// then blocks instead of letting the action go on. Zero's earlier format
// ({"beforeTool": [{matcher, command, timeout}]}) still parses, with a
// warning naming the settings-shape equivalent.
//
// This package parses hook files, maps tool names and inputs between
// Zero and Claude, runs commands and folds their answers into a Result.
// It decides nothing else: where settings files live and whether a
// project is trusted is the caller's (internal/run), permissions are
// internal/permission's.
package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/decodeerr"
	"github.com/zero-agent/zero/internal/jsonc"
)

// Event is a hook event, named as in Claude Code.
type Event string

// Events. SubagentStop fires in the parent's session when a sub-agent
// (the task tool) ends.
const (
	PreToolUse         Event = "PreToolUse"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
	UserPromptSubmit   Event = "UserPromptSubmit"
	Stop               Event = "Stop"
	SubagentStop       Event = "SubagentStop"
	SessionStart       Event = "SessionStart"
	SessionEnd         Event = "SessionEnd"
	PreCompact         Event = "PreCompact"
	Notification       Event = "Notification"
)

// Events lists every event in the order `zero hooks list` shows them.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure,
	Notification, PreCompact, Stop, SubagentStop, SessionEnd}

// legacyEvents maps Zero's earlier event names to Claude's.
var legacyEvents = map[string]Event{"beforeTool": PreToolUse, "afterTool": PostToolUse,
	"sessionStart": SessionStart, "sessionEnd": SessionEnd}

// ParseEvent reads an event name: Claude's (any case) or one of Zero's
// earlier names.
func ParseEvent(s string) (Event, error) {
	for _, e := range Events {
		if strings.EqualFold(s, string(e)) {
			return e, nil
		}
	}
	if e, ok := legacyEvents[s]; ok {
		return e, nil
	}
	names := make([]string, len(Events))
	for i, e := range Events {
		names[i] = string(e)
	}
	return "", fmt.Errorf("unknown hook event %q (known: %s)", s, strings.Join(names, ", "))
}

// toolEvent: the events whose matcher is matched against a tool name.
func toolEvent(e Event) bool {
	return e == PreToolUse || e == PostToolUse || e == PostToolUseFailure
}

// Timeouts: Claude's default for a settings-shape hook, and the shorter
// one Zero's earlier format always had.
const (
	DefaultTimeout = 600 * time.Second
	LegacyTimeout  = 30 * time.Second
)

// BlockExit is the exit status by which a hook blocks.
const BlockExit = 2

// Hook is one hook command.
type Hook struct {
	Event Event
	// Matcher selects what the hook fires for (see Matches).
	Matcher string
	// Command runs with /bin/sh -c in the workspace root.
	Command string
	// Timeout bounds the run; 0 means the default.
	Timeout time.Duration
	// FailClosed ("onError": "block"): a crash, timeout or bad JSON
	// output blocks like exit 2.
	FailClosed bool
	// Legacy: written in Zero's earlier format, so its matcher is a glob
	// over Zero's tool names and its stdin is the earlier payload.
	Legacy bool
	// Source is the file (or config key) the hook came from.
	Source string
	// Env are variables set for this hook only, NAME=value (a plugin's
	// hooks get CLAUDE_PLUGIN_ROOT).
	Env []string

	re *regexp.Regexp
}

// Config is the hooks of each event, in run order.
type Config map[Event][]Hook

// Len is the number of hooks.
func (c Config) Len() int {
	n := 0
	for _, hs := range c {
		n += len(hs)
	}
	return n
}

// Merge concatenates configs: hooks of earlier configs run first.
func Merge(cs ...Config) Config {
	out := Config{}
	for _, c := range cs {
		for _, e := range Events {
			out[e] = append(out[e], c[e]...)
		}
	}
	return out
}

// settingsGroup and settingsHook are Claude's on-disk shape.
type settingsGroup struct {
	Matcher string         `json:"matcher"`
	Hooks   []settingsHook `json:"hooks"`
	// Command is set when the group is in Zero's earlier format.
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"`
	OnError string  `json:"onError"`
}

type settingsHook struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"`
	OnError string  `json:"onError"`
}

// Parse reads the hooks of a settings file: {"hooks": {...}} (other keys
// are ignored) or the inner object alone. Comments and trailing commas
// are allowed. source names the file in errors, warnings and Hook.Source.
// Warnings say what was understood differently from what was written
// (the earlier format, an unknown event, a hook type Zero cannot run): a
// hook that silently never fires is the complaint this avoids.
func Parse(b []byte, source string) (Config, []string, error) {
	std, err := jsonc.Standardize(b)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not valid JSON: %w", source, err)
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(std, &outer); err != nil {
		return nil, nil, fmt.Errorf("%s: must be an object (with \"hooks\", or of events), not %s", source, found(err))
	}
	inner := outer
	if raw, ok := outer["hooks"]; ok {
		inner = nil
		if err := json.Unmarshal(raw, &inner); err != nil {
			return nil, nil, fmt.Errorf("%s: hooks must be an object of events (PreToolUse, ...), not %s", source, found(err))
		}
	}
	return parseEvents(inner, source)
}

// ParseValue reads a hooks object already extracted from a larger file
// (the `hooks` key of Zero's config).
func ParseValue(raw []byte, source string) (Config, []string, error) {
	std, err := jsonc.Standardize(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not valid JSON: %w", source, err)
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(std, &inner); err != nil {
		return nil, nil, fmt.Errorf("%s: hooks must be an object of events (PreToolUse, ...), not %s", source, found(err))
	}
	return parseEvents(inner, source)
}

func parseEvents(inner map[string]json.RawMessage, source string) (Config, []string, error) {
	c := Config{}
	var warns []string
	keys := make([]string, 0, len(inner))
	for k := range inner {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		ev, err := ParseEvent(key)
		if err != nil {
			warns = append(warns, fmt.Sprintf("%s: %v; its hooks never run", source, err))
			continue
		}
		var groups []settingsGroup
		if err := json.Unmarshal(inner[key], &groups); err != nil {
			return nil, nil, fmt.Errorf("%s: %s", source, groupsError(key, err, inner[key]))
		}
		_, legacy := legacyEvents[key]
		hs, w, err := parseGroups(ev, key, groups, legacy, source)
		if err != nil {
			return nil, nil, err
		}
		warns = append(warns, w...)
		c[ev] = append(c[ev], hs...)
	}
	return c, warns, nil
}

// groupsError words a type error in event key's list of groups (raw),
// in the file's words.
func groupsError(key string, err error, raw []byte) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return fmt.Sprintf("%s: %v", key, err)
	}
	if te.Field == "" {
		return fmt.Sprintf("%s must be a list of {matcher, hooks} groups, not %s", key, decodeerr.Found(te))
	}
	msg, _ := decodeerr.JSONMessage(te, raw)
	return key + ": " + msg
}

// found is the kind of value a type error found ("a list"), or the error.
func found(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return decodeerr.Found(te)
	}
	return err.Error()
}

func parseGroups(ev Event, key string, groups []settingsGroup, legacy bool, source string) ([]Hook, []string, error) {
	var out []Hook
	var warns []string
	if legacy {
		warns = append(warns, fmt.Sprintf("%s: %q is Zero's earlier hook format; it still works (matcher as a glob over Zero's tool names). In the settings shape: {\"hooks\": {%q: [{\"matcher\": \"...\", \"hooks\": [{\"type\": \"command\", \"command\": \"...\"}]}]}}", source, key, ev))
	}
	for gi, g := range groups {
		specs := g.Hooks
		if legacy || (len(specs) == 0 && g.Command != "") {
			specs = []settingsHook{{Type: "command", Command: g.Command, Timeout: g.Timeout, OnError: g.OnError}}
		}
		for hi, s := range specs {
			where := fmt.Sprintf("%s: %s group %d hook %d", source, key, gi+1, hi+1)
			if s.Type != "" && s.Type != "command" {
				warns = append(warns, fmt.Sprintf("%s has type %q; Zero runs only command hooks, so it never runs", where, s.Type))
				continue
			}
			h, err := newHook(ev, g.Matcher, s, legacy, source)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", where, err)
			}
			out = append(out, h)
		}
	}
	return out, warns, nil
}

func newHook(ev Event, matcher string, s settingsHook, legacy bool, source string) (Hook, error) {
	h := Hook{Event: ev, Matcher: strings.TrimSpace(matcher), Command: s.Command, Legacy: legacy, Source: source}
	switch {
	case strings.TrimSpace(s.Command) == "":
		return h, fmt.Errorf("has no command")
	case s.Timeout < 0:
		return h, fmt.Errorf("has a negative timeout")
	}
	switch s.OnError {
	case "", "allow", "continue":
	case "block":
		h.FailClosed = true
	default:
		return h, fmt.Errorf(`onError must be "block" or "continue", not %q`, s.OnError)
	}
	h.Timeout = time.Duration(s.Timeout * float64(time.Second))
	var err error
	if legacy {
		h.re, err = compileGlobMatcher(h.Matcher)
	} else {
		h.re, err = compileMatcher(h.Matcher)
	}
	return h, err
}

// Matches reports whether the hook fires for subject: a tool's names
// for the tool events (Claude's name and Zero's), SessionStart's source,
// PreCompact's trigger, Notification's type; events without a subject
// fire every hook.
func (h *Hook) Matches(subjects ...string) bool {
	if h.re == nil || len(subjects) == 0 {
		return true
	}
	for _, s := range subjects {
		if s != "" && h.re.MatchString(s) {
			return true
		}
	}
	return false
}

// compileMatcher compiles Claude's matcher syntax: "" or "*" is every
// subject; a plain word or `A|B` list matches those names exactly; any
// other text is a regular expression searched in the name ("Notebook.*",
// "mcp__github__.*").
func compileMatcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	if plainMatcher.MatchString(m) {
		alts := strings.Split(m, "|")
		for i, a := range alts {
			alts[i] = regexp.QuoteMeta(strings.TrimSpace(a))
		}
		return regexp.Compile(`^(?:` + strings.Join(alts, "|") + `)$`)
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, fmt.Errorf("bad matcher regex %q: %w", m, err)
	}
	return re, nil
}

var plainMatcher = regexp.MustCompile(`^[A-Za-z0-9_ |]+$`)

// compileGlobMatcher compiles the earlier format's matcher: alternatives
// of globs ("bash|write_*") or "/regex/", matched against the whole name.
func compileGlobMatcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	if len(m) >= 2 && m[0] == '/' && m[len(m)-1] == '/' {
		re, err := regexp.Compile(`^(?:` + m[1:len(m)-1] + `)$`)
		if err != nil {
			return nil, fmt.Errorf("bad matcher regex: %w", err)
		}
		return re, nil
	}
	var alts []string
	for _, a := range strings.Split(m, "|") {
		var b strings.Builder
		for _, r := range strings.TrimSpace(a) {
			switch r {
			case '*':
				b.WriteString(`.*`)
			case '?':
				b.WriteString(`.`)
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		alts = append(alts, b.String())
	}
	return regexp.Compile(`^(?:` + strings.Join(alts, "|") + `)$`)
}
