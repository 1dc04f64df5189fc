package jsonc

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStandardizeTakesABOMAndCRLF: a file saved by a Windows editor (BOM,
// CRLF, a comment) reads as the same object, and the input is untouched.
func TestStandardizeTakesABOMAndCRLF(t *testing.T) {
	in := []byte("\xef\xbb\xbf{\"model\": \"m1\", // mine\r\n \"n\": 2,\r\n}\r\n")
	orig := string(in)
	std, err := Standardize(in)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Model string
		N     int
	}
	if err := json.Unmarshal(std, &v); err != nil || v.Model != "m1" || v.N != 2 {
		t.Fatalf("Unmarshal(%q) = %+v, %v", std, v, err)
	}
	if string(in) != orig || len(std) != len(in) {
		t.Fatalf("input changed or offsets moved: %q -> %q", orig, std)
	}
}

// TestStandardizeErrorsKeepTheFilesPosition: a broken file's error gives
// the line and column of the file as written, BOM included.
func TestStandardizeErrorsKeepTheFilesPosition(t *testing.T) {
	_, err := Standardize([]byte("\xef\xbb\xbf{\n\"a\": ,\n}"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("err = %v, want one on line 2", err)
	}
}
