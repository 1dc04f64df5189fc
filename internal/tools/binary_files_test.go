package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBinarySniffingRefusesAZipButReadsCutUTF8AndLatin1AsText checks
// binary sniffing both ways through the real tools: the ODS (ZIP) file is
// refused by read, edit and write and skipped by grep with no raw bytes
// shown; a UTF-8 sequence cut by the sample window and a Latin-1 file are
// text, and the Latin-1 one keeps its encoding through an edit.
// Case B17 (testdata/B17; earendil-works/pi#5289, NousResearch/hermes-agent#76886).
func TestBinarySniffingRefusesAZipButReadsCutUTF8AndLatin1AsText(t *testing.T) {
	dir := copyCase(t, "B17", "sheet.ods", "boundary_utf8.md", "latin1.txt")
	_, reg := newWS(t, dir)
	ods := readTestdata(t, "B17", "sheet.ods")

	res := call(t, reg, "read_file", map[string]any{"path": "sheet.ods"})
	if !res.IsError || !strings.Contains(res.Content, "binary file (zip/ods, 340 bytes) - not shown; use a converter") {
		t.Fatalf("read sheet.ods: %+v", res)
	}
	if !utf8.ValidString(res.Content) || strings.Contains(res.Content, "mimetype") || strings.ContainsRune(res.Content, 0) {
		t.Fatalf("raw bytes leaked into the result: %q", res.Content)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit_file", map[string]any{"path": "sheet.ods", "old_string": "mimetype", "new_string": "x"}},
		{"write_file", map[string]any{"path": "sheet.ods", "content": "x"}},
	} {
		if res := call(t, reg, c.tool, c.args); !res.IsError || !strings.Contains(res.Content, "binary file") {
			t.Fatalf("%s on sheet.ods: %+v", c.tool, res)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "sheet.ods")); !bytes.Equal(got, ods) {
		t.Fatal("sheet.ods modified")
	}
	if res := call(t, reg, "grep", map[string]any{"pattern": "mimetype"}); strings.Contains(res.Content, "sheet.ods") {
		t.Fatalf("grep reported the binary file: %q", res.Content)
	}

	res = call(t, reg, "read_file", map[string]any{"path": "boundary_utf8.md"})
	want := "    1\t" + strings.Repeat("a", 999) + "ç\n    2\tx\n"
	if res.IsError || res.Content != want {
		t.Fatalf("boundary_utf8.md = %q, want %q", res.Content, want)
	}

	res = call(t, reg, "read_file", map[string]any{"path": "latin1.txt"})
	if res.IsError || !strings.HasPrefix(res.Content, "    1\tcafé crème\n") || !strings.Contains(res.Content, "Windows-1252") {
		t.Fatalf("latin1.txt = %+v", res)
	}
	// The legacy file stays in its encoding through an edit.
	res = call(t, reg, "edit_file", map[string]any{"path": "latin1.txt", "old_string": "crème", "new_string": "crème brûlée"})
	if res.IsError {
		t.Fatalf("edit latin1.txt: %s", res.Content)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "latin1.txt")); string(got) != "caf\xe9 cr\xe8me br\xfbl\xe9e\n" {
		t.Fatalf("latin1.txt after edit = %q", got)
	}
}
