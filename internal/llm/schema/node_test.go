package schema

import (
	"bytes"
	"encoding/json"
	"testing"
)

// stdString is encoding/json's encoding of s without HTML escaping, the
// reference encodeString must match.
func stdString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}

var stringSeeds = []string{"", "plain", `quote " and \ backslash`, "tab\there\nnew\rret", "\x00\x01\x1f\x7f",
	"<b>&amp;</b>", "line\u2028sep\u2029para", "bad \xff\xfe utf8", "日本語 ✓", "\xed\xa0\x80 surrogate"}

func TestEncodeString(t *testing.T) {
	for _, s := range stringSeeds {
		var b bytes.Buffer
		encodeString(&b, s)
		if got, want := b.String(), stdString(s); got != want {
			t.Errorf("encodeString(%q) = %s, want %s", s, got, want)
		}
	}
}

// FuzzEncodeString checks encodeString against encoding/json for any
// string.
func FuzzEncodeString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		encodeString(&b, s)
		if got, want := b.String(), stdString(s); got != want {
			t.Fatalf("encodeString(%q) = %s, want %s", s, got, want)
		}
	})
}
