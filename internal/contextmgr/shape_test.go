package contextmgr

import (
	"fmt"
	"strings"
	"testing"
)

func repeatf(n int, format string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, format, i, i)
	}
	return b.String()
}

func TestShape(t *testing.T) {
	tests := []struct {
		name string
		in   string
		kind Kind
		keep []string // lines that must survive
	}{
		{
			"go test", repeatf(150, "=== RUN   TestOk%d\n--- PASS: TestOk%d (0.00s)\n") +
				"=== RUN   TestParse\n    parse_test.go:42: got \"\", want \"x\"\n--- FAIL: TestParse (0.00s)\n" +
				repeatf(150, "=== RUN   TestMore%d\n--- PASS: TestMore%d (0.00s)\n") +
				"FAIL\nFAIL\tgithub.com/x/pkg/parse\t0.012s\n",
			KindTest, []string{"--- FAIL: TestParse (0.00s)", `parse_test.go:42: got "", want "x"`, "FAIL\tgithub.com/x/pkg/parse\t0.012s"},
		},
		{
			"pytest", "============================= test session starts ==============================\ncollected 400 items\n\n" +
				repeatf(400, "tests/test_mod.py::test_case_%d_%d PASSED\n") +
				"=================================== FAILURES ===================================\n___________________________________ test_add ___________________________________\n\n    def test_add():\n>       assert add(1, 1) == 3\nE       assert 2 == 3\n\ntests/test_add.py:4: AssertionError\n=========================== short test summary info ============================\nFAILED tests/test_add.py::test_add - assert 2 == 3\n========================= 1 failed, 400 passed in 0.52s =========================\n",
			KindTest, []string{"E       assert 2 == 3", "FAILED tests/test_add.py::test_add - assert 2 == 3", "========================= 1 failed, 400 passed in 0.52s ========================="},
		},
		{
			"jest", repeatf(300, "PASS src/c%d.test.js\n  ✓ renders %d (3 ms)\n") +
				"FAIL src/sum.test.js\n  ● sum › adds\n\n    expect(received).toBe(expected)\n\n    Expected: 3\n    Received: 2\n\n" +
				"Test Suites: 1 failed, 300 passed, 301 total\nTests:       1 failed, 300 passed, 301 total\n",
			KindTest, []string{"FAIL src/sum.test.js", "  ● sum › adds", "Tests:       1 failed, 300 passed, 301 total"},
		},
		{
			"cargo test", "running 500 tests\n" + repeatf(500, "test tests::case_%d_%d ... ok\n") +
				"test tests::it_fails ... FAILED\n\nfailures:\n\n---- tests::it_fails stdout ----\nthread 'tests::it_fails' panicked at src/lib.rs:10:9:\nassertion failed\n\n" +
				"test result: FAILED. 500 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n",
			KindTest, []string{"test tests::it_fails ... FAILED", "---- tests::it_fails stdout ----", "test result: FAILED. 500 passed; 1 failed"},
		},
		{
			"gcc", repeatf(200, "src/a.c:%d:%d: warning: unused variable 'x' [-Wunused-variable]\n") +
				"src/b.c:7:3: error: 'y' undeclared (first use in this function)\n    7 |   y = 1;\n      |   ^\n" +
				repeatf(200, "src/c.c:%d:%d: warning: implicit conversion\n"),
			KindCompiler, []string{"src/b.c:7:3: error: 'y' undeclared (first use in this function)", "    7 |   y = 1;"},
		},
		{
			"rustc", repeatf(150, "warning: unused import `%d` %d\n") + "error[E0308]: mismatched types\n --> src/main.rs:2:5\n  |\n2 |     \"x\"\n  |     ^^^ expected `i32`, found `&str`\n" + repeatf(150, "warning: unused variable %d %d\n"),
			KindCompiler, []string{"error[E0308]: mismatched types", " --> src/main.rs:2:5"},
		},
		{
			"log", repeatf(800, "2026-11-30T05:00:%02d INFO request handled id=%d\n") + "2026-11-30T05:14:00 ERROR db: connection refused\n" + repeatf(800, "2026-11-30T05:15:%02d INFO request handled id=%d\n"),
			KindLog, []string{"2026-11-30T05:00:00 INFO request handled id=0", "2026-11-30T05:14:00 ERROR db: connection refused", "2026-11-30T05:15:799 INFO request handled id=799"},
		},
		{
			"diff", "diff --git a/x.go b/x.go\nindex 1111111..2222222 100644\n--- a/x.go\n+++ b/x.go\n" +
				repeatf(30, "@@ -%d,60 +%d,60 @@ func f() {\n"+strings.Repeat("-\told line\n+\tnew line\n", 30)),
			KindDiff, []string{"diff --git a/x.go b/x.go", "+++ b/x.go", "@@ -0,60 +0,60 @@ func f() {", "@@ -29,60 +29,60 @@ func f() {"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectKind(tt.in); got != tt.kind {
				t.Fatalf("kind %s, want %s", got, tt.kind)
			}
			const spill = "/s/tool-output/call_1.txt"
			kept, kind, cut := Shape(tt.in, DefaultMaxToolOutput, spill)
			if !cut || kind != tt.kind {
				t.Fatalf("cut %v kind %s", cut, kind)
			}
			if len(kept) > DefaultMaxToolOutput || len(kept) >= len(tt.in) {
				t.Fatalf("kept %d of %d bytes, max %d", len(kept), len(tt.in), DefaultMaxToolOutput)
			}
			for _, l := range tt.keep {
				if !strings.Contains(kept, l) {
					t.Errorf("lost %q in:\n%s", l, kept)
				}
			}
			if !strings.Contains(kept, "full output in "+spill) {
				t.Error("no marker naming the spill file")
			}
			// Every kept line is a line of the input, in order.
			pos := 0
			for _, l := range strings.Split(strings.TrimSuffix(kept, "\n"), "\n") {
				if strings.HasPrefix(l, "[... ") {
					continue
				}
				k := strings.Index(tt.in[pos:], l+"\n")
				if k < 0 {
					t.Fatalf("kept line %q is not an input line in order", l)
				}
				pos += k + len(l) + 1
			}
		})
	}
}

func TestShapePlainAndFits(t *testing.T) {
	small := "--- FAIL: TestX\nFAIL\tpkg\t0.1s\n"
	if kept, _, cut := Shape(small, 4096, "/p"); cut || kept != small {
		t.Error("Shape changed output that fits")
	}
	plain := strings.Repeat("lorem ipsum dolor sit amet ", 1000)
	kept, kind, cut := Shape(plain, 2000, "/p")
	want, _ := Cap(plain, 2000, "/p")
	if kind != KindPlain || !cut || kept != want {
		t.Errorf("plain output: kind %s, not Cap's head+tail", kind)
	}
}

func FuzzShape(f *testing.F) {
	f.Add("--- FAIL: TestX (0.00s)\n    x_test.go:3: bad\nFAIL\tpkg\t0.1s\n", 40)
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", 30)
	f.Add("2026-01-01T00:00:00 ERROR x\n2026-01-01T00:00:01 INFO y\n", 20)
	f.Add("src/a.c:1:2: error: no\n", 10)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 {
			max = -max
		}
		max = max%8192 + 1
		const spill = "/s/tool-output/c.txt"
		kept, _, cut := Shape(s, max, spill)
		if !cut {
			if kept != s {
				t.Fatal("uncut output changed")
			}
			return
		}
		if max > len(Marker(len(s), spill))+2 && len(kept) > max {
			t.Fatalf("len %d > max %d", len(kept), max)
		}
		if !strings.Contains(kept, "bytes omitted") {
			t.Fatal("cut without a marker")
		}
	})
}

func BenchmarkShapeTestOutput1MB(b *testing.B) {
	in := repeatf(20000, "=== RUN   TestOk%d\n--- PASS: TestOk%d (0.00s)\n") + "--- FAIL: TestX (0.00s)\nFAIL\tpkg\t1.0s\n"
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Shape(in, DefaultMaxToolOutput, "/p")
	}
}
