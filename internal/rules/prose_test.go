package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\nline 2\ttab", "plain text\nline 2\ttab"},
		{"crlf\r\nline", "crlf\nline"},
		{"\x1b[31mred\x1b[0m and \x1b]0;title\x07done", "red and done"},
		{"bell\x07 null\x00 del\x7f", "bell null del"},
		{"zero\u200bwidth\u200d join\ufeff", "zerowidth join"},
		{"bidi \u202egnp.exe\u202c \u2066iso\u2069", "bidi gnp.exe iso"},
		{"hidden \U000E0049\U000E0047\U000E004E tag", "hidden  tag"},
		{"bad \xff utf8", "bad  utf8"},
		{"emoji 👍 and café", "emoji 👍 and café"},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestProject(t *testing.T) {
	if got := Project("  - use pnpm\n", 0); got != "- use pnpm" {
		t.Errorf("Project small = %q", got)
	}
	long := strings.Repeat("- a rule line that is fairly long é\n", 400)
	got := Project(long, 1000)
	if len(got) > 1000 || !strings.Contains(got, "read_file ZERO.md") || !utf8.ValidString(got) {
		t.Errorf("Project long: %d bytes, valid=%v, tail %q", len(got), utf8.ValidString(got), got[len(got)-80:])
	}
	if Project("", 0) != "" {
		t.Error("empty prose projected")
	}
}

func TestInitAddDoctor(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	path, err := Init(ws)
	if err != nil {
		t.Fatal(err)
	}
	if rs, err := ReadFile(path); err != nil || len(rs) != 1 {
		t.Fatalf("starter rules do not load: %v %v", rs, err)
	}
	if _, err := Init(ws); err == nil {
		t.Error("Init overwrote an existing file")
	}
	if err := AddProse(ws, "Use pnpm, not npm"); err != nil {
		t.Fatal(err)
	}
	if err := AddProse(ws, "Run go test before saying done"); err != nil {
		t.Fatal(err)
	}
	prose, _ := LoadProse(ws)
	if !strings.HasPrefix(prose, "# Project rules") || !strings.Contains(prose, "- Use pnpm, not npm\n- Run go test") {
		t.Errorf("ZERO.md = %q", prose)
	}
	if probs := Doctor(ws, home); len(probs) != 0 {
		t.Errorf("Doctor on healthy files = %q", probs)
	}
	os.WriteFile(filepath.Join(ws, ProseFile), []byte("rule \u202ehidden\n"), 0o644)
	os.WriteFile(filepath.Join(home, ".zero"), nil, 0o644) // not a directory: unreadable rules
	os.WriteFile(path, []byte(`{"rules":[{"id":"x","on":"nope"}]}`), 0o644)
	probs := Doctor(ws, home)
	if len(probs) < 2 || !strings.Contains(strings.Join(probs, "\n"), "invisible") || !strings.Contains(strings.Join(probs, "\n"), "on must be") {
		t.Errorf("Doctor = %q", probs)
	}
}

func FuzzSanitize(f *testing.F) {
	f.Add("a\x1b[31mb\u202ec")
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if !utf8.ValidString(out) || strings.ContainsAny(out, "\x1b\x00\u202e\u200b") {
			t.Fatalf("Sanitize(%q) = %q", s, out)
		}
		if p := Project(s, 64); len(p) > 64 && len(Sanitize(s)) > 64 {
			t.Fatalf("Project over budget: %d", len(p))
		}
	})
}

// Doctor warns about a ZERO.md only past the budget all instruction files
// share (internal/instructions), not at the old 4 KB cut.
func TestDoctorWarnsPastTheInstructionBudget(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	write := func(n int) { os.WriteFile(filepath.Join(ws, ProseFile), []byte(strings.Repeat("x", n-1)+"\n"), 0o644) }
	write(8 << 10)
	for _, p := range Doctor(ws, home) {
		if strings.Contains(p, "reach the model") {
			t.Fatalf("an 8 KB ZERO.md is within the budget: %q", p)
		}
	}
	write(InstructionBudget + 100)
	found := false
	for _, p := range Doctor(ws, home) {
		found = found || strings.Contains(p, "only the first 16384 reach the model")
	}
	if !found {
		t.Fatalf("no warning past the budget: %q", Doctor(ws, home))
	}
}
