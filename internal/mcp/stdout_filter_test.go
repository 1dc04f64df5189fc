package mcp

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

func filterAll(t testing.TB, in string, chunk int) (string, []string) {
	t.Helper()
	var skipped []string
	f := newStdoutFilter(io.NopCloser(strings.NewReader(in)), func(l []byte) { skipped = append(skipped, string(l)) })
	var out bytes.Buffer
	buf := make([]byte, chunk)
	for {
		n, err := f.Read(buf)
		out.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return out.String(), skipped
}

func TestStdoutFilterPassesOnlyJSONRPCLines(t *testing.T) {
	const (
		m1 = `{"jsonrpc":"2.0","id":1,"result":{}}`
		m2 = `{"jsonrpc":"2.0","method":"notifications/progress"}`
		b1 = `[{"jsonrpc":"2.0","id":2,"result":{}}]`
	)
	tests := []struct {
		name, in, want string
		skipped        []string
	}{
		{"only messages", m1 + "\n" + m2 + "\n", m1 + "\n" + m2 + "\n", nil},
		{"banner first", "Server v1 started\n" + m1 + "\n", m1 + "\n", []string{"Server v1 started"}},
		{"log between", m1 + "\n[INFO] x\n" + m2 + "\n", m1 + "\n" + m2 + "\n", []string{"[INFO] x"}},
		{"batch kept", b1 + "\n", b1 + "\n", nil},
		{"json log line", `{"level":30,"msg":"listening"}` + "\n" + m1 + "\n", m1 + "\n", []string{`{"level":30,"msg":"listening"}`}},
		{"braced log line", "{INFO} ready\n" + m1 + "\n", m1 + "\n", []string{"{INFO} ready"}},
		{"array log line", `["boot",1]` + "\n" + m1 + "\n", m1 + "\n", []string{`["boot",1]`}},
		{"indented message", "  " + m1 + "\r\n", "  " + m1 + "\r\n", nil},
		{"blank lines", "\n\n" + m1 + "\n\n", m1 + "\n", nil},
		{"crlf log", "log line\r\n" + m1 + "\n", m1 + "\n", []string{"log line"}},
		{"noise at eof without newline", m1 + "\nbye", m1 + "\n", []string{"bye"}},
		{"message at eof without newline", m1, m1, nil},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 3, 4096} {
			got, skipped := filterAll(t, tt.in, chunk)
			if got != tt.want || strings.Join(skipped, "|") != strings.Join(tt.skipped, "|") {
				t.Errorf("%s (reads of %d): got %q skipped %q, want %q skipped %q", tt.name, chunk, got, skipped, tt.want, tt.skipped)
			}
		}
	}
}

// TestStdoutFilterKeepsANoisyServersMessagesAndSkipsItsLogLines: a noisy
// server's stdout filtered is its three JSON-RPC messages, and the three
// log lines are skipped.
// Case B29 (testdata/B29/server_stdout_transcript.txt; GPSxtreme/mcp-coinglass PR#3).
func TestStdoutFilterKeepsANoisyServersMessagesAndSkipsItsLogLines(t *testing.T) {
	in, err := os.ReadFile("testdata/B29/server_stdout_transcript.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, skipped := filterAll(t, string(in), 7)
	var want []string
	for _, l := range strings.SplitAfter(string(in), "\n") {
		if strings.HasPrefix(l, "{") {
			want = append(want, l)
		}
	}
	if got != strings.Join(want, "") {
		t.Errorf("filtered:\n%s\nwant:\n%s", got, strings.Join(want, ""))
	}
	if len(skipped) != 3 || skipped[0] != "Demo MCP Server v1.0.0 started successfully" {
		t.Errorf("skipped %q", skipped)
	}
}

func TestStdoutFilterStreamsAHugeLineAndQuotesLittleOfALongSkippedOne(t *testing.T) {
	huge := `{"jsonrpc":"2.0","id":1,"result":{"x":"` + strings.Repeat("y", 8<<20) + `"}}` + "\n"
	longNoise := strings.Repeat("n", 200<<10) + "\n"
	got, skipped := filterAll(t, longNoise+huge, 32<<10)
	if got != huge {
		t.Fatalf("huge line changed: %d bytes, want %d", len(got), len(huge))
	}
	if len(skipped) != 1 || len(skipped[0]) != maxSkippedQuote {
		t.Fatalf("skipped quote: %d lines, first %d bytes", len(skipped), len(skipped[0]))
	}
}

func FuzzStdoutFilter(f *testing.F) {
	f.Add("Demo\n{\"jsonrpc\":\"2.0\"}\n[x\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, _ := filterAll(t, in, 5)
		for _, l := range strings.SplitAfter(got, "\n") {
			if l != "" && !isMessage([]byte(l)) {
				t.Fatalf("passed a line that is not a message: %q", l)
			}
		}
	})
}
