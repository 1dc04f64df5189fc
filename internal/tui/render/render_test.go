package render

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

func plain(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return out
}

func TestArgs(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`{"command":"go test ./..."}`, "go test ./..."},
		{`{"path":"a.go","old_string":"x","new_string":"y"}`, "a.go"},
		{`{"path":"a.go","offset":10,"limit":20}`, "a.go, limit=20, offset=10"},
		{`{"pattern":"TODO"}`, "TODO"},
		{`{"pattern":"x","glob":"*.go"}`, "glob=*.go, pattern=x"},
		{`{"q":"` + strings.Repeat("a", 70) + `","n":1}`, "n=1, q=…70 bytes"},
		{`{"explanation":"why","plan":[{"step":"a","status":"done"},{"step":"b","status":"pending"}]}`, "2 steps"},
		{`{"cmd":"npm run dev","yield_time_ms":500}`, "npm run dev"},
		{`{"session_id":2,"chars":"y\n"}`, "chars=…2 bytes, session_id=2"},
		{`not json`, "not json"},
		{``, ""},
	}
	for _, tt := range tests {
		if got := Args(tt.raw); got != tt.want {
			t.Errorf("Args(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestToolCallTruncates(t *testing.T) {
	got := plain(ToolCall(llm.ToolCall{Name: "bash", Arguments: `{"command":"` + strings.Repeat("x", 100) + `"}`}, 30))
	if len(got) != 1 || ansi.StringWidth(got[0]) > 30 || !strings.HasPrefix(got[0], "⚙ bash(xx") || !strings.HasSuffix(got[0], "xx)") || !strings.Contains(got[0], "(92 hidden)") {
		t.Errorf("got %q", got)
	}
}

func TestToolResult(t *testing.T) {
	zero, two := 0, 2
	tests := []struct {
		name string
		in   event.ToolOutcome
		want []string
	}{
		{"shell ok", event.ToolOutcome{Content: "done\n[exit code 0]\n", ExitCode: &zero, ElapsedMs: 1500}, []string{"↳ exit 0 · 1.5s · 1 line", "  done"}},
		{"shell fail", event.ToolOutcome{Content: "[exit code 2]\n", ExitCode: &two, ElapsedMs: 20, IsError: true}, []string{"↳ exit 2 · 20ms · no output"}},
		{"shell footer of another code stays", event.ToolOutcome{Content: "[exit code 1]\n", ExitCode: &two}, []string{"↳ exit 2 · 0ms · 1 line", "  [exit code 1]"}},
		{"many lines", event.ToolOutcome{Content: "1\n2\n3\n4\n5\n6\n"}, []string{"↳ 6 lines", "  1", "  2", "  3", "  4", "  … +2 lines · ctrl+t shows all"}},
		{"one line", event.ToolOutcome{Content: "edited a.go\n", ElapsedMs: 3}, []string{"↳ edited a.go  · 3ms"}},
		{"error", event.ToolOutcome{Content: "no such file\ntry ls", IsError: true}, []string{"↳ no such file", "  try ls"}},
		{"capped", event.ToolOutcome{Content: "x", RawBytes: 10240, KeptBytes: 4096, ElapsedMs: 3}, []string{"↳ x  · 3ms · 4.0KB kept of 10.0KB"}},
		{"hostile", event.ToolOutcome{Content: "a\x1b]0;t\x07b\x1b[2Kc"}, []string{"↳ abc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plain(ToolResult(tt.in, 60)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	diff := "--- a/x.go\n+++ b/x.go\n@@ -3,4 +3,5 @@ func f\n a\n-b\n+B\n+B2\n c\n@@ -100,2 +101,2 @@\n-old\n+new\n ctx\n\\ No newline at end of file\n"
	want := []string{
		"   3   a",
		"   4 - b",
		"   4 + B",
		"   5 + B2",
		"   6   c",
		"     ⋮",
		" 100 - old",
		" 101 + new",
		" 102   ctx",
	}
	if got := plain(Diff(diff, 80)); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A line longer than the width wraps under its text instead of being
// cut: the end of a long new line is what a user approves.
func TestDiffWrapsLongLines(t *testing.T) {
	diff := "@@ -1,1 +1,1 @@\n-x := 1\n+x := computeTheValueFromTheInputs(a, b, c) // and then rm -rf the cache\n"
	got := plain(Diff(diff, 40))
	want := []string{
		"   1 - x := 1",
		"   1 + x := computeTheValueFromTheInputs",
		"     + (a, b, c) // and then rm -rf the ",
		"     + cache",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFormats(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Duration(850), "850ms"}, {Duration(1234), "1.2s"}, {Duration(125_000), "2m05s"},
		{Bytes(512), "512B"}, {Bytes(3500), "3.4KB"}, {Bytes(1300000), "1.2MB"},
		{Tokens(950), "950"}, {Tokens(1234), "1.2k"}, {Tokens(32768), "33k"}, {Tokens(1_200_000), "1.2M"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestPromptAndNotice(t *testing.T) {
	if got := plain(Prompt("fix\nthe bug\x1b[2J", 40)); !reflect.DeepEqual(got, []string{"› fix", "  the bug"}) {
		t.Errorf("Prompt = %q", got)
	}
	if got := plain(Notice(event.Error, "boom\nagain", 40)); !reflect.DeepEqual(got, []string{"✗ boom", "  again"}) {
		t.Errorf("Notice = %q", got)
	}
}

func TestReasoning(t *testing.T) {
	text := "one\ntwo\nthree\nfour"
	if got := plain(Reasoning(text, 40, false, false)); !reflect.DeepEqual(got, []string{"∴ thinking…", "  two", "  three", "  four"}) {
		t.Errorf("streaming = %q", got)
	}
	if got := plain(Reasoning(text, 60, false, true)); !reflect.DeepEqual(got, []string{"∴ thought for 4 lines (ctrl+o shows it)"}) {
		t.Errorf("done = %q", got)
	}
	if got := plain(Reasoning("one", 60, false, true)); !reflect.DeepEqual(got, []string{"∴ thought for 1 line (ctrl+o shows it)"}) {
		t.Errorf("one line = %q", got)
	}
	if got := plain(Reasoning(text, 40, true, true)); len(got) != 5 {
		t.Errorf("expanded = %q", got)
	}
	if Reasoning("  \n", 40, false, false) != nil {
		t.Error("blank reasoning rendered")
	}
}

func FuzzDiff(f *testing.F) {
	f.Add("@@ -1,2 +1,2 @@\n-a\n+b\n c\n", 20)
	f.Add("@@ -x +y @@\n\x1b[2J+\t\n", 5)
	f.Fuzz(func(t *testing.T, diff string, width int) {
		if width < 1 || width > 200 {
			width = 40
		}
		for _, l := range Diff(diff, width) {
			if ansi.StringWidth(l) > width && width > 8 {
				t.Fatalf("line wider than %d: %q", width, l)
			}
			if strings.ContainsAny(ansi.Strip(l), "\x1b\r\x07") {
				t.Fatalf("control in %q", l)
			}
		}
	})
}

// TestReport: prose wraps, a lone path stays one line to copy whole.
func TestReport(t *testing.T) {
	path := "  /home/someone/.local/share/zero/sessions/20261130-084853-c3ea0d/events.jsonl"
	got := plain(Report("session 20261130\n"+path+"\nsome words that wrap at twenty cells", 20))
	want := []string{"session 20261130", path, "some words that wrap", "at twenty cells"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Report = %q, want %q", got, want)
	}
}

// ctrl+t's full result has every line of the output, long ones wrapped
// under the indent, and no exit-code footer.
func TestFullResultShowsEveryLine(t *testing.T) {
	zero := 0
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	b.WriteString("a long line that wraps under the indent\n[exit code 0]\n")
	got := plain(FullResult(event.ToolOutcome{Content: b.String(), ExitCode: &zero, ElapsedMs: 38}, "bash(make)", 24))
	want := []string{"↳ bash(make): exit 0 ·", "38ms · 41 lines"}
	for i := range 40 {
		want = append(want, fmt.Sprintf("  line %d", i))
	}
	want = append(want, "  a long line that wraps", "  under the indent")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 prompts", 1: "1 prompt", 2: "2 prompts"} {
		if got := Plural(n, "prompt"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// Columns align, the last wraps under itself, and a cell too wide for
// its column takes a line of its own with its row's text under the last
// column.
func TestColumnsWrapUnderTheirColumn(t *testing.T) {
	rows := [][]string{
		{"/help", "show keys and commands"},
		{"/resume <id>", "resume a session, picking it by id or by a prefix of it"},
		{"/mcp [tools|prompts|reconnect NAME]", "MCP servers"},
	}
	got := Columns(rows, "  ", 52)
	want := []string{
		"  /help         show keys and commands",
		"  /resume <id>  resume a session, picking it by id",
		"                or by a prefix of it",
		"  /mcp [tools|prompts|reconnect NAME]",
		"                MCP servers",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Too narrow for a column beside: the text goes under its row.
	got = Columns([][]string{{"read_file", "read-only", "reads a file from the workspace"}}, "", 30)
	want = []string{"read_file  read-only", "    reads a file from the", "    workspace"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("narrow: got %q, want %q", got, want)
	}
}
