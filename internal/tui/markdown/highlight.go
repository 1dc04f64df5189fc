package markdown

import (
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/tui/style"
)

// lexicon is what the highlighter knows of one language.
type lexicon struct {
	keywords map[string]bool
	comment  string // line comment opener
}

var (
	lexOnce  sync.Once
	lexicons map[string]lexicon
)

// loadLexicons builds the keyword tables on the first fenced block, so a
// session without code pays nothing at start-up.
func loadLexicons() {
	mk := func(comment, words string) lexicon {
		l := lexicon{keywords: map[string]bool{}, comment: comment}
		for _, w := range strings.Fields(words) {
			l.keywords[w] = true
		}
		return l
	}
	goLex := mk("//", "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false")
	py := mk("#", "and as assert async await break class continue def del elif else except finally for from global if import in is lambda None nonlocal not or pass raise return True False try while with yield")
	js := mk("//", "async await break case catch class const continue default delete do else export extends finally for function if import in instanceof let new null return super switch this throw try typeof undefined var void while yield true false interface type")
	rs := mk("//", "as async await break const continue crate else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while true false")
	sh := mk("#", "if then else elif fi for while do done case esac function in return export local set")
	c := mk("//", "auto break case char const continue default do double else enum extern float for goto if int long register return short signed sizeof static struct switch typedef union unsigned void volatile while class public private protected template namespace new delete true false null")
	lexicons = map[string]lexicon{
		"go": goLex, "golang": goLex,
		"python": py, "py": py,
		"js": js, "javascript": js, "ts": js, "typescript": js, "tsx": js, "jsx": js,
		"rust": rs, "rs": rs,
		"sh": sh, "bash": sh, "shell": sh, "zsh": sh, "console": sh,
		"c": c, "cpp": c, "c++": c, "java": c, "h": c,
	}
}

// Highlight styles one sanitised line of code in lang: keywords, strings,
// numbers and line comments. Unknown languages come back unstyled.
func Highlight(lang, line string) string {
	lexOnce.Do(loadLexicons)
	lex, ok := lexicons[strings.ToLower(lang)]
	if !ok {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case lex.comment != "" && strings.HasPrefix(line[i:], lex.comment):
			b.WriteString(style.Comment.Render(line[i:]))
			return b.String()
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(line) {
				j = len(line) - 1
			}
			b.WriteString(style.String.Render(line[i : j+1]))
			i = j + 1
		case isIdentStart(c):
			j := i
			for j < len(line) && (isIdentStart(line[j]) || line[j] >= '0' && line[j] <= '9') {
				j++
			}
			if w := line[i:j]; lex.keywords[w] {
				b.WriteString(style.Keyword.Render(w))
			} else {
				b.WriteString(w)
			}
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && (isAlnum(line[j]) || line[j] == '.') {
				j++
			}
			b.WriteString(style.Number.Render(line[i:j]))
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
