package permission

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Permission rules in Claude Code's settings shape
// (https://docs.claude.com/en/docs/claude-code/iam#permission-rules):
// "permissions": {"allow": [...], "ask": [...], "deny": [...]} of rules
// such as Bash(go test:*), Read(./src/**), Edit, WebFetch(domain:go.dev),
// mcp__server__tool or mcp__server, and the --allowed-tools and
// --disallowed-tools flags. Precedence (Engine.Decide):
//
//  1. Anything the engine already denies stays denied: the shell guard's
//     refusals, plan mode, writes outside the workspace.
//  2. A deny rule from any file or flag denies.
//  3. An ask rule from any file turns an allow (a grant, auto-accept
//     mode, another rule) into a question.
//  4. An allow rule spares only the question normal mode would ask
//     (rule mode.normal); a user or flag allow also spares the question
//     for reading outside the workspace. No allow answers the shell
//     guard's questions, writes into .git or .zero, or secrets.
//
// A project file (.claude/settings*.json, .zero/settings.json) loads only
// after `zero trust`, and since deny and ask beat allow wherever they are
// written, a project allow can never widen what the user's own deny or
// ask rules hold back.

// Origin says where a rule was written.
type Origin string

// Origins.
const (
	OriginUser    Origin = "user"
	OriginProject Origin = "project"
	OriginFlag    Origin = "flag"
)

// ToolRule is one parsed rule.
type ToolRule struct {
	// Raw is the rule as written; Tool the name before the parentheses;
	// Spec what is inside ("" for the whole tool).
	Raw, Tool, Spec string
	Origin          Origin
	// Source is the file or flag the rule came from.
	Source string

	kind ruleKind
}

type ruleKind int

const (
	kindWhole ruleKind = iota
	kindCommand
	kindPath
	kindDomain
)

// ruleTools maps the tool names a rule may use (Claude's, and Zero's own)
// to Zero's tools they cover, and the specifier kind they take. Claude's
// Read covers every reading tool and Edit every editing one, as in
// Claude Code.
var ruleTools = map[string]struct {
	zero []string
	kind ruleKind
}{
	"Bash":      {[]string{"bash", "exec_command"}, kindCommand},
	"Read":      {[]string{"read_file", "glob", "grep", "list_dir"}, kindPath},
	"Edit":      {[]string{"edit_file", "write_file", "apply_patch"}, kindPath},
	"Write":     {[]string{"write_file", "apply_patch"}, kindPath},
	"MultiEdit": {[]string{"edit_file", "apply_patch"}, kindPath},
	"Glob":      {[]string{"glob"}, kindPath},
	"Grep":      {[]string{"grep"}, kindPath},
	"LS":        {[]string{"list_dir"}, kindPath},
	"WebFetch":  {[]string{"web_fetch"}, kindDomain},
}

// zeroRuleKinds: a rule may name Zero's own tools too (bash(go test:*)).
var zeroRuleKinds = map[string]ruleKind{"bash": kindCommand, "exec_command": kindCommand, "read_file": kindPath, "write_file": kindPath,
	"edit_file": kindPath, "apply_patch": kindPath, "glob": kindPath, "grep": kindPath, "list_dir": kindPath,
	"web_fetch": kindDomain}

var ruleToolName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*\*?$`)

// ParseToolRule parses one rule. The one parser of rule text: settings
// files and flags both come through here.
func ParseToolRule(s string) (ToolRule, error) {
	s = strings.TrimSpace(s)
	r := ToolRule{Raw: s, Tool: s}
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return r, fmt.Errorf("rule %q: a ( needs a closing ) at the end", s)
		}
		r.Tool, r.Spec = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:len(s)-1])
		if r.Spec == "*" {
			r.Spec = ""
		}
	}
	if !ruleToolName.MatchString(r.Tool) {
		return r, fmt.Errorf("rule %q: %q is not a tool name", s, r.Tool)
	}
	if strings.HasPrefix(r.Tool, "mcp__") {
		if r.Spec != "" {
			return r, fmt.Errorf("rule %q: MCP rules name a server (mcp__server) or a tool (mcp__server__tool), without parentheses", s)
		}
		return r, nil
	}
	kind, known := zeroRuleKinds[r.Tool]
	if t, ok := ruleTools[r.Tool]; ok {
		kind, known = t.kind, true
	}
	if r.Spec == "" {
		return r, nil
	}
	if !known {
		return r, fmt.Errorf("rule %q: Zero matches %s only as a whole tool (write %s without parentheses)", s, r.Tool, r.Tool)
	}
	r.kind = kind
	switch kind {
	case kindPath:
		if !doublestar.ValidatePattern(strings.TrimPrefix(r.Spec, "/")) {
			return r, fmt.Errorf("rule %q: %q is not a valid path pattern", s, r.Spec)
		}
	case kindDomain:
		d, ok := strings.CutPrefix(r.Spec, "domain:")
		if !ok || strings.TrimSpace(d) == "" || strings.ContainsAny(d, "/ ") {
			return r, fmt.Errorf("rule %q: WebFetch rules are WebFetch(domain:HOST)", s)
		}
	case kindCommand:
		if strings.TrimSpace(strings.TrimSuffix(r.Spec, ":*")) == "" {
			return r, fmt.Errorf("rule %q: the command prefix is empty", s)
		}
	}
	return r, nil
}

// SplitRuleList splits a flag value into rules: commas or spaces
// separate rules, except inside parentheses ("Bash(go test:*),Edit" and
// "Bash(git diff:*) Read" are two rules each).
func SplitRuleList(s string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if t := strings.TrimSpace(s[start:end]); t != "" {
			out = append(out, t)
		}
	}
	for i, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case (c == ',' || c == ' ' || c == '\t' || c == '\n') && depth == 0:
			flush(i)
			start = i + 1
		}
	}
	flush(len(s))
	return out
}

// ToolRules are the allow, ask and deny rules of every settings file and
// flag, in load order.
type ToolRules struct {
	Allow, Ask, Deny []ToolRule
}

// Add parses rules of one list ("allow", "ask" or "deny") from source;
// a rule that does not parse is left out and returned as an error (the
// caller warns: a Claude Code settings file Zero reads in part must not
// stop Zero from starting).
func (rs *ToolRules) Add(list string, raw []string, origin Origin, source string) []error {
	var errs []error
	for _, s := range raw {
		r, err := ParseToolRule(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: permissions.%s: %w; the rule is ignored", source, list, err))
			continue
		}
		r.Origin, r.Source = origin, source
		switch list {
		case "allow":
			rs.Allow = append(rs.Allow, r)
		case "ask":
			rs.Ask = append(rs.Ask, r)
		case "deny":
			rs.Deny = append(rs.Deny, r)
		default:
			errs = append(errs, fmt.Errorf("%s: permissions.%s is not allow, ask or deny", source, list))
		}
	}
	return errs
}

// Len is the number of rules.
func (rs *ToolRules) Len() int {
	if rs == nil {
		return 0
	}
	return len(rs.Allow) + len(rs.Ask) + len(rs.Deny)
}

// callFacts are what rules match on one call.
type callFacts struct {
	tool string
	// parts are the shell command's parts as words (shellguard.Parts);
	// partsOK is false when the command could not be followed fully.
	parts   [][]string
	partsOK bool
	// paths are the absolute paths the call reads or writes.
	paths []string
	host  string
	root  string
	home  string
}

// covers reports whether the rule names the call's tool.
func (r *ToolRule) covers(tool string) bool {
	if strings.HasPrefix(r.Tool, "mcp__") {
		if r.Tool == tool {
			return true
		}
		server := strings.TrimSuffix(strings.TrimSuffix(r.Tool, "*"), "__")
		return ServerPrefix(tool) == server+"__" && strings.Count(server, "__") == 1
	}
	if r.Tool == tool {
		return true
	}
	for _, z := range ruleTools[r.Tool].zero {
		if z == tool {
			return true
		}
	}
	return false
}

// matchAny: the rule applies to some of the call (deny and ask rules).
func (r *ToolRule) matchAny(c callFacts) bool {
	if !r.covers(c.tool) {
		return false
	}
	switch {
	case r.Spec == "":
		return true
	case r.kind == kindCommand:
		for _, p := range c.parts {
			if r.matchWords(p) {
				return true
			}
		}
		return false
	case r.kind == kindPath:
		for _, p := range c.paths {
			if r.matchPath(p, c.root, c.home) {
				return true
			}
		}
		return false
	case r.kind == kindDomain:
		return r.matchHost(c.host)
	}
	return false
}

// allowedBy: every part of the call is covered by some rule in rs.
func allowedBy(rs []ToolRule, c callFacts) (*ToolRule, bool) {
	var first *ToolRule
	each := func(match func(r *ToolRule) bool) bool {
		for i := range rs {
			if rs[i].covers(c.tool) && match(&rs[i]) {
				if first == nil {
					first = &rs[i]
				}
				return true
			}
		}
		return false
	}
	if each(func(r *ToolRule) bool { return r.Spec == "" }) {
		return first, true
	}
	switch {
	case len(c.parts) > 0:
		if !c.partsOK {
			return nil, false
		}
		for _, p := range c.parts {
			if !each(func(r *ToolRule) bool { return r.kind == kindCommand && r.matchWords(p) }) {
				return nil, false
			}
		}
	case len(c.paths) > 0:
		for _, p := range c.paths {
			if !each(func(r *ToolRule) bool { return r.kind == kindPath && r.matchPath(p, c.root, c.home) }) {
				return nil, false
			}
		}
	case c.host != "":
		if !each(func(r *ToolRule) bool { return r.kind == kindDomain && r.matchHost(c.host) }) {
			return nil, false
		}
	default:
		return nil, false
	}
	return first, first != nil
}

// matchWords matches a command part: "go test:*" is the words `go test`
// and anything after them, a spec with * is a glob over the words joined
// by spaces, anything else the exact command.
func (r *ToolRule) matchWords(words []string) bool {
	if prefix, ok := strings.CutSuffix(r.Spec, ":*"); ok {
		return hasWordPrefix(words, strings.Fields(prefix))
	}
	line := strings.Join(words, " ")
	spec := strings.Join(strings.Fields(r.Spec), " ")
	if strings.Contains(spec, "*") {
		return globWords(spec, line)
	}
	return line == spec
}

func globWords(pattern, s string) bool {
	var b strings.Builder
	b.WriteString(`^`)
	for _, part := range strings.Split(pattern, "*") {
		b.WriteString(regexp.QuoteMeta(part))
		b.WriteString(`.*`)
	}
	re, err := regexp.Compile(strings.TrimSuffix(b.String(), `.*`) + `$`)
	return err == nil && re.MatchString(s)
}

// matchPath matches an absolute path against the rule's pattern:
// `//abs/**` is absolute, `~/x` in the home directory, `/x`, `./x` and
// `x/y` relative to the workspace root, and a name without a slash
// (`.env`, `*.pem`) at any depth, as in .gitignore.
func (r *ToolRule) matchPath(abs, root, home string) bool {
	pat := r.Spec
	switch {
	case strings.HasPrefix(pat, "//"):
		pat = pat[1:]
	case strings.HasPrefix(pat, "~/"):
		pat = filepath.ToSlash(home) + pat[1:]
	case strings.HasPrefix(pat, "/"):
		pat = filepath.ToSlash(root) + pat
	case strings.HasPrefix(pat, "./"):
		pat = filepath.ToSlash(root) + pat[1:]
	case !strings.Contains(strings.TrimSuffix(pat, "/"), "/"):
		pat = filepath.ToSlash(root) + "/**/" + pat
	default:
		pat = filepath.ToSlash(root) + "/" + pat
	}
	p := filepath.ToSlash(abs)
	if ok, _ := doublestar.Match(pat, p); ok {
		return true
	}
	// a pattern naming a folder covers what is inside it
	ok, _ := doublestar.Match(strings.TrimSuffix(pat, "/")+"/**", p)
	return ok
}

// matchHost: domain:go.dev is that host; domain:*.go.dev its subdomains.
func (r *ToolRule) matchHost(host string) bool {
	d := strings.ToLower(strings.TrimPrefix(r.Spec, "domain:"))
	host = strings.ToLower(host)
	if sub, ok := strings.CutPrefix(d, "*."); ok {
		return strings.HasSuffix(host, "."+sub)
	}
	return host != "" && host == d
}

// hostOf is the host of a web_fetch url argument.
func hostOf(args map[string]any) string {
	s, _ := args["url"].(string)
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// DeniesTool reports whether a deny rule refuses every call of tool (a
// rule without a specifier: Bash, Read, mcp__server): such a tool need
// not be offered at all.
func (e *Engine) DeniesTool(tool string) bool {
	if e == nil || e.tools == nil {
		return false
	}
	for i := range e.tools.Deny {
		if r := &e.tools.Deny[i]; r.Spec == "" && r.covers(tool) {
			return true
		}
	}
	return false
}

// Rules naming what decided.
const (
	RuleSettingsDeny  = "permissions.deny"
	RuleSettingsAsk   = "permissions.ask"
	RuleSettingsAllow = "permissions.allow"
)

// apply folds the rules into the engine's verdict d (precedence above).
func (rs *ToolRules) apply(d Verdict, c callFacts) Verdict {
	if rs == nil || d.Action == Deny {
		return d
	}
	for i := range rs.Deny {
		if r := &rs.Deny[i]; r.matchAny(c) {
			return Verdict{Action: Deny, Reason: fmt.Sprintf("denied by the permission rule %s (%s)", r.Raw, r.Source), Rule: RuleSettingsDeny}
		}
	}
	for i := range rs.Ask {
		if r := &rs.Ask[i]; r.matchAny(c) {
			if d.Action == Ask && d.Rule != RuleModeNormal {
				return d // already a stricter question
			}
			return Verdict{Action: Ask, Reason: fmt.Sprintf("the permission rule %s (%s) asks first", r.Raw, r.Source), Rule: RuleSettingsAsk}
		}
	}
	if d.Action != Ask || (d.Rule != RuleModeNormal && d.Rule != RuleReadOutside) {
		return d
	}
	var usable []ToolRule
	for _, r := range rs.Allow {
		if d.Rule == RuleModeNormal || r.Origin != OriginProject {
			usable = append(usable, r)
		}
	}
	if r, ok := allowedBy(usable, c); ok {
		return Verdict{Action: Allow, Reason: fmt.Sprintf("allowed by the permission rule %s (%s)", r.Raw, r.Source), Rule: RuleSettingsAllow}
	}
	return d
}

// RuleNames reports whether name, a tool as a rule or an agent
// definition writes it (Claude's Read, Zero's read_file, mcp__server),
// covers Zero's tool (a specifier in parentheses is ignored).
func RuleNames(name, tool string) bool {
	name, _, _ = strings.Cut(strings.TrimSpace(name), "(")
	r := ToolRule{Tool: strings.TrimSpace(name)}
	return r.covers(tool)
}
