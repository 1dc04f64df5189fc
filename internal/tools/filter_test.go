package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/redact"
)

type fixed struct{ out string }

func (f fixed) Name() string            { return "fixed" }
func (f fixed) Description() string     { return "" }
func (f fixed) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (f fixed) SideEffect() SideEffect  { return SideRead }
func (f fixed) Run(context.Context, json.RawMessage) (Result, error) {
	return Result{Content: f.out, Diff: "+" + f.out}, nil
}

func TestFilteredAppliesToContentAndDiff(t *testing.T) {
	tl := Filtered(fixed{"key=SECRET"}, func(s string) string { return strings.ReplaceAll(s, "SECRET", "[masked]") })
	res, err := tl.Run(context.Background(), nil)
	if err != nil || res.Content != "key=[masked]" || res.Diff != "+key=[masked]" || tl.Name() != "fixed" {
		t.Fatalf("got %+v %v", res, err)
	}
}

// fullOutputTool "streams" out to the file its caller names, as bash does.
type fullOutputTool struct{ out string }

func (f fullOutputTool) Name() string            { return "bash" }
func (f fullOutputTool) Description() string     { return "" }
func (f fullOutputTool) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (f fullOutputTool) SideEffect() SideEffect  { return SideShell }
func (f fullOutputTool) Run(ctx context.Context, _ json.RawMessage) (Result, error) {
	path := fullOutputPath(ctx)
	if err := os.WriteFile(path, []byte(f.out), 0o600); err != nil {
		return Result{}, err
	}
	return Result{Content: f.out[:100] + "[cut]", RawBytes: len(f.out), FullOutput: path, FullOutputBytes: len(f.out)}, nil
}

// The full-output file is redacted like Content, in bounded chunks that
// never split a secret: the result equals redacting the whole text at
// once, with a PEM key straddling the first chunk boundary.
func TestFilteredRedactsTheFullOutputFile(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEAx1y2z3\n", 80) + "-----END RSA PRIVATE KEY-----\n"
	token := "ghp_" + strings.Repeat("a1B2c3", 6)
	var b strings.Builder
	for b.Len() < filterChunk-1000 {
		fmt.Fprintf(&b, "log line %d\n", b.Len())
	}
	b.WriteString(key)
	for i := 0; b.Len() < 3*filterChunk; i++ {
		fmt.Fprintf(&b, "line %d token=%s ok\n", i, token)
	}
	whole := b.String()
	want, n := redact.String(whole)
	if n == 0 || strings.Contains(want, token) || strings.Contains(want, "MIIEowIBAAKCAQEA") {
		t.Fatal("the test's secrets are not ones redact masks")
	}
	path := filepath.Join(t.TempDir(), "out.txt")
	tl := Filtered(fullOutputTool{whole}, func(s string) string { out, _ := redact.String(s); return out })
	res, err := tl.Run(WithFullOutput(context.Background(), path), nil)
	if err != nil || res.FullOutput != path || res.FullOutputBytes != len(whole) {
		t.Fatalf("result %+v, %v", res, err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != want {
		t.Fatalf("filtered file (%d bytes) differs from redacting the whole output (%d bytes)", len(got), len(want))
	}
	if _, err := os.Stat(path + ".filtering"); !os.IsNotExist(err) {
		t.Errorf("temporary file left behind: %v", err)
	}
}

// Annotated appends its note to Content only.
func TestAnnotatedAppendsToContentOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	whole := strings.Repeat("Read-only file system\n", 100)
	tl := Annotated(fullOutputTool{whole}, func(context.Context, string) string { return "[note]" })
	res, _ := tl.Run(WithFullOutput(context.Background(), path), nil)
	got, _ := os.ReadFile(path)
	if !strings.HasSuffix(res.Content, "[cut][note]") || string(got) != whole {
		t.Fatalf("content %q, file changed: %v", res.Content, string(got) != whole)
	}
}

// Chunking loses and repeats nothing, and a chunk ends only after a
// newline or a byte outside a token's alphabet, never inside a PEM block
// that closes within the window.
func FuzzFilterChunks(f *testing.F) {
	f.Add("a\nb\nc", 4)
	f.Add("-----BEGIN X PRIVATE KEY-----\nabc\ndef\n-----END X PRIVATE KEY-----\nafter", 8)
	f.Add(strings.Repeat("tokentokentoken", 10)+" tail", 16)
	f.Fuzz(func(t *testing.T, in string, chunk int) {
		chunk = chunk%512 + 1
		if chunk <= 0 {
			chunk = -chunk + 1
		}
		var chunks []string
		var out bytes.Buffer
		err := filterChunks(strings.NewReader(in), &out, func(s string) string { chunks = append(chunks, s); return s }, chunk)
		if err != nil || out.String() != in {
			t.Fatalf("round trip: %v, %q != %q", err, out.String(), in)
		}
		for i, c := range chunks[:max(0, len(chunks)-1)] {
			pemNext := strings.HasPrefix(chunks[i+1], "-----BEGIN")
			if last := c[len(c)-1]; last != '\n' && (last < utf8.RuneSelf && tokenByte(last) || last >= utf8.RuneSelf) && len(c) < chunk+pemWindow && !pemNext {
				t.Fatalf("chunk %d ends inside a token: %q", i, c[max(0, len(c)-20):])
			}
			if b := strings.LastIndex(c, "-----BEGIN"); b >= 0 && !strings.Contains(c[b:], "-----END") && len(c) < chunk+pemWindow {
				rest := strings.Join(chunks[i+1:], "")
				if e := strings.Index(rest, "-----END"); e >= 0 && len(c)-b+e < pemWindow {
					t.Fatalf("chunk %d splits a PEM block", i)
				}
			}
		}
	})
}
