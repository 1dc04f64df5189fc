package render

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/llm"
)

// hidingCommand is the QA case: padding pushes the dangerous part off the
// edge, blank lines push it off the screen, and a harmless last line is
// what remains visible.
const hidingCommand = "ls" + "                                                                                                                                                                                                        " + "; touch EVIL_HIDDEN.txt" + "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n" + "echo listing done"

func TestCollapseBlanks(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ls -la", "ls -la"},
		{"a    b", "a    b"},
		{"a     b", "a ␣×5 b"},
		{"a\tb", "a b"},
		{"a\t\t \t \tz", "a ␣×6 z"},
		{strings.Repeat(" ", 200), " ␣×200 "},
	}
	for _, tt := range tests {
		if got := CollapseBlanks(tt.in); got != tt.want {
			t.Errorf("CollapseBlanks(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCommandLines(t *testing.T) {
	tests := []struct {
		in   string
		want []CommandLine
	}{
		{"make", []CommandLine{{1, "make"}}},
		{"a\n\nb", []CommandLine{{1, "a"}, {2, ""}, {3, "b"}}},
		{"a\n\n\n  \nb", []CommandLine{{1, "a"}, {0, "⏎×3 empty lines"}, {5, "b"}}},
		{hidingCommand, []CommandLine{{1, "ls ␣×200 ; touch EVIL_HIDDEN.txt"}, {0, "⏎×79 empty lines"}, {81, "echo listing done"}}},
	}
	for _, tt := range tests {
		if got := CommandLines(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("CommandLines(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestToolCallShowsHiddenParts(t *testing.T) {
	tests := []struct {
		cmd   string
		width int
		want  string
	}{
		{hidingCommand, 80, "⚙ bash(ls ␣×200 ; touch EVIL_HIDDEN.txt ⏎ ⏎×79 ⏎ echo listing done)"},
		{"echo a\necho b", 80, "⚙ bash(echo a ⏎ echo b)"},
		{hidingCommand, 40, "⚙ bash(ls ␣×200 …(40 hidden)…sting done)"},
	}
	for _, tt := range tests {
		got := plain(ToolCall(llm.ToolCall{Name: "bash", Arguments: `{"command":` + quote(tt.cmd) + `}`}, tt.width))
		if len(got) != 1 || got[0] != tt.want || ansi.StringWidth(got[0]) > tt.width {
			t.Errorf("ToolCall(%q, %d) = %q, want %q", tt.cmd, tt.width, got, tt.want)
		}
	}
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}

func TestCommandBlock(t *testing.T) {
	var tall []string
	for i := 1; i <= 30; i++ {
		tall = append(tall, "echo "+strings.Repeat("x", i))
	}
	tests := []struct {
		name        string
		cmd         string
		width, room int
		want        []string
		hidden      int
	}{
		{"one line", "make test", 40, 10, []string{"$ make test"}, 0},
		{"wrapped", "echo 0123456789abcdef", 12, 10, []string{"$ echo 01234", "  56789abcde", "  f"}, 0},
		{"hiding", hidingCommand, 78, 10, []string{
			"$ 81 lines, 322B:",
			" 1 │ ls ␣×200 ; touch EVIL_HIDDEN.txt",
			"   │ ⏎×79 empty lines",
			"81 │ echo listing done",
		}, 0},
		{"tall", strings.Join(tall, "\n"), 50, 7, []string{
			"$ 30 lines, 644B:",
			" 1 │ echo x",
			" 2 │ echo xx",
			"… 25 more rows hidden — press v to view all",
			"28 │ echo xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
			"29 │ echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
			"30 │ echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		}, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hidden := CommandBlock(tt.cmd, tt.width, tt.room)
			if !reflect.DeepEqual(got, tt.want) || hidden != tt.hidden {
				t.Errorf("got %d hidden:\n%s\nwant %d hidden:\n%s", hidden, strings.Join(got, "\n"), tt.hidden, strings.Join(tt.want, "\n"))
			}
			if len(got) > max(tt.room, 3) {
				t.Errorf("%d rows for room %d", len(got), tt.room)
			}
		})
	}
}

// FuzzCommandBlock: whatever the command, the block fits its room, no row
// is wider than the width, and the hidden count accounts for every row.
func FuzzCommandBlock(f *testing.F) {
	f.Add(hidingCommand, 78, 10)
	f.Add("make test", 40, 3)
	f.Add("a\t\t\t\t\tb\n\n\n\nc\r\n\u202e", 20, 5)
	f.Add(strings.Repeat("x\n", 100), 30, 7)
	f.Fuzz(func(t *testing.T, cmd string, width, room int) {
		width, room = 20+abs(width)%200, abs(room)%100
		whole, _ := CommandBlock(cmd, width, 1<<30)
		rows, hidden := CommandBlock(cmd, width, room)
		if len(rows) > max(room, 3) {
			t.Fatalf("%d rows for room %d", len(rows), room)
		}
		if hidden == 0 && !reflect.DeepEqual(rows, whole) || hidden > 0 && len(rows)-1+hidden != len(whole) {
			t.Fatalf("hidden %d: %d rows shown of %d", hidden, len(rows), len(whole))
		}
		for _, r := range rows {
			if ansi.StringWidth(r) > width {
				t.Fatalf("row %q wider than %d", r, width)
			}
		}
		if w := ansi.StringWidth(Middle(CommandOneLine(cmd), width)); w > width {
			t.Fatalf("one-line form %d cells wide, want <= %d", w, width)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
