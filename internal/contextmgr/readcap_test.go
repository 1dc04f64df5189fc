package contextmgr

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// listing renders lines from..to of a file of total lines the way
// read_file does ("%5d\t<text>\n"), with its footer when to < total.
func listing(from, to, total, width int) string {
	var b strings.Builder
	for n := from; n <= to; n++ {
		line := fmt.Sprintf("func f%04d() {} //", n)
		fmt.Fprintf(&b, "%5d\t%s%s\n", n, line, strings.Repeat("x", max(0, width-len(line))))
	}
	if to < total {
		fmt.Fprintf(&b, "[showing lines %d-%d of %d; call read_file with offset=%d to read more]\n", from, to, total, to+1)
	}
	return b.String()
}

var readMarkerRe = regexp.MustCompile(`\[\.\.\. lines (\d+)-(\d+) omitted \((\d+) lines(?:, (\d+) bytes)?\): read them (in parts, starting )?with read_file path="([^"]+)" offset=(\d+) limit=(\d+) \.\.\.\]\n`)

// checkCapRead asserts CapRead's contract on one input: within max, the
// kept lines are the input's own, every line the input showed is kept or
// inside exactly one marker range, markers name the path and a call that
// starts their range, and the tool's footer no longer sends the model
// past the cut.
func checkCapRead(t *testing.T, in, kept string, max int, path string) {
	t.Helper()
	if len(kept) > max {
		t.Fatalf("kept %d bytes, max %d", len(kept), max)
	}
	inLines, _, _ := parseRead(in)
	byN := map[int]string{}
	for _, l := range inLines {
		byN[l.n] = l.text
	}
	outLines, _, ok := parseRead(kept)
	if !ok && len(inLines) > 0 && !readMarkerRe.MatchString(kept) {
		t.Fatalf("output is not a listing:\n%s", kept)
	}
	seen := map[int]int{}
	for _, l := range outLines {
		if byN[l.n] != l.text {
			t.Fatalf("line %d changed: %q, was %q", l.n, l.text, byN[l.n])
		}
		seen[l.n]++
	}
	for _, m := range readMarkerRe.FindAllStringSubmatch(kept, -1) {
		first, _ := strconv.Atoi(m[1])
		last, _ := strconv.Atoi(m[2])
		n, _ := strconv.Atoi(m[3])
		off, _ := strconv.Atoi(m[7])
		limit, _ := strconv.Atoi(m[8])
		if n != last-first+1 || m[6] != path || off != first || limit < 1 || limit > n || (m[5] == "") != (limit == n) {
			t.Fatalf("bad marker %q", m[0])
		}
		for k := first; k <= last; k++ {
			seen[k]++
		}
	}
	lo, hi := inLines[0].n, inLines[len(inLines)-1].n
	for k := lo; k <= hi; k++ {
		if seen[k] != 1 {
			t.Fatalf("line %d accounted for %d times:\n%s", k, seen[k], kept)
		}
	}
	if len(kept) < len(in) && regexp.MustCompile(`(?m)^\[showing lines \d+-\d+ of \d+; call read_file with offset=`).MatchString(kept) {
		t.Fatalf("tool footer kept next to a cut:\n%s", kept)
	}
}

func TestCapRead(t *testing.T) {
	mid := listing(1, 300, 300, 70)                 // the QA engineer's 22 KB file
	huge := listing(1, 2000, 5000, 30)              // read_file's default window of a big file
	twice, _, _ := CapRead(mid, 4096, 4096, "a.go") // a result capped before
	tests := []struct {
		name        string
		in          string
		max         int
		wantCut     bool
		wantFooter  string
		wantMarkers int
	}{
		{"fits", listing(1, 20, 20, 30), 4096, false, "", 0},
		{"300 lines", mid, 4096, true, "", 1},
		{"300 lines at 16 KB", mid, 16384, true, "", 1},
		{"stopped early", huge, 4096, true, "[the file has 5000 lines; after the omitted range, continue with read_file offset=2001]\n", 1},
		{"offset read", listing(100, 400, 900, 60), 2048, true, "offset=401]\n", 1},
		{"capped again smaller", twice, 1500, true, "", 1},
		{"capped again, same size", twice, 4096, false, "", 1},
		{"tiny cap", mid, 100, true, "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kept, cut, ok := CapRead(tc.in, tc.max, tc.max, "a.go")
			if !ok || cut != tc.wantCut {
				t.Fatalf("ok %v cut %v, want cut %v", ok, cut, tc.wantCut)
			}
			if !cut {
				if kept != tc.in {
					t.Fatal("uncut content changed")
				}
			}
			if tc.max >= 1024 {
				checkCapRead(t, tc.in, kept, tc.max, "a.go")
			}
			if n := len(readMarkerRe.FindAllString(kept, -1)); n != tc.wantMarkers {
				t.Fatalf("%d markers, want %d:\n%s", n, tc.wantMarkers, kept)
			}
			if tc.wantFooter != "" && !strings.HasSuffix(kept, tc.wantFooter) {
				t.Fatalf("footer:\n%s", kept[max(0, len(kept)-300):])
			}
		})
	}
	// The QA engineer's numbers: 300 lines at 4 KB keep the head and tail
	// and name 31-ish..281-ish exactly, with a call that fits one result.
	kept, _, _ := CapRead(mid, 4096, 4096, "main.go")
	m := readMarkerRe.FindStringSubmatch(kept)
	limit, _ := strconv.Atoi(m[8])
	if got := len(listing(1, limit, 300, 70)); got > 4096 {
		t.Fatalf("suggested limit %d gives %d bytes, more than one result", limit, got)
	}
	// A result capped twice: the marker's byte count covers both cuts.
	midLines, _, _ := parseRead(mid)
	for _, max := range []int{3000, 1500, 700} {
		again, _, _ := CapRead(twice, max, max, "a.go")
		for _, m := range readMarkerRe.FindAllStringSubmatch(again, -1) {
			first, _ := strconv.Atoi(m[1])
			last, _ := strconv.Atoi(m[2])
			want := 0
			for _, l := range midLines[first-1 : last] {
				want += len(l.text)
			}
			if m[4] != strconv.Itoa(want) {
				t.Fatalf("cap %d: marker %q counts %s bytes, lines %d-%d hold %d", max, m[0], m[4], first, last, want)
			}
		}
	}
	for _, s := range []string{"not a listing", "(empty file)", "    1\tok\nplain trailing text\n"} {
		if _, _, ok := CapRead(s, 10, 10, "x"); ok {
			t.Fatalf("%q parsed as a listing", s)
		}
	}
}

func FuzzCapRead(f *testing.F) {
	f.Add(listing(1, 300, 300, 70), 4096)
	f.Add(listing(1, 2000, 5000, 30), 2048)
	f.Add(listing(7, 9, 9, 3), 40)
	f.Add("    1\tx\n[... lines 2-9 omitted (8 lines): read them with read_file path=\"a\" offset=2 limit=8 ...]\n   10\ty\n", 64)
	f.Fuzz(func(t *testing.T, in string, max int) {
		max = max%20000 + 20000
		if max < 0 {
			max = -max
		}
		kept, cut, ok := CapRead(in, max, max, "p.go")
		if !ok {
			return
		}
		if !cut && kept != in {
			t.Fatal("uncut content changed")
		}
		lines, footer, _ := parseRead(in)
		fixed := 0
		for _, f := range rewriteFooter(footer) {
			fixed += len(f)
		}
		gaps := 1
		for i := 1; i < len(lines); i++ {
			if lines[i].n != lines[i-1].n+1 {
				gaps++
			}
		}
		markerLen := len(ReadMarker("p.go", 1, 2*lines[len(lines)-1].n, len(in), lines[len(lines)-1].n)) + 1
		if !cut || fixed+gaps*markerLen > max || lines[len(lines)-1].n-lines[0].n > 100000 {
			return // the contract gives no bound; the walk below would be long
		}
		checkCapRead(t, in, kept, max, "p.go")
	})
}

func TestToolOutputCap(t *testing.T) {
	tests := []struct{ window, configured, want int }{
		{0, 0, 4096},
		{8192, 0, 4096},
		{16384, 0, 4096},
		{16384 + (131072-16384)/2, 0, 4096 + 6144},
		{131072, 0, 16384},
		{1 << 20, 0, 16384},
		{1 << 20, 2048, 2048},
		{4096, 65536, 65536},
	}
	for _, tc := range tests {
		if got := ToolOutputCap(tc.window, tc.configured); got != tc.want {
			t.Errorf("ToolOutputCap(%d, %d) = %d, want %d", tc.window, tc.configured, got, tc.want)
		}
	}
}

func TestShapeTurnReadAndRawBytes(t *testing.T) {
	dir := t.TempDir()
	m := NewManager(dir)
	m.Cache = nil
	read := listing(1, 300, 300, 70)
	bash := strings.Repeat("1\n", 3000) + strings.Repeat("9\n", 3000)
	const raw = 38_888_896
	out, err := m.ShapeTurn(1, []Result{
		{CallID: "r1", Content: read, Read: &FileRead{Path: "/w/main.go"}, SideEffect: "read"},
		{CallID: "b1", Content: bash, RawBytes: raw, SideEffect: "shell"},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkCapRead(t, read, out[0], DefaultMaxToolOutput, "/w/main.go")
	if _, err := os.Stat(filepath.Join(dir, "tool-output", "r1.txt")); err == nil {
		t.Fatal("a cut read was spilled; the file itself holds the text")
	}
	mm := regexp.MustCompile(`\[\.\.\. (\d+) bytes omitted; full output in (\S+),`).FindStringSubmatch(out[1])
	if mm == nil {
		t.Fatalf("bash marker: %q", out[1])
	}
	omitted, _ := strconv.Atoi(mm[1])
	kept := strings.Count(out[1], "1\n") + strings.Count(out[1], "9\n")
	if omitted != raw-2*kept {
		t.Fatalf("omitted %d, want raw %d - kept %d", omitted, raw, 2*kept)
	}
	if b, err := os.ReadFile(mm[2]); err != nil || string(b) != bash {
		t.Fatalf("spill %v", err)
	}
}

// readHistory is a user prompt and one read_file call whose result is res.
func readHistory(res string) []llm.Message {
	return []llm.Message{
		llm.TextMessage(llm.RoleUser, "What does f0150 return?"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "r1", Name: "read_file", Arguments: `{"path":"main.go"}`}}}},
		llm.ToolResultMessage(llm.ToolResult{CallID: "r1", Name: "read_file", Content: res}),
	}
}

func TestPlanRecapsHugeRecentResult(t *testing.T) {
	read, _, _ := CapRead(listing(1, 300, 300, 70), 4096, 4096, "main.go")
	spilled, _ := Cap(strings.Repeat("log line\n", 2000), 4096, "/s/tool-output/b1.txt")
	bashHist := readHistory(spilled)
	bashHist[1].Parts[0].ToolCall.Name, bashHist[2].Parts[0].ToolResult.Name = "bash", "bash"
	tests := []struct {
		name    string
		hist    []llm.Message
		budget  int
		check   func(t *testing.T, res string)
		cannot  bool
		wantMax int
	}{
		{"read result", readHistory(read), 2034, func(t *testing.T, res string) {
			checkCapRead(t, read, res, 2034, "main.go")
		}, false, 2034},
		{"spilled result keeps its spill path", bashHist, 2034, func(t *testing.T, res string) {
			if !strings.Contains(res, "full output in /s/tool-output/b1.txt, read it with read_file") {
				t.Fatalf("spill path lost: %q", res)
			}
		}, false, 2034},
		{"even the minimal history does not fit", []llm.Message{llm.TextMessage(llm.RoleUser, strings.Repeat("x", 5000))}, 2034, nil, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := PlanCompaction(tc.hist, tc.budget, 4)
			if tc.cannot {
				if err == nil {
					t.Fatalf("plan %+v, want ErrCannotShrink", p)
				}
				return
			}
			if err != nil || len(p.Recap) != 1 || p.After > tc.budget {
				t.Fatalf("plan %+v, %v", p, err)
			}
			out, log := ApplyCompaction(tc.hist, p, "")
			if len(log) != 0 || len(out) != len(tc.hist) {
				t.Fatalf("apply: %d messages, log %v", len(out), log)
			}
			if got := HistoryBytes(out); got > tc.budget {
				t.Fatalf("history %d bytes after recap, budget %d", got, tc.budget)
			}
			tc.check(t, out[2].ToolResults()[0].Content)
		})
	}
}

func TestRepairMergesConsecutiveUserMessages(t *testing.T) {
	img := llm.Part{Type: llm.PartImage, Image: &llm.Image{MediaType: "image/png", Data: []byte{1}}}
	call := llm.Message{Role: llm.RoleAssistant, Parts: []llm.Part{{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: "c1", Name: "ls"}}}}
	result := llm.ToolResultMessage(llm.ToolResult{CallID: "c1", Name: "ls", Content: "a"})
	tests := []struct {
		name string
		in   []llm.Message
		want []string // role:text per message
	}{
		{"failed prompt then a new one", []llm.Message{llm.TextMessage(llm.RoleUser, "first\n"), llm.TextMessage(llm.RoleUser, "second")}, []string{"user:first\n\nsecond"}},
		{"three in a row", []llm.Message{llm.TextMessage(llm.RoleUser, "a"), llm.TextMessage(llm.RoleUser, "b"), llm.TextMessage(llm.RoleUser, "c")}, []string{"user:a\n\nb\n\nc"}},
		{"alternating untouched", []llm.Message{llm.TextMessage(llm.RoleUser, "a"), llm.TextMessage(llm.RoleAssistant, "b"), llm.TextMessage(llm.RoleUser, "c")}, []string{"user:a", "assistant:b", "user:c"}},
		{"tool results are not user text", []llm.Message{llm.TextMessage(llm.RoleUser, "a"), call, result, llm.TextMessage(llm.RoleUser, "b")}, []string{"user:a", "assistant:", "tool:", "user:b"}},
		{"image kept in order", []llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{img}}, llm.TextMessage(llm.RoleUser, "what is this?")}, []string{"user:what is this?"}},
		{"system between is kept", []llm.Message{llm.TextMessage(llm.RoleUser, "a"), llm.TextMessage(llm.RoleSystem, "plan"), llm.TextMessage(llm.RoleUser, "b")}, []string{"user:a", "system:plan", "user:b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]llm.Message(nil), tc.in...)
			out, log := Repair(in)
			var got []string
			for _, m := range out {
				got = append(got, string(m.Role)+":"+m.Text())
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if (len(out) < len(tc.in)) != (len(log) > 0) {
				t.Fatalf("log %v for %d -> %d messages", log, len(tc.in), len(out))
			}
			if tc.in[0].Text() != in[0].Text() || len(tc.in[0].Parts) != len(in[0].Parts) {
				t.Fatal("input modified")
			}
			again, log2 := Repair(out)
			if len(log2) != 0 || len(again) != len(out) {
				t.Fatalf("second repair changed it again: %v", log2)
			}
		})
	}
	// The image stays before the text that asks about it.
	out, _ := Repair([]llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{img}}, llm.TextMessage(llm.RoleUser, "what is this?")})
	if len(out) != 1 || len(out[0].Parts) != 2 || out[0].Parts[0].Type != llm.PartImage {
		t.Fatalf("parts %+v", out)
	}
}
