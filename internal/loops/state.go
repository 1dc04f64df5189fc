package loops

import (
	"bytes"
	"fmt"
	"strings"
)

// State is state.md read: the scorecard (everything before the first
// row) and the rows, oldest first. A row starts at a line that begins
// with "## " and runs to the next one.
type State struct {
	Scorecard string
	Rows      []Row
}

// Row is one wake's entry in state.md.
type Row struct {
	// Title is the heading line without "## ".
	Title string
	// Text is the whole row, heading included.
	Text string
	// NextAction is what its last non-blank line says after
	// "NEXT ACTION:" ("" when the row does not end with one).
	NextAction string
}

// ParseState reads state.md. It never fails: text that is no row is the
// scorecard.
func ParseState(data []byte) State {
	var st State
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	start := -1 // offset of the current row's heading
	var sc strings.Builder
	off := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			if start >= 0 {
				st.Rows = append(st.Rows, newRow(text[start:off]))
			}
			start = off
		} else if start < 0 {
			sc.WriteString(line)
		}
		off += len(line)
	}
	if start >= 0 {
		st.Rows = append(st.Rows, newRow(text[start:]))
	}
	st.Scorecard = sc.String()
	return st
}

func newRow(text string) Row {
	title, _, _ := strings.Cut(text, "\n")
	r := Row{Title: strings.TrimSpace(strings.TrimPrefix(title, "## ")), Text: text}
	lines := strings.Split(strings.TrimRight(text, " \t\n"), "\n")
	if len(lines) > 1 {
		r.NextAction, _ = nextAction(lines[len(lines)-1])
	}
	return r
}

// nextAction reads a "NEXT ACTION: …" line, allowing the markdown a model
// wraps it in ("- ", "**NEXT ACTION:**", "NEXT ACTION —").
func nextAction(line string) (string, bool) {
	s := strings.TrimSpace(line)
	s = strings.TrimLeft(s, "-*>_ ")
	const key = "NEXT ACTION"
	if len(s) < len(key) || !strings.EqualFold(s[:len(key)], key) {
		return "", false
	}
	s = strings.TrimLeft(s[len(key):], "*_ ")
	if !strings.HasPrefix(s, ":") && !strings.HasPrefix(s, "—") && !strings.HasPrefix(s, "-") {
		return "", false
	}
	s = strings.TrimLeft(s, ":—- ")
	s = strings.TrimSpace(strings.Trim(s, "*_"))
	return s, s != ""
}

// Last returns the last n rows (all when n is more).
func (st State) Last(n int) []Row {
	if n < 0 || n >= len(st.Rows) {
		return st.Rows
	}
	return st.Rows[len(st.Rows)-n:]
}

// NextAction is the latest row's NEXT ACTION ("" when none).
func (st State) NextAction() string {
	if len(st.Rows) == 0 {
		return ""
	}
	return st.Rows[len(st.Rows)-1].NextAction
}

// CheckContract holds one wake's change to state.md (before → after) to
// the contract and returns what it broke ("" when nothing). state.md is
// append-only whatever the contract says: a wake that rewrote earlier
// text broke it.
func CheckContract(c Contract, wake int, before, after []byte) string {
	if !bytes.HasPrefix(after, before) {
		return fmt.Sprintf("wake %d changed or removed earlier text of state.md, which is append-only", wake)
	}
	// text appended with no heading of its own extends the last row:
	// it is no new row
	rows := ParseState(after).Rows
	rows = rows[min(len(rows), len(ParseState(before).Rows)):]
	if len(rows) == 0 {
		if c.RequireStateAppend {
			return fmt.Sprintf("wake %d banked no state row in state.md (a new \"## \" heading ending with a NEXT ACTION: line)", wake)
		}
		return ""
	}
	if c.RequireNextAction {
		last := rows[len(rows)-1]
		if last.NextAction == "" {
			return fmt.Sprintf("wake %d's state row %q does not end with a NEXT ACTION: line", wake, last.Title)
		}
	}
	return ""
}
