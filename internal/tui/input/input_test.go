package input

import (
	"bytes"
	"os"
	"testing"
)

func TestRewrite(t *testing.T) {
	tests := []struct {
		name  string
		reads []string
		want  []string
	}{
		{"typing", []string{"a", "b", "\r"}, []string{"a", "b", "\r"}},
		{"lone enter pair", []string{"\r\n"}, []string{"\r\n"}},
		{"typed text then enter in one read", []string{"first question\r"}, []string{"first question\r"}},
		{"text then crlf", []string{"ls\r\n"}, []string{"ls\r\n"}},
		{"unbracketed LF paste", []string{"line one\nline two\n", "\r"}, []string{PasteStart + "line one\nline two\n" + PasteEnd, "\r"}},
		{"unbracketed CR paste", []string{"a\rb\r\n"}, []string{PasteStart + "a\nb\n" + PasteEnd}},
		{"escape sequences untouched", []string{"\x1b[A\r"}, []string{"\x1b[A\r"}},
		{"inside bracketed paste", []string{PasteStart + "x", "y\nz\r", "w" + PasteEnd, "q\nr"},
			[]string{PasteStart + "x", "y\nz\r", "w" + PasteEnd, PasteStart + "q\nr" + PasteEnd}},
		{"split end marker", []string{PasteStart + "a\x1b[20", "1~", "b\nc"},
			[]string{PasteStart + "a\x1b[20", "1~", PasteStart + "b\nc" + PasteEnd}},
		{"split start marker", []string{"\x1b[2", "00~a", "b\nc", "\x1b[201~"},
			[]string{"\x1b[2", "00~a", "b\nc", "\x1b[201~"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Detector
			for i, r := range tt.reads {
				if got := string(d.Rewrite([]byte(r))); got != tt.want[i] {
					t.Errorf("read %d: got %q, want %q", i, got, tt.want[i])
				}
			}
		})
	}
}

func FuzzRewrite(f *testing.F) {
	f.Add([]byte("\x1b[200~line1 \x1b[31mred\x1b[0m\nline2\x1b[20"), []byte("1~"))
	f.Add([]byte("line one\nline two\n"), []byte("\r"))
	f.Add([]byte("hel"), []byte("lo\x1b]10;rgb:cccc/cccc/cccc\x1b\\"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var d Detector
		for _, r := range [][]byte{a, b} {
			out := d.Rewrite(r)
			if bytes.Equal(out, r) {
				continue
			}
			// A rewrite is exactly a wrapped, normalised copy.
			body := bytes.TrimSuffix(bytes.TrimPrefix(out, []byte(PasteStart)), []byte(PasteEnd))
			if len(body) != len(out)-12 || bytes.ContainsRune(body, '\r') || bytes.ContainsRune(body, 0x1b) {
				t.Fatalf("bad rewrite %q -> %q", r, out)
			}
		}
	})
}

// TestFirstRead: a line typed before raw mode arrives with the tty's
// "\n" for Enter; it still submits. Later reads keep ctrl+j a newline.
func TestFirstRead(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"early words\n", "early words\r"},
		{"early words", "early words"},
		{"one\ntwo\n", "one\ntwo\n"},
		{"\x1b[?2026;2$yearly\n", "\x1b[?2026;2$yearly\r"}, // a terminal reply in the same read
		{"typed\r", "typed\r"},
	} {
		if got := string(firstRead([]byte(tc.in))); got != tc.want {
			t.Errorf("firstRead(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rd := NewReader(r)
	buf := make([]byte, 64)
	for _, step := range []struct{ typed, want string }{{"hello\n", "hello\r"}, {"x\n", "x\n"}} {
		w.WriteString(step.typed)
		n, _ := rd.Read(buf)
		if got := string(buf[:n]); got != step.want {
			t.Errorf("read %q = %q, want %q", step.typed, got, step.want)
		}
	}
	w.Close()
}
