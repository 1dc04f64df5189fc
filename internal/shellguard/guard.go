// Package shellguard decides whether a shell command may run: allow, ask
// or deny. It parses the command with a real shell parser
// (mvdan.cc/sh/v3/syntax) and classifies every simple command the line can
// run: each part of ; && || and pipes, subshells and groups, $(...),
// backticks and process substitutions, redirection targets, the code given
// to bash -c / sh -c / eval / trap / heredocs fed to a shell (parsed again,
// to Options.MaxDepth), the commands run by xargs and find -exec, and the
// command behind wrappers (sudo, env, nice, timeout, command, exec, \rm,
// /usr/bin/rm, ...). The verdict is the most severe of all parts (case
// B18): an allowed first command never approves the rest.
//
// Why it exists: string matching on the first word of a command line is
// how agents ended up running `ls; rm -rf /` (cases B18, B19, B21). The
// policy — which finding gets which verdict — is the table in policy.go.
//
// It never runs the command. It reads the file system in one place only:
// to expand globs and follow symlinks of arguments when looking for
// secrets (cat .e?v, a link to .env), listing directories and reading
// link targets, never file contents. Quoted text is data, not
// code: `echo "rm -rf /"` is allowed. It must not import other Zero
// packages but the leaf internal/lazyregexp; the permission engine
// (internal/permission) and the CLI (`zero guard`) call it.
package shellguard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Level is a verdict: allow < ask < deny.
type Level string

// Verdict levels.
const (
	// Allow may run without asking (in auto-accept mode).
	Allow Level = "allow"
	// Ask is never auto-approved: a person (or a grant) must approve.
	Ask Level = "ask"
	// Deny is refused in every mode.
	Deny Level = "deny"
)

func (l Level) rank() int {
	switch l {
	case Deny:
		return 2
	case Ask:
		return 1
	}
	return 0
}

// Verdict is the guard's decision on one command line.
type Verdict struct {
	// Verdict is allow, ask or deny.
	Verdict Level `json:"verdict"`
	// Reason says what was found, naming the dangerous part, e.g.
	// `recursive delete of the filesystem root "/" in: rm -rf /`.
	Reason string `json:"reason"`
	// Rule is the id of the rule that decided (see Rules).
	Rule string `json:"rule"`
	// Part is the simple command (or redirection) that decided, as
	// written; empty for allow.
	Part string `json:"part,omitempty"`
}

// Options is the context a command is judged in. Paths are absolute.
type Options struct {
	// Workspace is the workspace root. Empty means the process's working
	// directory.
	Workspace string
	// Cwd is where the command runs; empty means Workspace. Relative
	// paths (and "..") resolve against it.
	Cwd string
	// Home is the user's home directory (~, $HOME). Empty means the
	// process's home directory.
	Home string
	// Roots are extra writable roots (--add-dir).
	Roots []string
	// TempDirs are writable temp directories; nil means /tmp, /var/tmp
	// and $TMPDIR.
	TempDirs []string
	// RecentWrites are files the session wrote (absolute or relative to
	// Cwd); running one of them asks (case B19).
	RecentWrites []string
	// Undoable, when set, says that a delete of the absolute path abs can
	// be rewound (Zero's checkpoints record the files under it: it is
	// inside the workspace once symbolic links are resolved). A
	// recursive or glob delete whose every target it approves is then
	// RuleDeleteUndoable instead of delete.recursive or delete.files.
	Undoable func(abs string) bool
	// MaxDepth caps how deep nested code (bash -c, eval, heredocs) is
	// parsed; 0 means 5. Deeper code asks.
	MaxDepth int
}

// Check classifies command. It never runs anything.
func Check(command string, opts Options) Verdict {
	c := newChecker(opts)
	c.source(command, 0)
	c.finish()
	return c.verdict()
}

// Explain returns the verdict on command as JSON
// {"verdict","reason","rule"}, judged from the current directory and home,
// for `zero guard --json`. It never runs the command.
func Explain(command string) ([]byte, error) {
	v := Check(command, Options{})
	return json.Marshal(struct {
		Verdict Level  `json:"verdict"`
		Reason  string `json:"reason"`
		Rule    string `json:"rule"`
	}{v.Verdict, v.Reason, v.Rule})
}

// Unknown stands, inside a word returned by Parts, for text only known at
// run time ($VAR, $(cmd), items read by xargs). It never occurs in a real
// argument.
const Unknown = unknown

// Parts returns the words of every simple command command can run, in
// source order: each part of a list or pipeline, each substitution, the
// code of bash -c and eval, the command behind each wrapper (both
// "sudo go test" and "go test" are listed) and the commands run by xargs
// and find -exec. Quotes are removed; text known only at run time is
// Unknown. ok is false when the command does not parse or is too complex
// to follow fully; callers must then treat it as unknown code. The
// permission engine uses Parts to check that a command-prefix grant covers
// every part (issue 5: "go test" never approves "go test; rm -rf ~").
func Parts(command string, opts Options) (parts [][]string, ok bool) {
	c := newChecker(opts)
	c.source(command, 0)
	for _, f := range c.findings {
		if f.rule == RuleParseError || f.rule == RuleParseDepth {
			return c.parts, false
		}
	}
	return c.parts, true
}

// finding is one rule hit.
type finding struct {
	rule, reason, part string
}

// checker holds the state of one Check call.
type checker struct {
	opts     Options
	findings []finding
	// written are files this command line writes (redirects, tee, cp
	// destinations), cleaned and absolute.
	written map[string]bool
	// runs are scripts the command line runs, checked at the end against
	// written and Options.RecentWrites.
	runs []finding
	// steps counts classified commands and parsed bytes against
	// maxSteps; past it the line asks instead of being checked further.
	steps     int
	exhausted bool
	// parts collects every simple command's words for Parts.
	parts [][]string
	// realHome is Options.Home with symlinks resolved, once needed.
	realHome string
	// hypothetical is set while the arguments of an unknown command are
	// classified as if run (wrapped.go); they are not searched again.
	hypothetical bool
	// dotglob: the line turned on bash's dotglob (`shopt -s dotglob`),
	// so * matches names that start with a dot, .git among them.
	dotglob bool
}

// maxSteps bounds the work of one Check: nested code (eval $(eval ...))
// and find/xargs fan-out could otherwise grow without bound. One step is
// one classified command or one parsed byte of nested code.
const maxSteps = 1 << 18

// spend charges one step; it reports false once the budget is gone, after
// recording a finding that the line is too complex to check.
func (c *checker) spend(part string) bool {
	return c.spendN(stepsPerCommand, part)
}

// stepsPerCommand is the cost of classifying one command, in parsed-byte
// units: about 10,000 commands fit in one Check.
const stepsPerCommand = 25

func (c *checker) spendN(n int, part string) bool {
	c.steps += n
	if c.steps <= maxSteps {
		return true
	}
	if !c.exhausted {
		c.exhausted = true
		c.add(RuleParseDepth, "the command is too complex to check completely", clip(part))
	}
	return false
}

// level is one parsed piece of source: the top command or nested code.
type level struct {
	src   string
	depth int
	// upstream maps a pipeline stage to the stages before it.
	upstream map[*syntax.CallExpr][]*syntax.Stmt
	// stdin maps a command to a heredoc, here-string or < redirect.
	stdin map[*syntax.CallExpr]*syntax.Redirect
	// inner marks pipe nodes already flattened into an outer pipeline.
	inner map[*syntax.BinaryCmd]bool
}

// text returns the source text of n, or "" when its positions fall
// outside this level's source.
func (lv *level) text(n syntax.Node) string {
	if n == nil {
		return ""
	}
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(lv.src) || s > e {
		return ""
	}
	return lv.src[s:e]
}

func newChecker(opts Options) *checker {
	if opts.Workspace == "" {
		opts.Workspace, _ = os.Getwd()
	}
	if opts.Home == "" {
		opts.Home, _ = os.UserHomeDir()
	}
	if opts.Cwd == "" {
		opts.Cwd = opts.Workspace
	}
	if opts.TempDirs == nil {
		opts.TempDirs = []string{"/tmp", "/var/tmp"}
		if t := os.Getenv("TMPDIR"); t != "" {
			opts.TempDirs = append(opts.TempDirs, t)
		}
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 5
	}
	clean := func(p string) string {
		if p == "" {
			return ""
		}
		return filepath.Clean(p)
	}
	opts.Workspace, opts.Home, opts.Cwd = clean(opts.Workspace), clean(opts.Home), clean(opts.Cwd)
	return &checker{opts: opts, written: map[string]bool{}}
}

// add records a finding for rule.
func (c *checker) add(rule, reason, part string) {
	c.findings = append(c.findings, finding{rule: rule, reason: reason, part: part})
}

// source parses src and classifies everything it runs.
func (c *checker) source(src string, depth int) {
	if depth > c.opts.MaxDepth {
		c.add(RuleParseDepth, fmt.Sprintf("code nested more than %d levels deep", c.opts.MaxDepth), clip(src))
		return
	}
	if !c.spendN(len(src)+1, src) {
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		c.add(RuleParseError, "the command does not parse ("+err.Error()+")", clip(src))
		return
	}
	lv := &level{src: src, depth: depth, upstream: map[*syntax.CallExpr][]*syntax.Stmt{},
		stdin: map[*syntax.CallExpr]*syntax.Redirect{}, inner: map[*syntax.BinaryCmd]bool{}}
	c.walk(lv, f)
}

// walk visits every node of a parsed program in source order.
func (c *checker) walk(lv *level, root syntax.Node) {
	syntax.Walk(root, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok {
				for _, r := range n.Redirs {
					if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc || r.Op == syntax.RdrIn {
						lv.stdin[call] = r
					}
				}
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && !lv.inner[n] {
				stages := pipeStages(n, nil, lv.inner)
				for i, st := range stages {
					if call, ok := st.Cmd.(*syntax.CallExpr); ok {
						if _, seen := lv.upstream[call]; !seen {
							lv.upstream[call] = stages[:i]
						}
					}
				}
			}
		case *syntax.CallExpr:
			c.simple(lv, n)
		case *syntax.Redirect:
			c.redirect(lv, n)
		case *syntax.FuncDecl:
			c.forkBomb(lv, n)
		}
		return true
	})
}

// pipeStages appends a pipeline's stages, left to right, to out and marks
// the nested pipe nodes it flattened in inner (so the walk does not
// flatten them again).
func pipeStages(b *syntax.BinaryCmd, out []*syntax.Stmt, inner map[*syntax.BinaryCmd]bool) []*syntax.Stmt {
	for _, s := range []*syntax.Stmt{b.X, b.Y} {
		if s == nil {
			continue
		}
		if in, ok := s.Cmd.(*syntax.BinaryCmd); ok && (in.Op == syntax.Pipe || in.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
			inner[in] = true
			out = pipeStages(in, out, inner)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// finish turns recorded script runs into findings once every write of
// the line is known.
func (c *checker) finish() {
	recent := map[string]bool{}
	for _, p := range c.opts.RecentWrites {
		recent[c.resolve(p)] = true
	}
	for _, r := range c.runs {
		p := r.reason
		switch {
		case c.written[p]:
			c.add(RuleScriptRecent, fmt.Sprintf("runs %s, which this command writes", p), r.part)
		case recent[p]:
			c.add(RuleScriptRecent, fmt.Sprintf("runs %s, which this session wrote", p), r.part)
		}
	}
}

// verdict folds the findings: the most severe wins, the first of equals.
func (c *checker) verdict() Verdict {
	best := -1
	for i, f := range c.findings {
		r, b := 0, 0
		if best >= 0 {
			r, b = policy[f.rule].level.rank(), policy[c.findings[best].rule].level.rank()
		}
		// At one level an undoable delete yields to any other finding:
		// the verdict names it only when nothing else asks.
		if best < 0 || r > b || r == b && c.findings[best].rule == RuleDeleteUndoable && f.rule != RuleDeleteUndoable {
			best = i
		}
	}
	if best < 0 {
		return Verdict{Verdict: Allow, Reason: policy[RuleDefault].doc, Rule: RuleDefault}
	}
	f := c.findings[best]
	reason := f.reason
	if f.part != "" {
		reason += " in: " + f.part
	}
	return Verdict{Verdict: policy[f.rule].level, Reason: reason, Rule: f.rule, Part: f.part}
}

// clip shortens text quoted in a reason.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
