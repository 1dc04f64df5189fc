package run

import (
	"slices"
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
