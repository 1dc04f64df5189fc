package run

import (
	"slices"
	"strings"
	"testing"
)

func TestFileMentionsSkipAddressesAndResources(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		want   []string
	}{
		{"fix @main.go", []string{"main.go"}},
		{"@a.go and @dir/ please", []string{"a.go", "dir/"}},
		{"see @main.go.", []string{"main.go"}},
		{"(@x/y.md)", []string{"x/y.md"}},
		{"mail bob@example.com", nil},
		{"read @docs:file:///a.md", nil},
		{"@../up/file.txt", []string{"../up/file.txt"}},
		{"a@b @c", []string{"c"}},
	} {
		var got []string
		for _, sm := range fileMention.FindAllStringSubmatch(tc.prompt, -1) {
			if p := mentionPath(sm[1]); p != "" && !isResourceMention(p) {
				got = append(got, p)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.prompt, got, tc.want)
		}
	}
}

func FuzzFileMentions(f *testing.F) {
	for _, s := range []string{"fix @main.go", "(@x/y.md)", "bob@example.com", "@srv:file:///a", "@'.'", "@", "@@a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prompt string) {
		for _, sm := range fileMention.FindAllStringSubmatch(prompt, -1) {
			p := mentionPath(sm[1])
			if strings.ContainsAny(p, " \t\n@") {
				t.Fatalf("mention %q of %q holds white space or @", p, prompt)
			}
			_ = isResourceMention(p)
		}
	})
}
