package contextmgr

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// Kind is what a tool output looks like, deciding which lines survive a cut
// (issue 6 item 3).
type Kind string

// Kinds of output.
const (
	KindTest     Kind = "test"     // go test, pytest, jest, cargo test
	KindCompiler Kind = "compiler" // go build/vet, gcc/clang, rustc, tsc
	KindLog      Kind = "log"      // timestamped or levelled lines
	KindDiff     Kind = "diff"     // unified diff
	KindPlain    Kind = "plain"    // anything else: head + tail
)

var (
	// Test runners: lines that mark a failure (and start a block worth
	// keeping) and summary lines, per runner.
	testFailRe = lazyregexp.New(`^(--- FAIL:|FAIL\s|FAIL$|panic:|FAILED |E\s{2,}|_{3,} .* _{3,}$|={3,} FAILURES ={3,}|●|✕|test \S+ \.\.\. FAILED|---- \S+ stdout ----|failures:$|\s+at .*\(.*:\d+:\d+\)$|Error:|\s*AssertionError|\s+\S+_test\.go:\d+:)`)
	testSumRe  = lazyregexp.New(`^(ok\s+\S+|FAIL\s+\S+\s+[\d.]+s|PASS$|FAIL$|={3,} .*(passed|failed|error).* ={3,}$|={3,} short test summary info ={3,}$|Tests?:\s+.*total|Test Suites:.*|Snapshots:.*|Time:\s.*|test result: .*|running \d+ tests?$|\d+ (passed|failed)(, \d+ \w+)*$)`)
	testSigRe  = lazyregexp.New(`^(=== RUN|--- (PASS|FAIL|SKIP):|ok\s+\S+\s+(\d|\(cached\))|={3,} test session starts|collected \d+ items|PASS |FAIL |Test Suites:|running \d+ tests?$|test result: |test \S+ \.\.\. (ok|FAILED|ignored))`)
	// Compilers: file:line[:col]: error, rustc error[E..], tsc file(l,c): error.
	compErrRe  = lazyregexp.New(`^(\S+\.\w+:\d+(:\d+)?:\s*(fatal )?error|\S+\.\w+\(\d+,\d+\): error|error(\[E\d+\])?:|\S+\.go:\d+:\d+: |# \S+$|undefined reference|ld: |collect2:)`)
	compWarnRe = lazyregexp.New(`^(\S+\.\w+:\d+(:\d+)?:\s*warning|warning(\[\w+\])?:)`)
	// Logs: a timestamp or level word near the start of most lines.
	logLineRe = lazyregexp.New(`^(\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|\[?\d{2}:\d{2}:\d{2}|\[?(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\b|time=|level=|\w{3} \d{1,2} \d{2}:\d{2}:\d{2})`)
	logErrRe  = lazyregexp.New(`(?i)\b(error|fatal|panic|exception|traceback|failed|failure|critical)\b`)
	// Diffs.
	diffHeadRe = lazyregexp.New(`^(diff --git |--- |\+\+\+ |@@ |index [0-9a-f]+\.\.|new file mode|deleted file mode|rename (from|to) |Binary files )`)
)

// detectSample is how many lines at each end DetectKind reads.
const detectSample = 400

// DetectKind classifies output by its lines (the command that produced it
// is not needed); long output is judged by its first and last
// detectSample lines. Order: diff, test runner, compiler, log, plain.
func DetectKind(content string) Kind {
	lines := strings.Split(content, "\n")
	if len(lines) > 2*detectSample {
		lines = append(lines[:detectSample:detectSample], lines[len(lines)-detectSample:]...)
	}
	first := ""
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			first = l
			break
		}
	}
	if strings.HasPrefix(first, "diff --git ") || strings.HasPrefix(first, "--- ") && len(lines) > 2 && strings.HasPrefix(lines[1], "+++ ") {
		return KindDiff
	}
	var tests, comp, logs, nonEmpty int
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		nonEmpty++
		if testSigRe.MatchString(l) || testSumRe.MatchString(l) {
			tests++
		}
		if compErrRe.MatchString(l) {
			comp++
		}
		if logLineRe.MatchString(l) {
			logs++
		}
	}
	switch {
	case tests >= 2:
		return KindTest
	case comp >= 1 && tests == 0:
		return KindCompiler
	case nonEmpty > 0 && logs*10 >= nonEmpty*3:
		return KindLog
	}
	return KindPlain
}

// Line priorities: lower survives first.
const (
	prMust  = iota // summary lines, diff headers
	prKey          // failures, errors and their context
	prFrame        // head and tail lines
	prRest
)

// Shape cuts content to max bytes (max <= 0: DefaultMaxToolOutput) keeping
// what matters for its kind: test output keeps failures and the summary
// line, compiler output keeps errors, logs keep head, tail and error lines,
// diffs keep file and hunk headers; plain output is Cap's head + tail.
// Omitted runs of lines become "[... N lines omitted ...]" and a final
// Marker names spillPath. Content that fits is returned unchanged, cut
// false. len(kept) <= max whenever max exceeds the marker.
func Shape(content string, max int, spillPath string) (kept string, kind Kind, cut bool) {
	return shapeExtra(content, max, spill{path: spillPath}, 0)
}

// shapeExtra is Shape for content of which extra bytes were already
// dropped by the tool; the final marker counts them.
func shapeExtra(content string, max int, sp spill, extra int) (kept string, kind Kind, cut bool) {
	if max <= 0 {
		max = DefaultMaxToolOutput
	}
	if len(content) <= max {
		return content, DetectKind(content), false
	}
	kind = DetectKind(content)
	if kind == KindPlain {
		kept, cut = capExtra(content, max, sp, extra)
		return kept, kind, cut
	}
	lines := strings.SplitAfter(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	pr := priorities(lines, kind)
	out, ok := pickLines(lines, pr, max, len(content)+extra, sp)
	if !ok { // lines too long to keep whole: fall back to bytes
		kept, cut = capExtra(content, max, sp, extra)
		return kept, kind, cut
	}
	return out, kind, true
}

// routineTestLine reports lines that are neither failures nor summaries,
// cheaply: the passing-test lines that make up most of long test output.
func routineTestLine(l string) bool {
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "--- PASS", "--- SKIP", "PASS "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return (strings.HasSuffix(l, " PASSED") || strings.HasSuffix(l, " ... ok")) && !strings.HasPrefix(l, " ")
}

// priorities ranks each line for kind.
func priorities(lines []string, kind Kind) []int {
	pr := make([]int, len(lines))
	for i := range pr {
		pr[i] = prRest
	}
	mark := func(i, p int) {
		if i >= 0 && i < len(lines) && p < pr[i] {
			pr[i] = p
		}
	}
	frame := func(head, tail int) {
		for i := 0; i < head; i++ {
			mark(i, prFrame)
		}
		for i := len(lines) - tail; i < len(lines); i++ {
			mark(i, prFrame)
		}
	}
	for i, raw := range lines {
		l := strings.TrimRight(raw, "\r\n")
		switch kind {
		case KindTest:
			if routineTestLine(l) {
				continue
			}
			if testSumRe.MatchString(l) {
				mark(i, prMust)
			}
			if testFailRe.MatchString(l) {
				// The failure's own lines follow until the next test.
				for j := i + 1; j < i+6 && j < len(lines) && !testSigRe.MatchString(lines[j]); j++ {
					mark(j, prKey)
				}
				mark(i, prMust)
			}
		case KindCompiler:
			if compErrRe.MatchString(l) {
				mark(i, prMust)
				for j := i + 1; j < i+4 && j < len(lines); j++ { // rustc/gcc context lines
					mark(j, prKey)
				}
			} else if compWarnRe.MatchString(l) {
				mark(i, prFrame)
			}
		case KindLog:
			if logErrRe.MatchString(l) {
				mark(i, prKey)
			}
		case KindDiff:
			if diffHeadRe.MatchString(l) {
				mark(i, prMust)
			}
		}
	}
	switch kind {
	case KindTest, KindCompiler:
		frame(3, 5)
	case KindLog:
		frame(10, 20)
	case KindDiff:
		frame(0, 0)
		for i := range lines { // changed lines near each hunk header first
			if pr[i] == prMust && strings.HasPrefix(lines[i], "@@") {
				for j := i + 1; j < i+8 && j < len(lines) && pr[j] == prRest; j++ {
					mark(j, prFrame)
				}
			}
		}
	}
	return pr
}

// pickLines keeps lines by priority (then by position) while the shaped
// text, with omission markers and the final Marker, fits max. ok is false
// when not even one kept line fits.
func pickLines(lines []string, pr []int, max, total int, sp spill) (string, bool) {
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	// By priority, then nearest an edge first: head and tail fill
	// together, the last lines before earlier tail lines.
	edge := func(i int) int { return min(i, len(lines)-1-i) }
	sort.SliceStable(order, func(a, b int) bool {
		x, y := order[a], order[b]
		if pr[x] != pr[y] {
			return pr[x] < pr[y]
		}
		return edge(x) < edge(y)
	})
	final := sp.marker(total, total) + "\n"
	const gapCost = len("[... 1000000 lines omitted ...]\n")
	budget := max - len(final)
	keep := make([]bool, len(lines))
	used, n := 0, 0
	for _, i := range order {
		if pr[i] == prRest {
			break
		}
		// Each kept line may open a new gap marker.
		cost := len(lines[i]) + gapCost
		if used+cost > budget {
			continue
		}
		keep[i] = true
		used += cost
		n++
	}
	if n == 0 {
		return "", false
	}
	var b strings.Builder
	keptBytes := 0
	for i := 0; i < len(lines); {
		if keep[i] {
			b.WriteString(lines[i])
			if !strings.HasSuffix(lines[i], "\n") {
				b.WriteByte('\n')
			}
			keptBytes += len(lines[i])
			i++
			continue
		}
		j := i
		for j < len(lines) && !keep[j] {
			j++
		}
		fmt.Fprintf(&b, "[... %d lines omitted ...]\n", j-i)
		i = j
	}
	b.WriteString(sp.marker(total-keptBytes, total))
	return b.String(), true
}
