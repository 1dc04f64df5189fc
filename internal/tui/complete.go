package tui

import (
	"context"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// Tab completes what is being typed: a slash command's name, then the
// argument of /resume (session ids), /model (model names) and /provider
// (profile names). Arguments
// come from the backend off the UI goroutine: the first Tab asks for them
// (argsMsg) and completes when they arrive, if the line still ends in the
// same word.

// argsMsg carries the candidates for a command's argument.
type argsMsg struct {
	line  string // the editor's value when Tab was pressed
	items []string
}

// complete handles Tab.
func (m *Model) complete() tea.Cmd {
	v := m.ed.Value()
	if m.completeMention(v) {
		return nil
	}
	if !strings.HasPrefix(v, "/") || strings.Contains(v, "\n") {
		return nil
	}
	name, arg, hasArg := strings.Cut(v, " ")
	if !hasArg {
		m.completeWith(v, "", m.allNames())
		return nil
	}
	if strings.Contains(arg, " ") {
		return nil
	}
	var list func(context.Context, Backend) ([]string, error)
	switch name {
	case "/resume":
		list = func(ctx context.Context, b Backend) ([]string, error) {
			ss, err := b.Sessions(ctx)
			ids := make([]string, len(ss))
			for i, s := range ss {
				ids[i] = s.ID
			}
			return ids, err
		}
	case "/model":
		list = func(ctx context.Context, b Backend) ([]string, error) { return b.Models(ctx) }
	case "/provider":
		list = func(ctx context.Context, b Backend) ([]string, error) {
			if p, ok := b.(providerSwitcher); ok {
				return p.ProviderNames(), nil
			}
			return nil, nil
		}
	default:
		return nil
	}
	b := m.backend
	return func() tea.Msg {
		items, err := list(context.Background(), b)
		if err != nil {
			return nil
		}
		return argsMsg{line: v, items: items}
	}
}

// completeArgs completes an argument once its candidates arrived, unless
// the line changed since Tab.
func (m *Model) completeArgs(msg argsMsg) {
	if m.ed.Value() != msg.line {
		return
	}
	name, arg, _ := strings.Cut(msg.line, " ")
	m.completeWith(arg, name+" ", msg.items)
}

// completeWith completes word (the text after head) to the longest common
// prefix of the candidates it starts; a single match gets a trailing
// space, several are listed in the hint.
func (m *Model) completeWith(word, head string, candidates []string) {
	var matches []string
	for _, c := range candidates {
		if strings.HasPrefix(c, word) {
			matches = append(matches, c)
		}
	}
	switch len(matches) {
	case 0:
		if head != "" {
			m.hint = "no match for " + word
		}
	case 1:
		m.ed.SetValue(head + matches[0] + " ")
		if head == "" {
			m.hint = m.customHint(matches[0])
		}
	default:
		m.ed.SetValue(head + commonPrefix(matches))
		shown := matches
		if len(shown) > 8 {
			shown = append(shown[:8:8], "…")
		}
		m.hint = strings.Join(shown, " ")
	}
}

// completeOnEnter completes a partial command that matches exactly one
// command (/he → /help) instead of submitting it; it reports whether it did.
func (m *Model) completeOnEnter() bool {
	v := strings.TrimSpace(m.ed.Value())
	if !strings.HasPrefix(v, "/") || strings.ContainsAny(v, " \n") {
		return false
	}
	var matches []string
	for _, n := range m.allNames() {
		if n == v {
			return false
		}
		if strings.HasPrefix(n, v) {
			matches = append(matches, n)
		}
	}
	if len(matches) != 1 {
		return false
	}
	m.ed.SetValue(matches[0])
	return true
}

// customHint is what a custom command takes and does, shown when Tab
// completes its name ("" for a built-in).
func (m *Model) customHint(name string) string {
	for _, c := range m.custom() {
		if "/"+c.Name == name {
			return strings.TrimSpace(c.Hint + "  " + sanitize.Line(c.Help))
		}
	}
	return ""
}

func commonPrefix(s []string) string {
	p := s[0]
	for _, x := range s[1:] {
		for !strings.HasPrefix(x, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// suggest returns the candidate closest to word by edit distance, or ""
// when none is within half the word's length.
func suggest(word string, candidates []string) string {
	type scored struct {
		s string
		d int
	}
	var all []scored
	for _, c := range candidates {
		all = append(all, scored{c, editDistance(word, c)})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].d < all[j].d })
	if len(all) == 0 || all[0].d > max(2, len([]rune(word))/2) {
		return ""
	}
	return all[0].s
}

// editDistance is the Levenshtein distance in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
