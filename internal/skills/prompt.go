package skills

import (
	"fmt"
	"sort"
	"strings"
)

// Budget is the system prompt's share for the skills listing at a context
// window of window tokens: about 1% of the window (4 bytes a token),
// between 400 bytes and 8 KB; 4 KB when the window is unknown.
func Budget(window int) int {
	if window <= 0 {
		return 4096
	}
	return min(max(window*4/100, 400), 8192)
}

// maxListed caps one description in the listing (the skill tool gives
// the whole of it).
const maxListed = 240

// Listing is the system prompt's section on skills: how to use them and
// one line per skill (name: description), within budget bytes. When not
// all fit, it lists a ranked subset — the project's before the user's (the
// skills nearest the work), in discovery order — and says how many more
// the skill tool's search finds. "" when there are no skills.
func (s *Set) Listing(budget int) string {
	text, _ := s.ListingCount(budget)
	return text
}

// ListingCount is Listing and how many skills it lists.
func (s *Set) ListingCount(budget int) (string, int) {
	if s.Len() == 0 {
		return "", 0
	}
	head := "# Skills\nSkills are instructions for particular tasks. When a task matches one, call the skill tool with its name first and follow what it returns.\n"
	var lines []string
	used := len(head)
	listed := 0
	for _, sk := range ranked(s.Skills) {
		line := "- " + sk.Name + ": " + cut(sk.Description, maxListed) + "\n"
		if used+len(line) > budget-len(moreLine(len(s.Skills))) {
			continue
		}
		lines = append(lines, line)
		used += len(line)
		listed++
	}
	out := head + strings.Join(lines, "")
	if listed < len(s.Skills) {
		out += moreLine(len(s.Skills) - listed)
	}
	return strings.TrimRight(out, "\n"), listed
}

func moreLine(n int) string {
	return fmt.Sprintf("- (%d more: call skill with {\"query\": \"words\"} to search them)\n", n)
}

// ranked is skills in listing order: project skills first, then the
// user's, each in discovery order.
func ranked(all []Skill) []Skill {
	out := append([]Skill(nil), all...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Scope == Project && out[j].Scope != Project })
	return out
}

// Search returns the skills whose name or description has the most of
// query's words (case-insensitive), best first, at most limit.
func (s *Set) Search(query string, limit int) []Skill {
	words := strings.Fields(strings.ToLower(query))
	type hit struct {
		sk    Skill
		score int
	}
	var hits []hit
	for _, sk := range s.Skills {
		name, text := strings.ToLower(sk.Name), strings.ToLower(sk.Description)
		score := 0
		for _, w := range words {
			if strings.Contains(name, w) {
				score += 3
			}
			if strings.Contains(text, w) {
				score++
			}
		}
		if score > 0 || len(words) == 0 {
			hits = append(hits, hit{sk, score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	var out []Skill
	for _, h := range hits {
		if len(out) == limit {
			break
		}
		out = append(out, h.sk)
	}
	return out
}

// Report lists the skills for /skills and `zero skills list`: name,
// scope, description, folder, then the notes on what was skipped.
func (s *Set) Report() string {
	var b strings.Builder
	if s.Len() == 0 {
		b.WriteString("no skills (folders read: .zero/skills, .agents/skills, .claude/skills in the project up to the repository root; ~/.config/zero/skills, ~/.agents/skills, ~/.claude/skills)\n")
	}
	for _, sk := range s.Skills {
		fmt.Fprintf(&b, "/%s  (%s)  %s\n    %s\n", sk.Name, sk.Scope, cut(sk.Description, maxListed), sk.Dir)
	}
	for _, n := range s.Notes {
		b.WriteString("! " + n + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
