package commands

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Env is what expansion needs from outside: running a command line (the
// caller applies the shell guard, the permission gate and the sandbox,
// and returns an error for a refusal or a non-zero exit) and reading a
// file of the workspace (confined, secrets refused).
type Env struct {
	Shell    func(ctx context.Context, command string) (string, error)
	ReadFile func(path string) (string, error)
}

// Error is an expansion that failed: the command is not run.
type Error struct {
	Command string
	Err     error
}

func (e *Error) Error() string { return fmt.Sprintf("/%s: %v", e.Command, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

var (
	// positional is $1…$N.
	positional = regexp.MustCompile(`\$([1-9][0-9]*)`)
	// mdShell is Claude Code's !`command`.
	mdShell = regexp.MustCompile("!`([^`\n]+)`")
	// mdFile is @path at the start of a word, path without spaces; a
	// trailing sentence mark is not part of it.
	mdFile = regexp.MustCompile(`(^|[\s(])@([A-Za-z0-9_./~-][^\s]*[^\s.,;:!?)])`)
	// tomlFile is Gemini CLI's @{path}.
	tomlFile = regexp.MustCompile(`@\{([^{}\s]+)\}`)
)

// Expand is the prompt command c makes with args (the text after its
// name). Markdown: $ARGUMENTS and $1…$N are replaced (args appended
// after the template when it has neither, as Claude Code does), each
// !`cmd` is replaced by its output, and each @path naming a readable file
// gets that file's text attached. TOML: {{args}} (or args appended), then
// !{cmd} and @{path}. Inside a command line the arguments are quoted for
// the shell, and text the arguments bring is never run. A command line
// that is refused or fails stops the expansion with an *Error.
func Expand(ctx context.Context, c Command, args string, env Env) (string, error) {
	args = strings.TrimSpace(args)
	var out string
	var err error
	switch c.Format {
	case TOML:
		out, err = expandTOML(ctx, c.Template, args, env)
	default:
		out, err = expandMarkdown(ctx, c.Template, args, env)
	}
	if err != nil {
		return "", &Error{Command: c.Name, Err: err}
	}
	return strings.TrimSpace(out), nil
}

func expandMarkdown(ctx context.Context, tmpl, args string, env Env) (string, error) {
	words := Split(args)
	used := strings.Contains(tmpl, "$ARGUMENTS") || positional.MatchString(tmpl)
	sub := func(text string, quote bool) string {
		q := func(s string) string { return s }
		if quote {
			q = shellQuote
		}
		text = strings.ReplaceAll(text, "$ARGUMENTS", q(args))
		return positional.ReplaceAllStringFunc(text, func(m string) string {
			n, _ := strconv.Atoi(m[1:])
			if n <= len(words) {
				return q(words[n-1])
			}
			return ""
		})
	}
	var spans []span
	for _, m := range mdShell.FindAllStringSubmatchIndex(tmpl, -1) {
		spans = append(spans, span{m[0], m[1], m[2], m[3]})
	}
	out, err := runSpans(ctx, tmpl, spans, sub, env)
	if err != nil {
		return "", err
	}
	if !used && args != "" {
		out = strings.TrimRight(out, "\n") + "\n\nARGUMENTS: " + args
	}
	return attach(out, env), nil
}

func expandTOML(ctx context.Context, tmpl, args string, env Env) (string, error) {
	sub := func(text string, quote bool) string {
		if quote {
			return strings.ReplaceAll(text, "{{args}}", shellQuote(args))
		}
		return strings.ReplaceAll(text, "{{args}}", args)
	}
	out, err := runSpans(ctx, tmpl, tomlSpans(tmpl), sub, env)
	if err != nil {
		return "", err
	}
	if !strings.Contains(tmpl, "{{args}}") && args != "" {
		out = strings.TrimRight(out, "\n") + "\n\n" + args
	}
	if env.ReadFile == nil {
		return out, nil
	}
	var ferr error
	out = tomlFile.ReplaceAllStringFunc(out, func(m string) string {
		p := tomlFile.FindStringSubmatch(m)[1]
		text, err := env.ReadFile(p)
		if err != nil {
			if ferr == nil {
				ferr = fmt.Errorf("@{%s}: %v", p, err)
			}
			return m
		}
		return strings.TrimRight(text, "\n")
	})
	return out, ferr
}

// span is a command line in a template: [start, end) the whole of it,
// [in, inEnd) the command.
type span struct{ start, end, in, inEnd int }

// tomlSpans finds Gemini CLI's !{command}, braces balanced inside.
func tomlSpans(s string) []span {
	var out []span
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '!' || s[i+1] != '{' {
			continue
		}
		depth := 0
		for j := i + 1; j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				if depth--; depth == 0 {
					out = append(out, span{i, j + 1, i + 2, j})
					i = j
					break
				}
			}
		}
	}
	return out
}

// runSpans rebuilds tmpl: sub(text, false) outside the spans, and each
// span replaced by the output of its command, the command being
// sub(command, true). The spans are found in the template before any
// argument is placed, so text the arguments bring is never run.
func runSpans(ctx context.Context, tmpl string, spans []span, sub func(string, bool) string, env Env) (string, error) {
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(sub(tmpl[last:sp.start], false))
		line := strings.TrimSpace(sub(tmpl[sp.in:sp.inEnd], true))
		if env.Shell == nil {
			return "", fmt.Errorf("%s: running commands is not available here", tmpl[sp.start:sp.end])
		}
		text, err := env.Shell(ctx, line)
		if err != nil {
			return "", fmt.Errorf("%s: %v", tmpl[sp.start:sp.end], err)
		}
		b.WriteString(strings.TrimRight(text, "\n"))
		last = sp.end
	}
	b.WriteString(sub(tmpl[last:], false))
	return b.String(), nil
}

// attach appends the text of each file an @path names (once each); a
// path that is not a readable file (an e-mail address, a handle) stays
// as written.
func attach(s string, env Env) string {
	if env.ReadFile == nil {
		return s
	}
	var files []string
	seen := map[string]bool{}
	for _, m := range mdFile.FindAllStringSubmatch(s, -1) {
		p := m[2]
		if seen[p] {
			continue
		}
		seen[p] = true
		text, err := env.ReadFile(p)
		if err != nil {
			continue
		}
		files = append(files, fmt.Sprintf("<file path=%q>\n%s\n</file>", p, strings.TrimRight(text, "\n")))
	}
	if len(files) == 0 {
		return s
	}
	return strings.TrimRight(s, "\n") + "\n\nFiles the command names:\n" + strings.Join(files, "\n")
}

// shellQuote quotes s as one POSIX shell word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Split cuts args into words at spaces, keeping "double" or 'single'
// quoted words whole (quotes removed), for $1…$N.
func Split(args string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, r := range args {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
