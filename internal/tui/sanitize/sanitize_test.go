package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello\n\tworld", "hello\n\tworld"},
		{"sgr", "\x1b[31mred\x1b[0m", "red"},
		{"cursor move", "a\x1b[2Ab\x1b[10;1Hc", "abc"},
		{"clear screen", "x\x1b[2J\x1b[Hy", "xy"},
		{"title osc bel", "\x1b]0;pwned\x07ok", "ok"},
		{"title osc st", "\x1b]2;pwned\x1b\\ok", "ok"},
		{"clipboard osc52", "\x1b]52;c;cm0gLXJmIH4=\x07ok", "ok"},
		{"hyperlink", "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"dcs", "\x1bPq#0;2;0;0;0\x1b\\ok", "ok"},
		{"apc", "\x1b_Gf=100;AAAA\x1b\\ok", "ok"},
		{"8-bit csi", "a\u009b2Jb", "ab"},
		{"8-bit osc", "a\u009d0;t\u009cb", "ab"},
		{"two byte esc", "a\x1bcb\x1b7c\x1b(Bd", "abcd"},
		{"unterminated osc", "ok\x1b]0;never ends", "ok"},
		{"lone esc", "ok\x1b", "ok"},
		{"carriage return overstrike", "Allow? [y/N]\rdone", "Allow? [y/N]\ndone"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"c0 controls", "a\x00b\x07c\x08d\x7fe", "abcde"},
		{"bidi override", "file\u202etxt.exe", "filetxt.exe"},
		{"bidi isolates", "a\u2066b\u2069c\u200fd", "abcd"},
		{"zero width", "r\u200bm\u200c \u2060-rf\ufeff", "rm -rf"},
		{"zwj emoji kept", "👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"},
		{"zwj between letters dropped", "a\u200db", "ab"},
		{"tags", "a\U000E0041b", "ab"},
		{"invalid utf8", "a\xffb", "a\ufffdb"},
		{"cjk kept", "你好，ok 🎉", "你好，ok 🎉"},
		{"combining kept", "e\u0301", "e\u0301"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestVisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{"rm -rf /", "rm -rf /"},
		{"echo \x1b[2Jhi", `echo \x1b[2Jhi`},
		{"ls\u202e", `ls\u202e`},
		{"a\x00b", `a\x00b`},
		{"x\r\n", "x\n"},
		{"a\U000E0041b", `a\U000e0041b`},
		{"\u009b2J", `\u009b2J`},
	}
	for _, tt := range tests {
		if got := Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLineAndTabs(t *testing.T) {
	if got := Line("a\tb\nc"); got != "a   b c" {
		t.Errorf("Line = %q", got)
	}
	if got := ExpandTabs("ab\tc\n\td"); got != "ab  c\n    d" {
		t.Errorf("ExpandTabs = %q", got)
	}
}

// checkSafe asserts the output holds nothing a terminal would act on.
func checkSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("invalid UTF-8 out of %q: %q", in, out)
	}
	for _, r := range out {
		if r == '\n' || r == '\t' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (isInvisible(r) && r != 0x200d) {
			t.Fatalf("unsafe rune %U left in %q (from %q)", r, out, in)
		}
	}
	if strings.ContainsRune(out, 0x200d) && !strings.ContainsRune(in, 0x200d) {
		t.Fatalf("ZWJ invented")
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b[31mred\x1b[0m", "\x1b]0;t\x07", "\x1bPq\x1b\\", "a\u202eb", "\u009b2J", "👨\u200d👩", "\r\n\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		checkSafe(t, s, out)
		if Text(out) != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, Text(out))
		}
		checkSafe(t, s, Line(s))
		if v := Visible(s); strings.ContainsRune(v, 0x1b) {
			t.Fatalf("Visible left ESC: %q", v)
		}
	})
}
