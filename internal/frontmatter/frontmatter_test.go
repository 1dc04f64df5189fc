package frontmatter

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseReadsFieldsAndBody(t *testing.T) {
	cases := []struct {
		name, in string
		fields   map[string]any
		body     string
		err      error
	}{
		{"no front matter", "# Title\nbody\n", map[string]any{}, "# Title\nbody\n", nil},
		{"scalars", "---\nname: pdf\ndescription: Read PDFs.\n---\nBody\n", map[string]any{"name": "pdf", "description": "Read PDFs."}, "Body\n", nil},
		{"crlf and bom", "\ufeff---\r\nname: x\r\n---\r\n\r\nBody\r\n", map[string]any{"name": "x"}, "Body\n", nil},
		{"list", "---\nallowed-tools:\n  - Read\n  - Bash(go test:*)\n---\n", map[string]any{"allowed-tools": []string{"Read", "Bash(go test:*)"}}, "", nil},
		{"unquoted colon falls back to lines", "---\ndescription: Fix: the build\nmodel: haiku\n---\nx", map[string]any{"description": "Fix: the build", "model": "haiku"}, "x", nil},
		{"empty", "---\n---\nx", map[string]any{}, "x", nil},
		{"unclosed", "---\nname: x\n", nil, "", ErrUnclosed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse([]byte(c.in))
			if !errors.Is(err, c.err) {
				t.Fatalf("err = %v, want %v", err, c.err)
			}
			if err != nil {
				return
			}
			if !reflect.DeepEqual(d.Fields, c.fields) || d.Body != c.body {
				t.Errorf("got %#v %q, want %#v %q", d.Fields, d.Body, c.fields, c.body)
			}
		})
	}
}

func TestParseRejectsFrontMatterThatIsNeitherYAMLNorLines(t *testing.T) {
	_, err := Parse([]byte("---\n  - a\n  b: [\n---\n"))
	if err == nil || !strings.Contains(err.Error(), "front matter") {
		t.Fatalf("err = %v, want a front matter error", err)
	}
}

func TestListSplitsClaudeAndSpecSpellings(t *testing.T) {
	cases := map[string][]string{
		"Bash(git add:*), Bash(git status:*), Read": {"Bash(git add:*)", "Bash(git status:*)", "Read"},
		"Read Grep Bash(go test ./...)":             {"Read", "Grep", "Bash(go test ./...)"},
		"":                                          nil,
	}
	for in, want := range cases {
		d := Doc{Fields: map[string]any{"allowed-tools": in}}
		if got := d.List("allowed-tools"); !reflect.DeepEqual(got, want) {
			t.Errorf("List(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "---\n---\n", "---\nname: a\ndescription: b: c\n---\nbody", "---\nx: [1, 2\n---", "---\na:\n  b: c\n---\n", "---\r\nk: v\r\n---\r\n", "---\n- 1\n---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			return
		}
		_ = d.String("name")
		_ = d.List("allowed-tools")
		if len(d.Body) > len(data) {
			t.Fatalf("body longer than input")
		}
	})
}
