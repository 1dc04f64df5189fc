package markdown

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/style"
)

func render(src string, width int, chunk int) []string {
	s := Stream{Width: width}
	var out []string
	for len(src) > 0 {
		n := min(chunk, len(src))
		out = append(out, s.Write(src[:n])...)
		src = src[n:]
	}
	return append(out, s.Close()...)
}

func plain(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return out
}

func TestRenderPlain(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"heading", "# Title\ntext", []string{"Title", "text"}},
		{"list", "- one\n* two\n  + nested", []string{"• one", "• two", "  • nested"}},
		{"bold code", "use **bold** and `x := 1`", []string{"use bold and x := 1"}},
		{"italic", "an *em* word_with_underscores", []string{"an em word_with_underscores"}},
		{"unclosed", "a **b `c", []string{"a **b `c"}},
		{"quote", "> note", []string{"│ note"}},
		{"rule", "---", []string{"────────────────"}},
		{"fence", "```go\nfunc f() {}\n```\nafter", []string{"```go", "  func f() {}", "```", "after"}},
		{"tilde fence", "~~~\nx\n~~~", []string{"~~~", "  x", "~~~"}},
		{"hostile", "ok\x1b]0;title\x07 \x1b[2Jdone\u202e", []string{"ok done"}},
		{"tabs", "a\tb", []string{"a   b"}},
		{"crlf", "a\r\nb", []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plain(render(tt.src, 0, len(tt.src)+1)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q want %q", got, tt.want)
			}
		})
	}
}

// TestStreamingMatchesWhole: any chunking gives the same lines as one write.
func TestStreamingMatchesWhole(t *testing.T) {
	src := "# Plan\n\nSome **bold** text with `code`.\n\n```python\ndef f(x):\n    return \"s\" # c\n```\n- item one\n- item two 你好\n"
	whole := render(src, 30, len(src))
	for _, chunk := range []int{1, 2, 3, 7, 13} {
		if got := render(src, 30, chunk); !reflect.DeepEqual(got, whole) {
			t.Errorf("chunk %d: %q\nwant %q", chunk, got, whole)
		}
	}
}

func TestWrapWidth(t *testing.T) {
	for _, l := range render("a long line of words that must wrap at twenty cells 你好世界你好世界你好世界\n```\n"+strings.Repeat("x", 50)+"\n```", 20, 5) {
		if w := ansi.StringWidth(l); w > 20 {
			t.Errorf("line %q is %d cells", l, w)
		}
	}
}

func TestTailAndBlocks(t *testing.T) {
	var s Stream
	s.Write("```sh\nls -la\n")
	if got := s.Tail(); got != nil {
		t.Errorf("tail = %q", got)
	}
	s.Write("echo hi")
	if got := plain(s.Tail()); !reflect.DeepEqual(got, []string{"  echo hi"}) {
		t.Errorf("tail in fence = %q", got)
	}
	s.Write("\n```\ndone")
	if got := plain(s.Tail()); !reflect.DeepEqual(got, []string{"done"}) {
		t.Errorf("tail = %q", got)
	}
	s.Close()
	if b := s.Blocks(); len(b) != 1 || b[0].Lang != "sh" || b[0].Text != "ls -la\necho hi\n" {
		t.Errorf("blocks = %+v", b)
	}
}

func TestHighlight(t *testing.T) {
	got := Highlight("go", `if x := "s"; x == 1 { // c`)
	for _, want := range []string{"\x1b[35mif\x1b[0m", "\x1b[32m\"s\"\x1b[0m", "\x1b[33m1\x1b[0m", "\x1b[2;3m// c\x1b[0m"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if Highlight("nosuchlang", "if x") != "if x" {
		t.Error("unknown language styled")
	}
}

func FuzzStream(f *testing.F) {
	f.Add("# h\n```go\nx\n```\n**b** `c`", 3)
	f.Add("\x1b[31mred\n\x1b]0;t\x07", 1)
	f.Fuzz(func(t *testing.T, src string, chunk int) {
		if chunk < 1 || chunk > 64 {
			chunk = 1
		}
		lines := render(src, 12, chunk)
		if !reflect.DeepEqual(lines, render(src, 12, len(src)+1)) {
			t.Fatal("chunking changed output")
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > 12 {
				t.Fatalf("line over width: %q", l)
			}
			stripped := ansi.Strip(l)
			if strings.ContainsAny(stripped, "\x1b\r\x07") {
				t.Fatalf("control left: %q", stripped)
			}
		}
	})
}

// TestLongLineStreamsRows: a paragraph written without a newline hands out
// its rows as soon as later text cannot change them, so the unfinished
// tail stays short, and the rows are those of the whole line.
func TestLongLineStreamsRows(t *testing.T) {
	var words []string
	for i := range 60 {
		words = append(words, "word"+strings.Repeat("x", i%7))
	}
	para := strings.Join(words, " ")
	for _, src := range []string{
		para + "\nnext\n",
		"- " + para + "\n",
		"> " + para + "\n",
		para + " # not a heading " + para + "\n",
	} {
		whole := plain(render(src, 30, len(src)))
		s := Stream{Width: 30}
		var got []string
		for i := 0; i < len(src); i += 3 {
			got = append(got, plain(s.Write(src[i:min(i+3, len(src))]))...)
			if tail := s.Tail(); len(tail) > stableRows+1 {
				t.Fatalf("tail of %d rows: %q", len(tail), tail)
			}
		}
		got = append(got, plain(s.Close())...)
		if !reflect.DeepEqual(got, whole) {
			t.Errorf("streamed:\n%s\nwhole:\n%s", strings.Join(got, "\n"), strings.Join(whole, "\n"))
		}
		if s.Source() != src {
			t.Errorf("source changed")
		}
	}
}

// TestLongLineKeepsSpans: bold that wraps over rows renders bold while it
// streams, as in one write (second QA).
func TestLongLineKeepsSpans(t *testing.T) {
	var words []string
	for i := range 30 {
		words = append(words, fmt.Sprintf("m%03d", i))
	}
	src := "Intro " + strings.Join(words[:5], " ") + " **bold " + strings.Join(words[5:25], " ") + " end** then " + strings.Join(words[25:], " ") + "\n"
	whole := render(src, 30, len(src))
	streamed := render(src, 30, 4)
	if !reflect.DeepEqual(streamed, whole) {
		t.Errorf("streamed:\n%q\nwhole:\n%q", streamed, whole)
	}
	if strings.Contains(strings.Join(plain(streamed), "\n"), "**") {
		t.Errorf("markers shown: %q", plain(streamed))
	}
}

// TestQuoteRowsKeepTheBar: every row of a wrapped block quote has the bar,
// streamed or whole (second QA).
func TestQuoteRowsKeepTheBar(t *testing.T) {
	src := "> " + strings.Repeat("quoted words go on ", 12) + "end\nafter\n"
	for _, chunk := range []int{len(src), 3} {
		rows := plain(render(src, 30, chunk))
		if len(rows) < 4 || rows[len(rows)-1] != "after" {
			t.Fatalf("rows %q", rows)
		}
		for _, r := range rows[:len(rows)-1] {
			if !strings.HasPrefix(r, "│ ") || cells.Width(r) > 30 {
				t.Errorf("chunk %d: quote row %q", chunk, r)
			}
		}
	}
}

// TestQuoteItalicAfterBold: a quote stays italic after a bold span.
func TestQuoteItalicAfterBold(t *testing.T) {
	rows := render("> before **bold** after\n", 60, 100)
	if len(rows) != 1 {
		t.Fatalf("rows %q", rows)
	}
	after := rows[0][strings.LastIndex(rows[0], "bold"):]
	open, _, _ := strings.Cut(style.Italic.Render("\x00"), "\x00")
	if open != "" && !strings.Contains(after, open) {
		t.Errorf("no italics after the bold span: %q", rows[0])
	}
}

// A list item's wrapped rows hang under its text, not under its marker,
// for bullets, numbers and nested items, streamed in any chunks as in one
// write; an indented paragraph's rows keep its indent.
func TestListRowsHangUnderTheirText(t *testing.T) {
	var words []string
	for i := range 40 {
		words = append(words, "word"+strings.Repeat("x", i%5))
	}
	para := strings.Join(words, " ")
	for _, c := range []struct{ src, first, rest string }{
		{"- " + para + "\n", "• word", "  "},
		{"12. " + para + "\n", "12. word", "    "},
		{"  * " + para + "\n", "  • word", "    "},
		{"   " + para + "\n", "   word", "   "},
	} {
		for _, chunk := range []int{len(c.src), 1, 3, 7} {
			rows := plain(render(c.src, 30, chunk))
			if len(rows) < 5 || !strings.HasPrefix(rows[0], c.first) {
				t.Fatalf("%q chunk %d: %q", c.src[:6], chunk, rows)
			}
			for _, r := range rows[1:] {
				if !strings.HasPrefix(r, c.rest+"word") || cells.Width(r) > 30 {
					t.Errorf("%q chunk %d: row %q does not hang under the text", c.src[:6], chunk, r)
				}
			}
		}
	}
}

// A pipe table renders in aligned columns under a rule, numbers right
// aligned as its delimiter row says, a long cell wrapped in its column, a
// row whose last cell is empty ending at its last bar (no trailing space);
// streamed in any chunks as written whole; the live tail shows the rows
// held so far; pipes without a delimiter row stay text.
func TestTablesRenderInColumns(t *testing.T) {
	src := "Here:\n\n| Name | Value | Note |\n|------|------:|:----:|\n| alpha | 1 | `x` |\n| beta with a long cell that wraps | 22 | **b** |\n\nAfter.\n"
	want := []string{
		"Here:",
		"",
		"Name            │ Value │ Note",
		"────────────────┼───────┼─────",
		"alpha           │     1 │  x",
		"beta with a     │    22 │  b",
		"long cell that  │       │",
		"wraps           │       │",
		"",
		"After.",
	}
	for _, chunk := range []int{len(src), 1, 5} {
		if got := plain(render(src, 30, chunk)); !reflect.DeepEqual(got, want) {
			t.Errorf("chunk %d:\n%s\nwant\n%s", chunk, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	s := Stream{Width: 40}
	if out := s.Write("| a | b |\n|---|---|\n| 1 | 2 |\n| 3"); len(out) != 0 {
		t.Errorf("rows handed out before the table ended: %q", plain(out))
	}
	if got := plain(s.Tail()); !reflect.DeepEqual(got, []string{"a │ b", "──┼──", "1 │ 2", "3 │"}) {
		t.Errorf("tail %q", got)
	}
	if got := plain(render("| not a table\nsee?\n", 40, 1)); !reflect.DeepEqual(got, []string{"| not a table", "see?"}) {
		t.Errorf("no delimiter row: %q", got)
	}
}

// A table of many rows lines up as one: its column bars are at the same
// cells on every row, whether the rows came in one write or one byte at a
// time, a wide cell late in the table included; one longer than the rows
// held (maxTableRows) keeps the first part's columns, wrapping a later
// wider cell in its column.
func TestLongTableLinesUpAsOne(t *testing.T) {
	for _, n := range []int{30, maxTableRows + 40} {
		var b strings.Builder
		b.WriteString("| # | Name | Size |\n|--:|------|-----:|\n")
		for i := range n {
			name := fmt.Sprintf("file%d.go", i)
			if i == n-3 {
				name = "a_much_longer_file_name_near_the_end.go"
			}
			fmt.Fprintf(&b, "| %d | %s | %d |\n", i, name, i*37)
		}
		b.WriteString("\nAfter.\n")
		src := b.String()
		whole := plain(render(src, 60, len(src)))
		if got := plain(render(src, 60, 1)); !reflect.DeepEqual(got, whole) {
			t.Fatalf("%d rows: streamed byte by byte differs from one write", n)
		}
		bars := func(row string) []int {
			var at []int
			for i, r := range []rune(row) {
				if r == '│' || r == '┼' {
					at = append(at, i)
				}
			}
			return at
		}
		want := bars(whole[0])
		rows := 0
		for _, r := range whole[:len(whole)-2] {
			if got := bars(r); !reflect.DeepEqual(got, want) {
				t.Errorf("%d rows: row %q has its bars at %v, the header at %v", n, r, got, want)
			}
			if strings.HasSuffix(r, " ") {
				t.Errorf("%d rows: row %q ends in a space", n, r)
			}
			rows++
		}
		if rows < n+2 || !strings.Contains(strings.Join(whole, "\n"), "end.go") {
			t.Errorf("%d rows: %d rows shown:\n%s", n, rows, strings.Join(whole, "\n"))
		}
	}
}
