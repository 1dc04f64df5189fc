package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree creates files (path -> content) under a new temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func numbered(from, to int) string {
	var sb strings.Builder
	for i := from; i <= to; i++ {
		sb.WriteString("line ")
		sb.WriteString(strings.Repeat("x", i%3))
		sb.WriteString("\n")
	}
	return sb.String()
}

func TestReadFile(t *testing.T) {
	long := strings.Repeat("é", 1500) // 3000 bytes
	dir := writeTree(t, map[string]string{
		"a.txt":     "one\ntwo\nthree\n",
		"crlf.txt":  "\xEF\xBB\xBFone\r\ntwo\r\n",
		"tabs.go":   "func f() {\n\treturn\n}",
		"empty.txt": "",
		"long.txt":  long + "\nend\n",
		"many.txt":  strings.Repeat("l\n", 2500),
		"ctrl.bin":  strings.Repeat("\x01\x02\x03abc", 100),
		"sub/x.txt": "x\n",
	})
	_, reg := newWS(t, dir)
	tests := []struct {
		name    string
		args    map[string]any
		want    string // exact content, or
		has     []string
		isError bool
	}{
		{name: "whole", args: map[string]any{"path": "a.txt"}, want: "    1\tone\n    2\ttwo\n    3\tthree\n"},
		{name: "offset limit", args: map[string]any{"path": "a.txt", "offset": 2, "limit": 1}, want: "    2\ttwo\n[showing lines 2-2 of 3; call read_file with offset=3 to read more]\n"},
		{name: "crlf and bom dropped", args: map[string]any{"path": "crlf.txt"}, want: "    1\tone\n    2\ttwo\n"},
		{name: "raw tabs, no final newline", args: map[string]any{"path": "tabs.go"}, want: "    1\tfunc f() {\n    2\t\treturn\n    3\t}\n"},
		{name: "empty", args: map[string]any{"path": "empty.txt"}, want: "(empty file)"},
		{name: "long line capped on rune boundary", args: map[string]any{"path": "long.txt"}, want: "    1\t" + strings.Repeat("é", 1000) + "… [line truncated: 3000 bytes]\n    2\tend\n"},
		{name: "default limit", args: map[string]any{"path": "many.txt"}, has: []string{" 2000\tl\n", "[showing lines 1-2000 of 2500; call read_file with offset=2001 to read more]"}},
		{name: "past end", args: map[string]any{"path": "a.txt", "offset": 9}, has: []string{"offset 9 is past the end of the file (3 lines)"}, isError: true},
		{name: "directory", args: map[string]any{"path": "sub"}, has: []string{"sub is a directory"}, isError: true},
		{name: "missing", args: map[string]any{"path": "nope.txt"}, has: []string{"nope.txt does not exist"}, isError: true},
		{name: "no path", args: map[string]any{}, has: []string{"path is required"}, isError: true},
		{name: "control bytes are binary", args: map[string]any{"path": "ctrl.bin"}, has: []string{"binary file (data, 600 bytes)"}, isError: true},
		{name: "outside", args: map[string]any{"path": "../x"}, has: []string{"path ../x is outside the workspace"}, isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, reg, "read_file", tt.args)
			if res.IsError != tt.isError {
				t.Fatalf("IsError = %v: %q", res.IsError, res.Content)
			}
			if tt.want != "" && res.Content != tt.want {
				t.Fatalf("content =\n%q\nwant\n%q", res.Content, tt.want)
			}
			for _, h := range tt.has {
				if !strings.Contains(res.Content, h) {
					t.Fatalf("content %q lacks %q", res.Content, h)
				}
			}
			if !tt.isError && len(res.Paths) != 1 {
				t.Fatalf("Paths = %v", res.Paths)
			}
		})
	}
}

func TestReadFileBadArgs(t *testing.T) {
	_, reg := newWS(t, t.TempDir())
	tool, _ := reg.Get("read_file")
	res, err := tool.Run(t.Context(), []byte(`{"path": 3}`))
	if err != nil || !res.IsError || !strings.Contains(res.Content, "invalid arguments") {
		t.Fatalf("res %+v err %v", res, err)
	}
}

func TestSniffBinary(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		kind   string
		binary bool
	}{
		{"empty", "", "", false},
		{"ascii", "hello\n", "", false},
		{"latin1", "caf\xe9 cr\xe8me\n", "", false},
		{"utf8 cut at the 8 KiB window", strings.Repeat("a", sniffLen-1) + "ç", "", false},
		{"nul", "ab\x00cd", "data", true},
		{"zip", "PK\x03\x04rest", "zip", true},
		{"docx", "PK\x03\x04....word/document.xml", "zip/docx", true},
		{"png", "\x89PNG\r\n\x1a\nxxxx", "png", true},
		{"elf", "\x7fELF\x02\x01", "elf", true},
		{"pdf", "%PDF-1.7\n", "pdf", true},
		{"random high bytes", strings.Repeat("\xff\xfe\xc0\x80\x9a", 50), "data", true},
		{"ansi colours are text", "\x1b[31mred\x1b[0m\n", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, bin := sniffBinary([]byte(tt.in))
			if kind != tt.kind || bin != tt.binary {
				t.Fatalf("sniffBinary = %q, %v; want %q, %v", kind, bin, tt.kind, tt.binary)
			}
		})
	}
}

func TestCP1252RoundTrip(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	back, ok := encodeCP1252(decodeCP1252(all))
	if !ok || string(back) != string(all) {
		t.Fatalf("round trip failed: ok=%v", ok)
	}
	if _, ok := encodeCP1252("日本"); ok {
		t.Fatal("encoded a rune outside Windows-1252")
	}
	if got := decodeCP1252([]byte("\x80\x93")); got != "€“" {
		t.Fatalf("decode = %q", got)
	}
}

func TestReadFileByteCap(t *testing.T) {
	dir := writeTree(t, map[string]string{"f": strings.Repeat("0123456789\n", 10)})
	ws, _ := newWS(t, dir)
	reg := NewRegistry(Core(ws, Options{ReadMaxBytes: 40})...)
	res := call(t, reg, "read_file", map[string]any{"path": "f"})
	want := "    1\t0123456789\n    2\t0123456789\n[showing lines 1-2 of 10; call read_file with offset=3 to read more]\n"
	if res.Content != want {
		t.Fatalf("content = %q, want %q", res.Content, want)
	}
}

func TestExtraRoot(t *testing.T) {
	main := writeTree(t, map[string]string{"m.txt": "main\n"})
	extra := writeTree(t, map[string]string{"lib/e.txt": "needle\n"})
	ws, reg := newWS(t, main, extra)
	extraReal := ws.Roots()[1]
	e := filepath.Join(extraReal, "lib/e.txt")
	if res := call(t, reg, "read_file", map[string]any{"path": e}); res.IsError || res.Content != "    1\tneedle\n" {
		t.Fatalf("read in extra root: %+v", res)
	}
	if res := call(t, reg, "grep", map[string]any{"pattern": "needle", "path": extraReal}); res.Content != e+":1: needle\n" {
		t.Fatalf("grep in extra root: %q", res.Content)
	}
	if res := call(t, reg, "write_file", map[string]any{"path": filepath.Join(extraReal, "new.txt"), "content": "x"}); res.IsError {
		t.Fatalf("write in extra root: %s", res.Content)
	}
	if res := call(t, reg, "read_file", map[string]any{"path": filepath.Dir(extraReal)}); !res.IsError || !strings.Contains(res.Content, "outside the workspace") {
		t.Fatalf("parent of extra root: %+v", res)
	}
}
