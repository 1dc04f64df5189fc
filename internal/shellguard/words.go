package shellguard

import (
	"os/user"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// unknown marks text only known at run time (a variable, a command
// substitution) inside an evaluated word. NUL cannot occur in a real
// argument, so a word holding it is never mistaken for a static one.
const unknown = "\x00"

// maxBraceFields caps brace expansion ({a,b}{c,d}...) so a crafted word
// cannot blow up; past it the word counts as unknown.
const maxBraceFields = 64

// arg is one command-line field after static evaluation.
type arg struct {
	// s is the value with quotes removed, escapes applied, ~ and $HOME
	// expanded and every run-time part replaced by unknown.
	s string
	// code is the value for use as shell code (bash -c, eval): like s,
	// but run-time parts keep their source text ($X, $(cmd)), so parsing
	// it again still sees them as run-time parts.
	code string
	// glob reports unquoted glob characters (* ? [).
	glob bool
	// subst reports a command or process substitution in the word.
	subst bool
	// proc reports a process substitution <(...) or >(...).
	proc bool
	// download reports a substitution that runs a downloader.
	download bool
	// userHome names the user when the word is ~name (or ~name/, ~name/*):
	// another user's home directory as a whole (see userHome).
	userHome string
	// tree, when set, stands for every path under a directory (items from
	// find, fed through xargs or -exec).
	tree *tree
}

// tree is "every path find prints under root".
type tree struct {
	root string
	// filtered reports tests (-name, -type, ...) that narrow the set.
	filtered bool
}

// known reports whether the whole value is static.
func (a arg) known() bool { return a.tree == nil && !strings.Contains(a.s, unknown) }

// literal returns an arg for a static string.
func literal(s string) arg { return arg{s: s, code: s} }

// fields evaluates one word into its fields (more than one only through
// brace expansion).
func (c *checker) fields(lv *level, w *syntax.Word) []arg {
	if w == nil {
		return nil
	}
	// SplitBraces rewrites the word; work on a copy so the tree that
	// syntax.Walk is visiting keeps only node types it knows.
	wc := *w
	w = &wc
	syntax.SplitBraces(w)
	alts := []arg{{}}
	for i, p := range w.Parts {
		alts = c.appendPart(lv, alts, p, i == 0)
		if len(alts) > maxBraceFields {
			s := unknown
			return []arg{{s: s, code: lv.text(w), subst: anySubst(alts)}}
		}
	}
	return alts
}

// word evaluates a word that is used whole (a redirect target): the
// first field, or an unknown arg when there is none.
func (c *checker) word(lv *level, w *syntax.Word) arg {
	fs := c.fields(lv, w)
	if len(fs) == 0 {
		return arg{s: unknown, code: unknown}
	}
	return fs[0]
}

func anySubst(as []arg) bool {
	for _, a := range as {
		if a.subst {
			return true
		}
	}
	return false
}

// appendPart appends one word part to every alternative.
func (c *checker) appendPart(lv *level, alts []arg, p syntax.WordPart, first bool) []arg {
	add := func(s, code string) {
		for i := range alts {
			alts[i].s += s
			alts[i].code += code
		}
	}
	switch p := p.(type) {
	case *syntax.Lit:
		v, glob := unescapeUnquoted(p.Value)
		if first {
			if u, ok := userHome(v); ok {
				for i := range alts {
					alts[i].userHome = u
				}
			}
			v = c.expandTilde(v)
		}
		add(v, v)
		if glob {
			for i := range alts {
				alts[i].glob = true
			}
		}
	case *syntax.SglQuoted:
		v := p.Value
		if p.Dollar {
			v = ansiC(v)
		}
		add(v, v)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			switch q := q.(type) {
			case *syntax.Lit:
				v := unescapeDouble(q.Value)
				add(v, v)
			case *syntax.ParamExp:
				v, ok := c.param(q)
				if ok {
					add(v, v)
				} else {
					add(unknown, lv.text(q))
				}
			default:
				add(unknown, lv.text(q))
				c.markSubst(alts, q)
			}
		}
	case *syntax.ParamExp:
		if v, ok := c.param(p); ok {
			add(v, v)
		} else {
			add(unknown, lv.text(p))
		}
	case *syntax.BraceExp:
		if p.Sequence {
			add(unknown, lv.text(p))
			return alts
		}
		var out []arg
		for _, e := range p.Elems {
			for _, ef := range c.fields(lv, e) {
				for _, a := range alts {
					out = append(out, arg{s: a.s + ef.s, code: a.code + ef.code, glob: a.glob || ef.glob,
						subst: a.subst || ef.subst, proc: a.proc || ef.proc, download: a.download || ef.download})
				}
				if len(out) > maxBraceFields {
					return out
				}
			}
		}
		if len(out) == 0 {
			return alts
		}
		return out
	case *syntax.ExtGlob:
		add("*", lv.text(p))
		for i := range alts {
			alts[i].glob = true
		}
	default:
		add(unknown, lv.text(p))
		c.markSubst(alts, p)
	}
	return alts
}

// markSubst flags alternatives holding a command or process substitution
// and whether that substitution downloads.
func (c *checker) markSubst(alts []arg, n syntax.Node) {
	var subst, proc, dl bool
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			subst = true
		case *syntax.ProcSubst:
			subst, proc = true, true
		case *syntax.CallExpr:
			if len(n.Args) > 0 && downloaders[commandBase(n.Args[0].Lit())] {
				dl = true
			}
		}
		return true
	})
	for i := range alts {
		alts[i].subst = alts[i].subst || subst
		alts[i].proc = alts[i].proc || proc
		alts[i].download = alts[i].download || dl
	}
}

// param evaluates the parameter expansions the guard can know: $HOME and
// $PWD in their plain forms.
func (c *checker) param(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Index != nil ||
		p.Length || p.Excl || p.Width || p.IsSet || p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	switch p.Param.Value {
	case "HOME":
		return c.opts.Home, c.opts.Home != ""
	case "PWD":
		return c.opts.Cwd, c.opts.Cwd != ""
	}
	return "", false
}

// expandTilde expands a leading ~ or ~/ to the home directory.
func (c *checker) expandTilde(v string) string {
	if c.opts.Home == "" || !strings.HasPrefix(v, "~") {
		return v
	}
	if v == "~" || strings.HasPrefix(v, "~/") {
		return c.opts.Home + v[1:]
	}
	if v == "~+" || strings.HasPrefix(v, "~+/") {
		return c.opts.Cwd + v[2:]
	}
	// ~name: another user's home, as the shell expands it; an unknown
	// user stays literal, as in the shell.
	name, rest, _ := strings.Cut(v[1:], "/")
	if name != "" && name != "-" {
		if u, err := user.Lookup(name); err == nil && u.HomeDir != "" {
			if rest == "" {
				return u.HomeDir
			}
			return u.HomeDir + "/" + rest
		}
	}
	return v
}

// unescapeUnquoted removes backslash escapes from an unquoted literal and
// reports unescaped glob characters.
func unescapeUnquoted(s string) (string, bool) {
	if !strings.ContainsAny(s, `\*?[`) {
		return s, false
	}
	var b strings.Builder
	glob := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '\\' && i+1 < len(s) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		if ch == '*' || ch == '?' || ch == '[' {
			glob = true
		}
		b.WriteByte(ch)
	}
	return b.String(), glob
}

// unescapeDouble applies the escapes that work inside double quotes.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the escapes of a $'...' string (bash manual, "ANSI-C
// Quoting"), so $'\x72\x6d' is seen as rm.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch ch := s[i]; ch {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[ch]
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(ch)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if ch == 'x' {
				b.WriteByte(byte(n))
			} else if utf8.ValidRune(rune(n)) {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// shellQuote quotes s for re-parsing as one shell word.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	if !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>(){}[]*?!#~=%") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// commandBase returns the name a command is looked up by: the last path
// element, with a version suffix of common interpreters removed
// (python3.12 → python).
func commandBase(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	for _, p := range []string{"python", "pypy", "perl", "ruby", "php", "node", "lua"} {
		if strings.HasPrefix(s, p) && strings.Trim(s[len(p):], "0123456789.") == "" {
			return p
		}
	}
	if strings.HasPrefix(s, "mkfs.") || strings.HasPrefix(s, "mkfs_") {
		return "mkfs"
	}
	return s
}
