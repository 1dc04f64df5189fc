package mcp

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResultTextKeepsTextImagesAndResources(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "first"},
		&mcp.ImageContent{MIMEType: "image/png", Data: make([]byte, 10)},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a.txt", Text: "body"}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///b.bin", MIMEType: "application/octet-stream", Blob: make([]byte, 3)}},
		&mcp.ResourceLink{URI: "file:///c", Name: "c"},
	}}
	want := "first\n[image: image/png, 10 bytes]\n[resource: file:///a.txt]\nbody\n[resource: file:///b.bin, application/octet-stream, 3 bytes]\n[resource link: file:///c c]"
	if got := resultText(res); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	structured := &mcp.CallToolResult{StructuredContent: map[string]any{"n": 1}}
	if got := resultText(structured); got != `{"n":1}` {
		t.Errorf("structured: %q", got)
	}
}

func TestCapOutputKeepsHeadAndLastErrorLine(t *testing.T) {
	const limit = 100_000
	in := strings.Repeat("x", 8<<20) + "\nError: disk quota exceeded\n"
	got := capOutput(in, limit)
	if len(got) > limit {
		t.Fatalf("capped to %d bytes, over %d", len(got), limit)
	}
	if !strings.HasPrefix(got, "xxxx") || !strings.Contains(got, "MAX_MCP_OUTPUT_TOKENS=25000") ||
		!strings.HasSuffix(got, "[last error line] Error: disk quota exceeded") {
		t.Errorf("capped text: head %q tail %q", got[:10], got[len(got)-200:])
	}
	for _, tokens := range []int{100, 1000} {
		if got := capOutput(in, tokens*bytesPerToken); len(got) > tokens*bytesPerToken || !strings.Contains(got, "disk quota") {
			t.Errorf("MAX_MCP_OUTPUT_TOKENS=%d: %d bytes: %q", tokens, len(got), got[max(0, len(got)-150):])
		}
	}
	if small := "fits"; capOutput(small, limit) != small {
		t.Error("short text changed")
	}
	// One 8 MB line that ends in the error: its end is quoted.
	oneLine := strings.Repeat("é", 4<<20) + " fatal: out of memory"
	got = capOutput(oneLine, limit)
	if len(got) > limit || !utf8.ValidString(got) || !strings.HasSuffix(got, "fatal: out of memory") {
		t.Errorf("one-line cap: %d bytes, valid %v, tail %q", len(got), utf8.ValidString(got), got[len(got)-60:])
	}
}

func TestMaxOutputBytesReadsMaxMCPOutputTokens(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	for v, want := range map[string]int{"": 100_000, "1000": 4000, "junk": 100_000, "-5": 100_000} {
		if got := maxOutputBytes(env(v)); got != want {
			t.Errorf("MAX_MCP_OUTPUT_TOKENS=%q: %d, want %d", v, got, want)
		}
	}
}

func FuzzCapOutput(f *testing.F) {
	f.Add(strings.Repeat("x", 900)+"\nError: boom\n", 400)
	f.Fuzz(func(t *testing.T, text string, limit int) {
		if limit < 400 || limit > 1<<20 || !utf8.ValidString(text) {
			return
		}
		got := capOutput(text, limit)
		if len(got) > limit || !utf8.ValidString(got) {
			t.Fatalf("capOutput(%d bytes, %d) = %d bytes, valid %v", len(text), limit, len(got), utf8.ValidString(got))
		}
	})
}
