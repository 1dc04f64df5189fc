package patch

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseReadsEveryOperation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch string
		want  []FileOp
	}{
		{
			name:  "add, delete, update with move and context",
			patch: "*** Begin Patch\n*** Add File: a/new.txt\n+one\n+\n+two\n*** Delete File: old.txt\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n-    print(\"Hi\")\n+    print(\"Hello\")\n*** End Patch\n",
			want: []FileOp{
				{Kind: Add, Path: "a/new.txt", Content: "one\n\ntwo\n", Line: 2},
				{Kind: Delete, Path: "old.txt", Line: 6},
				{Kind: Update, Path: "src/app.py", MoveTo: "src/main.py", Line: 7, Hunks: []Hunk{{
					Contexts: []string{"def greet():"}, Header: "@@ def greet():", Line: 9,
					Old: []string{"    print(\"Hi\")"}, New: []string{"    print(\"Hello\")"},
				}}},
			},
		},
		{
			name:  "several hunks, end of file, blank context without its space",
			patch: "*** Begin Patch\n*** Update File: f.go\n@@\n a\n-b\n+B\n\n c\n@@ func g() {\n@@   return\n-x\n+y\n*** End of File\n*** End Patch",
			want: []FileOp{{Kind: Update, Path: "f.go", Line: 2, Hunks: []Hunk{
				{Header: "@@", Line: 3, Old: []string{"a", "b", "", "c"}, New: []string{"a", "B", "", "c"}},
				{Header: "@@ func g() {", Contexts: []string{"func g() {", "  return"}, Line: 9, Old: []string{"x"}, New: []string{"y"}, AtEnd: true},
			}}},
		},
		{
			name:  "first hunk without @@, unified-diff ranges, CRLF, trailing blank lines dropped",
			patch: "*** Begin Patch\r\n*** Update File: f.txt\r\n keep\r\n+added\r\n\r\n@@ -10,3 +10,4 @@ class A:\r\n-x\r\n+y\r\n\\ No newline at end of file\r\n\r\n*** End Patch\r\n",
			want: []FileOp{{Kind: Update, Path: "f.txt", Line: 2, Hunks: []Hunk{
				{Line: 3, Old: []string{"keep"}, New: []string{"keep", "added"}},
				{Header: "@@ -10,3 +10,4 @@ class A:", Contexts: []string{"class A:"}, Line: 6, Old: []string{"x"}, New: []string{"y"}},
			}}},
		},
		{
			name:  "heredoc wrapper, padded markers, pure rename",
			patch: "<<'EOF'\n  *** Begin Patch  \n*** Update File: a.txt\n*** Move to: b.txt\n *** End Patch\nEOF\n",
			want:  []FileOp{{Kind: Update, Path: "a.txt", MoveTo: "b.txt", Line: 3}},
		},
		{
			name:  "code fence wrapper and an empty added file",
			patch: "```\n*** Begin Patch\n*** Add File: empty.txt\n*** End Patch\n```",
			want:  []FileOp{{Kind: Add, Path: "empty.txt", Line: 3}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.patch)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				for j := range got[i].Hunks {
					got[i].Hunks[j].Kept = nil // TestParseMarksContextLines checks it
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, patch, want string
	}{
		{"no begin", "*** Update File: a\n@@\n-a\n*** End Patch", `invalid patch: a patch starts with a line "*** Begin Patch"`},
		{"cut short", "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n", `and ends with a line "*** End Patch"`},
		{"empty", "*** Begin Patch\n*** End Patch", "holds no file operation"},
		{"unknown header", "*** Begin Patch\n*** Rename File: a\n*** End Patch", `line 2: "*** Rename File: a" is not a file header`},
		{"update without hunks", "*** Begin Patch\n*** Update File: a.txt\n*** End Patch", "line 2: *** Update File: a.txt has no hunk"},
		{"bad hunk line", "*** Begin Patch\n*** Update File: a.txt\n@@\n a\nb\n*** End Patch", `line 5: hunk line "b" of a.txt must start with ' ' (context), '-' (remove) or '+' (add)`},
		{"add line without plus", "*** Begin Patch\n*** Add File: n.txt\n+a\nb\n*** End Patch", `line 4: in *** Add File: n.txt every line starts with '+'`},
		{"delete with body", "*** Begin Patch\n*** Delete File: d.txt\n-x\n*** End Patch", "line 3: *** Delete File: takes no lines"},
		{"hunk with no lines", "*** Begin Patch\n*** Update File: a.txt\n@@ f\n*** End Patch", "line 3: a hunk of a.txt has no lines"},
		{"eof marker alone", "*** Begin Patch\n*** Update File: a.txt\n@@\n*** End of File\n*** End Patch", "line 4: *** End of File ends a hunk that has no lines"},
		{"no path", "*** Begin Patch\n*** Add File: \n*** End Patch", "line 2: Add File needs a path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.patch)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want containing %q", err, tc.want)
			}
		})
	}
}

func TestParseMarksContextLines(t *testing.T) {
	ops, err := Parse("*** Begin Patch\n*** Update File: f\n@@\n a\n-b\n+B\n+C\n\n c\n*** End Patch")
	if err != nil {
		t.Fatal(err)
	}
	h := ops[0].Hunks[0]
	if want := []int{0, -1, -1, 2, 3}; !reflect.DeepEqual(h.Kept, want) {
		t.Errorf("Kept = %v, want %v (New %q, Old %q)", h.Kept, want, h.New, h.Old)
	}
}

func TestPathsListsEveryFileOnce(t *testing.T) {
	got, err := Paths("*** Begin Patch\n*** Update File: a\n*** Move to: .git/hooks/pre-commit\n*** Add File: b\n+x\n*** Delete File: a\n*** End Patch")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", ".git/hooks/pre-commit", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
}
