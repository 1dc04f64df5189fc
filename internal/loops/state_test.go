package loops

import (
	"strings"
	"testing"
)

const scorecard = "# State\n\nScorecard: p99 = 120 ms\n\n"

func TestParseStateReadsScorecardRowsAndNextAction(t *testing.T) {
	st := ParseState([]byte(scorecard +
		"## Wake 1 — 2026-01-01\nprofiled\nNEXT ACTION: cache the parser\n\n" +
		"## Wake 2 — 2026-01-02\r\ncached it\r\n- **NEXT ACTION:** measure again\r\n" +
		"## Wake 3\nno ending\n"))
	if st.Scorecard != scorecard {
		t.Fatalf("scorecard %q", st.Scorecard)
	}
	if len(st.Rows) != 3 {
		t.Fatalf("rows %+v", st.Rows)
	}
	want := []struct{ title, next string }{
		{"Wake 1 — 2026-01-01", "cache the parser"},
		{"Wake 2 — 2026-01-02", "measure again"},
		{"Wake 3", ""},
	}
	for i, w := range want {
		if st.Rows[i].Title != w.title || st.Rows[i].NextAction != w.next {
			t.Errorf("row %d: %q next %q, want %q next %q", i, st.Rows[i].Title, st.Rows[i].NextAction, w.title, w.next)
		}
	}
	if got := st.Last(2); len(got) != 2 || got[0].Title != "Wake 2 — 2026-01-02" {
		t.Fatalf("last 2: %+v", got)
	}
	if st.NextAction() != "" {
		t.Fatalf("latest next action %q", st.NextAction())
	}
}

func TestContractHoldsEachWakesStateRow(t *testing.T) {
	both := Contract{RequireStateAppend: true, RequireNextAction: true}
	base := scorecard + "## Wake 1\ndid a\nNEXT ACTION: b\n"
	tests := []struct {
		name   string
		c      Contract
		before string
		after  string
		want   string // substring of the violation; "" kept
	}{
		{"row with next action keeps it", both, base, base + "## Wake 2\ndid b\nNEXT ACTION: c\n", ""},
		{"first row into a fresh file", both, scorecard, scorecard + "## Wake 1\nx\nNEXT ACTION: y", ""},
		{"no row appended", both, base, base, "banked no state row"},
		{"text without a heading is no row", both, base, base + "more notes\nNEXT ACTION: c\n", "banked no state row"},
		{"heading glued to the last line is no row", both, strings.TrimSuffix(base, "\n"), base[:len(base)-1] + "## Wake 2\nNEXT ACTION: c\n", "banked no state row"},
		{"row without next action", both, base, base + "## Wake 2\ndid b\n", `"Wake 2" does not end with a NEXT ACTION`},
		{"next action not last", both, base, base + "## Wake 2\nNEXT ACTION: c\nthen more\n", "does not end with a NEXT ACTION"},
		{"rewriting earlier rows", both, base, scorecard + "## Wake 1\nrewritten\nNEXT ACTION: b\n## Wake 2\nNEXT ACTION: c\n", "append-only"},
		{"truncating", both, base, scorecard, "append-only"},
		{"no row allowed when not required", Contract{}, base, base, ""},
		{"next action not required", Contract{RequireStateAppend: true}, base, base + "## Wake 2\ndid b\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckContract(tt.c, 2, []byte(tt.before), []byte(tt.after))
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Fatalf("violation %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzParseState(f *testing.F) {
	f.Add([]byte(scorecard + "## Wake 1\nx\nNEXT ACTION: y\n"))
	f.Add([]byte("## \n**NEXT ACTION**: z\r\n## a"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := ParseState(data)
		// the scorecard and the rows are the file, in order
		var sb strings.Builder
		sb.WriteString(st.Scorecard)
		for _, r := range st.Rows {
			if !strings.HasPrefix(r.Text, "## ") {
				t.Fatalf("row %q does not start with a heading", r.Text)
			}
			sb.WriteString(r.Text)
		}
		if want := strings.ReplaceAll(string(data), "\r\n", "\n"); sb.String() != want {
			t.Fatalf("pieces %q do not add up to %q", sb.String(), want)
		}
		// appending a proper row always keeps the contract
		row := "\n## Wake 9\nNEXT ACTION: go on\n"
		if v := CheckContract(Contract{true, true}, 9, data, append(append([]byte{}, data...), row...)); v != "" {
			t.Fatalf("a proper row broke the contract: %s", v)
		}
	})
}
