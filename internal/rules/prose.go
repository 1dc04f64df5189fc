package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// ProseFile is the project's prose rules, projected into the system
// prompt every turn (issue 5, acceptance 5).
const ProseFile = "ZERO.md"

// DefaultProseBudget is the byte budget of the projected ZERO.md block.
const DefaultProseBudget = 4 << 10

// InstructionBudget is the byte budget of all instruction files together
// (ZERO.md, AGENTS.md, CLAUDE.md and their imports: internal/instructions).
const InstructionBudget = 4 * DefaultProseBudget

// ansiEscape matches terminal escape sequences: CSI (ESC [ ... final),
// OSC (ESC ] ... BEL or ESC \), and two-byte escapes.
var ansiEscape = lazyregexp.New(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]`)

// Sanitize removes what must never reach the model or the terminal from
// project prose: terminal escape sequences, control characters other
// than newline and tab, and invisible or direction-changing characters
// (zero-width spaces and joiners, bidi embeddings and isolates, the BOM,
// Unicode tag characters used to hide instructions). Invalid UTF-8 is
// dropped. CRLF becomes LF.
func Sanitize(s string) string {
	s = ansiEscape.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		case invisible(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// invisible reports format and invisible characters: Unicode category Cf
// (zero-width, bidi controls, BOM, tag characters) and the variation
// selectors.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef ||
		r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0 // Hangul fillers render as blanks
}

// Project returns ZERO.md prose ready for the system prompt: sanitized,
// trimmed, and cut to budget bytes (0 means DefaultProseBudget) on a line
// boundary where possible, with a marker saying how to read the rest.
// Empty prose gives "".
func Project(prose string, budget int) string {
	if budget <= 0 {
		budget = DefaultProseBudget
	}
	s := strings.TrimSpace(Sanitize(prose))
	if len(s) <= budget {
		return s
	}
	marker := fmt.Sprintf("\n[ZERO.md cut at %d of %d bytes; read_file ZERO.md for the rest]", budget, len(s))
	cut := budget - len(marker)
	if cut <= 0 { // no room for the marker: cut hard
		cut, marker = budget, ""
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if nl := strings.LastIndexByte(s[:cut], '\n'); nl > cut/2 {
		cut = nl
	}
	return s[:cut] + marker
}

// LoadProse reads workspace/ZERO.md; a missing file is "".
func LoadProse(workspace string) (string, error) {
	b, err := os.ReadFile(filepath.Join(workspace, ProseFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return string(b), err
}

// AddProse appends one rule line ("- text") to workspace/ZERO.md for
// `zero rules add "text"`, creating the file with a heading.
func AddProse(workspace, text string) error {
	text = strings.TrimSpace(Sanitize(text))
	if text == "" {
		return errors.New("nothing to add: the rule text is empty")
	}
	path := filepath.Join(workspace, ProseFile)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	body := string(old)
	if body == "" {
		body = "# Project rules for Zero\n\n"
	} else if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	body += "- " + strings.ReplaceAll(text, "\n", " ") + "\n"
	return os.WriteFile(path, []byte(body), 0o644)
}

// starterRules is what `zero rules init` writes.
const starterRules = `{
  // Rules are checked on every tool call after the shell guard.
  // on: command | edit | tool; action: allow | rewrite | confirm | block.
  // match: a glob (* any text) or /regex/. ~/.zero/rules.json wins on the same id.
  "rules": [
    {"id": "confirm-migrations", "on": "edit", "match": "**/migrations/**", "action": "confirm",
     "reason": "database migrations are reviewed by a person"}
  ]
}
`

// Init writes a starter workspace/.zero/rules.json for `zero rules init`;
// an existing file is left alone and reported.
func Init(workspace string) (string, error) {
	path := filepath.Join(workspace, ProjectFile)
	if _, err := os.Stat(path); err == nil {
		return path, fmt.Errorf("%s already exists", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return path, err
	}
	return path, os.WriteFile(path, []byte(starterRules), 0o644)
}

// Doctor checks the rules files and ZERO.md for `zero rules doctor` and
// returns one line per finding ("" problems means healthy).
func Doctor(workspace, home string) []string {
	var out []string
	for _, p := range []string{filepath.Join(home, UserFile), filepath.Join(workspace, ProjectFile)} {
		if _, err := ReadFile(p); err != nil {
			out = append(out, err.Error())
		}
	}
	prose, err := LoadProse(workspace)
	if err != nil {
		out = append(out, err.Error())
	}
	if clean := Sanitize(prose); clean != strings.ReplaceAll(prose, "\r\n", "\n") {
		out = append(out, ProseFile+" holds escape sequences or invisible characters; they are stripped before the model sees it")
	}
	if n := len(Sanitize(prose)); n > InstructionBudget {
		out = append(out, fmt.Sprintf("%s is %d bytes; with the other instruction files, only the first %d reach the model each turn", ProseFile, n, InstructionBudget))
	}
	return out
}
