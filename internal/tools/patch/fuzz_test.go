package patch

import (
	"errors"
	"testing"
)

// FuzzParsePatch: Parse never panics; what it accepts is well formed
// (paths set, every hunk has lines, Kept points at equal context lines),
// and applying it to files holding arbitrary text never panics and fails
// only with *Error.
func FuzzParsePatch(f *testing.F) {
	for _, s := range []string{
		wrap("*** Add File: a\n+x\n*** Delete File: b\n*** Update File: c\n*** Move to: d\n@@ def f():\n-x\n+y\n"),
		wrap("*** Update File: f\n@@\n a\n-b\n+B\n\n c\n@@ func g() {\n@@   return\n-x\n+y\n*** End of File\n"),
		"<<'EOF'\n*** Begin Patch\r\n*** Update File: f\r\n keep\r\n+added\r\n@@ -1,2 +1,3 @@ x\r\n-x\r\n*** End Patch\r\nEOF",
		"```\n*** Begin Patch\n*** Add File: e\n*** End Patch\n```",
		wrap("*** Update File: f\n@@\n+only added\n"),
	} {
		f.Add(s, "a\nb\nc\n")
	}
	f.Fuzz(func(t *testing.T, text, content string) {
		ops, err := Parse(text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			return
		}
		if len(ops) == 0 {
			t.Fatal("no operations and no error")
		}
		files := memFS{}
		for _, op := range ops {
			if op.Path == "" || op.Kind < Add || op.Kind > Update {
				t.Fatalf("bad op %#v", op)
			}
			files[op.Path] = content
			for _, h := range op.Hunks {
				if len(h.Old)+len(h.New) == 0 || len(h.Kept) != len(h.New) {
					t.Fatalf("bad hunk %#v", h)
				}
				for j, k := range h.Kept {
					if k >= len(h.Old) || (k >= 0 && h.Old[k] != h.New[j]) {
						t.Fatalf("Kept[%d] = %d in %#v", j, k, h)
					}
				}
			}
		}
		if _, err := Apply(ops, files); err != nil {
			var ae *Error
			if !errors.As(err, &ae) {
				t.Fatalf("apply error %T %v is not a *Error", err, err)
			}
		}
	})
}
