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

func TestStdoutFilterSkipsNonProtocolLines(t *testing.T) {
	tests := []struct {
		name, in, want string
		skipped        []string
	}{
		{"only messages", "{\"a\":1}\n{\"b\":2}\n", "{\"a\":1}\n{\"b\":2}\n", nil},
		{"banner first", "Server v1 started\n{\"a\":1}\n", "{\"a\":1}\n", []string{"Server v1 started"}},
		{"log between", "{\"a\":1}\n[INFO] x\n{\"b\":2}\n", "{\"a\":1}\n{\"b\":2}\n", []string{"[INFO] x"}},
		{"batch kept", "[{\"a\":1}]\n", "[{\"a\":1}]\n", nil},
		{"bracketed log level", "[DEBUG] x\n[ {\"a\":1}]\n", "[ {\"a\":1}]\n", []string{"[DEBUG] x"}},
		{"indented message", "  {\"a\":1}\r\n", "{\"a\":1}\r\n", nil},
		{"blank lines", "\n\n{\"a\":1}\n\n", "{\"a\":1}\n", nil},
		{"crlf log", "log line\r\n{\"a\":1}\n", "{\"a\":1}\n", []string{"log line"}},
		{"noise at eof without newline", "{\"a\":1}\nbye", "{\"a\":1}\n", []string{"bye"}},
		{"message at eof without newline", "{\"a\":1}", "{\"a\":1}", nil},
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

// The stdout of case B29's noisy server (testdata/B29) filtered is its
// three JSON-RPC messages, and the three log lines are skipped.
func TestStdoutFilterB29Transcript(t *testing.T) {
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
	huge := "{\"x\":\"" + strings.Repeat("y", 8<<20) + "\"}\n"
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
	f.Add("Demo\n{\"a\":1}\n[x\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, _ := filterAll(t, in, 5)
		for _, l := range strings.SplitAfter(got, "\n") {
			if l != "" && l[0] != '{' && l[0] != '[' {
				t.Fatalf("passed a line not starting a message: %q", l)
			}
		}
	})
}
