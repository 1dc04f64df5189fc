// Package rules loads and evaluates project and user rules: small
// policies kept as data in `.zero/rules.json` (the project's) and
// `~/.zero/rules.json` (the user's, which wins on the same id), each
// `{id, on: command|edit|tool, match, action: allow|rewrite|confirm|block,
// rewrite: [from, to], reason}` (issue 5, acceptance 5).
//
// The permission engine (internal/permission) evaluates them after path
// confinement and the shell guard and before the mode: a block fires even
// in auto-accept mode, a rewritten command is checked by the guard again,
// and allow can only spare a question the mode would ask — it never
// overrides a guard ask or deny. Loading the project file is the caller's
// decision (only after the user trusts the folder).
//
// It also owns the prose side: ZERO.md, sanitized (escape sequences and
// invisible characters stripped) and cut to a small budget before it is
// projected into the system prompt each turn, and the helpers behind
// `zero rules init|add|doctor` and `/rules why <id>`.
//
// This package only parses, matches and edits its own files; it runs
// nothing and must not import the engine.
package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zero-agent/zero/internal/jsonc"
)

// On is what a rule applies to.
type On string

// Subjects.
const (
	// OnCommand matches the shell command line.
	OnCommand On = "command"
	// OnEdit matches the workspace-relative path a write or edit changes.
	OnEdit On = "edit"
	// OnTool matches the tool name.
	OnTool On = "tool"
)

// Action is what a matching rule does.
type Action string

// Actions.
const (
	Allow   Action = "allow"
	Rewrite Action = "rewrite"
	Confirm Action = "confirm"
	Block   Action = "block"
)

// Rule is one rule as written in rules.json.
type Rule struct {
	ID string `json:"id"`
	On On     `json:"on"`
	// Match is a glob (`*` any text, `?` one character; for edits a
	// doublestar path glob such as `migrations/**`) or, written as
	// `/regex/` or `re:regex`, a Go regular expression searched in the
	// subject.
	Match  string `json:"match"`
	Action Action `json:"action"`
	// Rewrite is [from, to]: the first occurrence of from in a matching
	// command becomes to (for example ["npm ", "pnpm "]).
	Rewrite []string `json:"rewrite,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	// Source is the file the rule came from (set by Load).
	Source string `json:"-"`

	re *regexp.Regexp
}

// Set is the loaded rules in evaluation order: the user's first, then the
// project's, each in file order.
type Set struct {
	rules []Rule
}

// file is the on-disk shape: {"rules": [...]} (a bare array is accepted
// too). Comments and trailing commas are allowed (JWCC via hujson).
type file struct {
	Rules []Rule `json:"rules"`
}

// ProjectFile and UserFile are where rules live, relative to the
// workspace root and the home directory.
const (
	ProjectFile = ".zero/rules.json"
	UserFile    = ".zero/rules.json"
)

// Load reads the user's rules (home/.zero/rules.json) and, when
// workspace is not empty, the project's (workspace/.zero/rules.json).
// Missing files are no rules. A rule in the user file replaces a project
// rule with the same id. Errors name the file and the rule.
func Load(workspace, home string) (*Set, error) {
	var user, project []Rule
	var err error
	if home != "" {
		if user, err = ReadFile(filepath.Join(home, UserFile)); err != nil {
			return nil, err
		}
	}
	if workspace != "" {
		if project, err = ReadFile(filepath.Join(workspace, ProjectFile)); err != nil {
			return nil, err
		}
	}
	return New(user, project), nil
}

// New builds a set from user and project rules (user wins on the same id).
func New(user, project []Rule) *Set {
	s := &Set{}
	ids := map[string]bool{}
	for _, r := range user {
		ids[r.ID] = true
		s.rules = append(s.rules, r)
	}
	for _, r := range project {
		if !ids[r.ID] {
			s.rules = append(s.rules, r)
		}
	}
	return s
}

// ReadFile parses one rules file; a missing file is nil, nil.
func ReadFile(path string) ([]Rule, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read rules: %w", err)
	}
	rs, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range rs {
		rs[i].Source = path
	}
	return rs, nil
}

// Parse parses and validates rules.json content.
func Parse(b []byte) ([]Rule, error) {
	std, err := jsonc.Standardize(b)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	var f file
	if t := strings.TrimSpace(string(std)); strings.HasPrefix(t, "[") {
		err = json.Unmarshal(std, &f.Rules)
	} else {
		err = json.Unmarshal(std, &f)
	}
	if err != nil {
		return nil, fmt.Errorf("not a rules file: %w", err)
	}
	seen := map[string]bool{}
	for i := range f.Rules {
		r := &f.Rules[i]
		if err := r.compile(); err != nil {
			return nil, fmt.Errorf("rule %d (%q): %w", i+1, r.ID, err)
		}
		if seen[r.ID] {
			return nil, fmt.Errorf("rule id %q appears twice", r.ID)
		}
		seen[r.ID] = true
	}
	return f.Rules, nil
}

// compile validates r and prepares its matcher.
func (r *Rule) compile() error {
	switch {
	case r.ID == "":
		return errors.New("missing id")
	case r.On != OnCommand && r.On != OnEdit && r.On != OnTool:
		return fmt.Errorf("on must be command, edit or tool, not %q", r.On)
	case r.Action != Allow && r.Action != Rewrite && r.Action != Confirm && r.Action != Block:
		return fmt.Errorf("action must be allow, rewrite, confirm or block, not %q", r.Action)
	case r.Match == "":
		return errors.New("missing match")
	case r.Action == Rewrite && (len(r.Rewrite) != 2 || r.Rewrite[0] == ""):
		return errors.New(`rewrite needs ["from", "to"] with a non-empty from`)
	case r.Action == Rewrite && r.On != OnCommand:
		return errors.New("only command rules can rewrite")
	}
	if expr, ok := regexSource(r.Match); ok {
		re, err := regexp.Compile(expr)
		if err != nil {
			return fmt.Errorf("bad regex: %w", err)
		}
		r.re = re
		return nil
	}
	if r.On == OnEdit && !doublestar.ValidatePattern(r.Match) {
		return fmt.Errorf("bad glob %q", r.Match)
	}
	return nil
}

// regexSource returns the expression of a /regex/ or re:regex match.
func regexSource(m string) (string, bool) {
	if strings.HasPrefix(m, "re:") {
		return m[3:], true
	}
	if len(m) >= 2 && m[0] == '/' && m[len(m)-1] == '/' {
		return m[1 : len(m)-1], true
	}
	return "", false
}

// Matches reports whether the rule applies to subject.
func (r *Rule) Matches(subject string) bool {
	if r.re != nil {
		return r.re.MatchString(subject)
	}
	if r.On == OnEdit {
		ok, _ := doublestar.Match(r.Match, filepath.ToSlash(subject))
		return ok
	}
	return globMatch(r.Match, subject)
}

// globMatch matches a command or tool glob: * any text (spaces and
// slashes included), ? one byte, everything else literal.
func globMatch(pattern, s string) bool {
	var b strings.Builder
	b.WriteString(`^`)
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(`(?s:.*)`)
		case '?':
			b.WriteString(`(?s:.)`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}

// Result is the outcome of evaluating one subject.
type Result struct {
	// Action is the matching rule's action; empty when no rule matched.
	Action Action
	// Rule is the rule that matched (nil for none).
	Rule *Rule
	// Command is the rewritten command for Rewrite.
	Command string
}

// Evaluate returns the first rule, in order, that matches subject for on.
// A rewrite returns the rewritten command; the caller must check it with
// the shell guard again.
func (s *Set) Evaluate(on On, subject string) Result {
	if s == nil {
		return Result{}
	}
	for i := range s.rules {
		r := &s.rules[i]
		if r.On != on || !r.Matches(subject) {
			continue
		}
		res := Result{Action: r.Action, Rule: r}
		if r.Action == Rewrite {
			res.Command = strings.Replace(subject, r.Rewrite[0], r.Rewrite[1], 1)
		}
		return res
	}
	return Result{}
}

// Why explains the rule with id for `/rules why <id>`: where it comes
// from, what it matches and does. ok is false for an unknown id.
func (s *Set) Why(id string) (string, bool) {
	if s == nil {
		return "", false
	}
	for _, r := range s.rules {
		if r.ID != id {
			continue
		}
		what := string(r.Action)
		if r.Action == Rewrite {
			what = fmt.Sprintf("rewrite %q to %q", r.Rewrite[0], r.Rewrite[1])
		}
		msg := fmt.Sprintf("%s (from %s): on %s matching %q: %s", r.ID, r.Source, r.On, r.Match, what)
		if r.Reason != "" {
			msg += " — " + r.Reason
		}
		return msg, true
	}
	return "", false
}

// Rules returns the rules in evaluation order.
func (s *Set) Rules() []Rule {
	if s == nil {
		return nil
	}
	return append([]Rule(nil), s.rules...)
}
