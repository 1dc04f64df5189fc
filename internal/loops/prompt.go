package loops

import (
	"fmt"
	"strings"
	"time"
)

// promptRows is how many of the latest state rows a wake's prompt carries
// (the scorecard always): the agent reads state.md itself for more.
const promptRows = 5

// Prompt builds wake n's prompt from spec.md, rules.md, state.md and the
// last wake's gate results. Each wake is a fresh session: this prompt is
// all the agent knows of the loop.
func (l *Loop) Prompt(cfg *Config, n int, now time.Time) (string, error) {
	spec, err := l.read(SpecFile)
	if err != nil {
		return "", err
	}
	rules, err := l.read(RulesFile)
	if err != nil {
		return "", err
	}
	st, err := l.State()
	if err != nil {
		return "", err
	}
	led, err := l.Ledger()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "You are wake %d of the loop %q, running unattended: no one will answer a question. Do one iteration of the spec below, then bank a state row.\n\n", n, l.Name)
	section(&b, "Spec ("+l.Path(SpecFile)+")", string(spec))
	section(&b, "Rules ("+l.Path(RulesFile)+")", string(rules))
	var state strings.Builder
	state.WriteString(st.Scorecard)
	rows := st.Last(promptRows)
	if len(rows) < len(st.Rows) {
		fmt.Fprintf(&state, "\n(%d earlier rows left out)\n\n", len(st.Rows)-len(rows))
	}
	for _, r := range rows {
		state.WriteString(r.Text)
	}
	section(&b, "State ("+l.Path(StateFile)+")", state.String())
	gates := "No wake has run the gates yet."
	if len(led.LastGates) > 0 {
		gates = "Measured by the harness after the last wake:\n" + Summary(led.LastGates)
	}
	if len(cfg.Gates) == 0 {
		gates = "This loop has no gates."
	}
	section(&b, "Gates", gates)
	fmt.Fprintf(&b, `## This wake

When you are done, append exactly one row to the end of %s, changing nothing already in it. The row starts with the line
## Wake %d — %s
says what you did and what you measured (headings inside it start with ### or deeper), and its last line is
NEXT ACTION: <the one next step for the next wake>
The harness runs the gates after you and records their results; never claim a gate passed.
`, l.Path(StateFile), n, now.UTC().Format(time.RFC3339))
	return b.String(), nil
}

func section(b *strings.Builder, title, body string) {
	body = strings.TrimSpace(body)
	if body == "" {
		body = "(empty)"
	}
	fmt.Fprintf(b, "## %s\n\n%s\n\n", title, body)
}
