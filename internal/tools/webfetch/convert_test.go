package webfetch

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestHTMLGolden converts each testdata/golden/*.html and compares with the
// .md beside it (regenerate with -update and review the diff). The page
// URL is fixed so relative links resolve the same way every run.
func TestHTMLGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	base, _ := url.Parse("https://docs.example.org/articles/context.html")
	for _, in := range files {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			md, title, err := htmlToMarkdown(src, "text/html; charset=utf-8", base)
			if err != nil {
				t.Fatal(err)
			}
			got := "title: " + title + "\n\n" + md
			golden := strings.TrimSuffix(in, ".html") + ".md"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Fatalf("markdown differs from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestHTMLNoise checks the cleaning rules one by one, independent of the
// golden file: what must go and what must stay.
func TestHTMLNoise(t *testing.T) {
	src, err := os.ReadFile("testdata/golden/article.html")
	if err != nil {
		t.Fatal(err)
	}
	base, _ := url.Parse("https://docs.example.org/articles/context.html")
	md, title, err := htmlToMarkdown(src, "text/html", base)
	if err != nil {
		t.Fatal(err)
	}
	if title != "Context windows & you" {
		t.Errorf("title %q", title)
	}
	for _, gone := range []string{
		"analytics", "font-family", "tail script", "Docs", "Blog", "hidden text", "decoration",
		"ten other articles", "Subscribe", "svg text", "Enable JavaScript", "Prev | Next",
		"All rights reserved", "base64", "Home",
	} {
		if strings.Contains(md, gone) {
			t.Errorf("markdown keeps noise %q", gone)
		}
	}
	for _, kept := range []string{
		"# Context windows", "**context window**", "*tokens*",
		"[the token guide](https://docs.example.org/guide/tokens.html)",
		"[an absolute link](https://example.org/abs)",
		"| Model | Window |", "| large | 131072 |",
		"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```",
		"- Keep results short.", "![diagram](https://docs.example.org/img/diagram.png)",
	} {
		if !strings.Contains(md, kept) {
			t.Errorf("markdown lost %q:\n%s", kept, md)
		}
	}
}

// TestHTMLThroughTool fetches the golden page from a 127.0.0.1 server: the
// tool's output is the header line, the title and the golden markdown.
func TestHTMLThroughTool(t *testing.T) {
	src, err := os.ReadFile("testdata/golden/article.html")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/golden/article.md")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(src)
	}))
	defer srv.Close()
	tl := newTool(Options{Resolver: newStub(map[string][][]string{"docs.example.org": {{"127.0.0.1"}}})}, allowOnly(srv), nil)
	u := fmt.Sprintf("http://docs.example.org:%d/articles/context.html", serverPort(srv))
	res := run(t, tl, urlArgs(u))
	// Links resolve against the fetched URL, which here carries the port.
	golden := strings.ReplaceAll(string(want), "https://docs.example.org/", fmt.Sprintf("http://docs.example.org:%d/", serverPort(srv)))
	if res.IsError || res.Content != u+" · 200 OK · text/html; charset=utf-8\n"+golden {
		t.Fatalf("content:\n%s\nwant:\n%s", res.Content, u+" · 200 OK · text/html; charset=utf-8\n"+golden)
	}
}

// TestHTMLTooDeep: x/net/html refuses trees deeper than 512 open elements;
// such a page still yields its text, without script, and says why.
func TestHTMLTooDeep(t *testing.T) {
	src := "<html><head><title>Deep  page</title><script>bad()</script></head><body>" +
		strings.Repeat("<div>", 600) + "<p>deep text</p><embed src=x><nav>menu</nav><p>after <b>nav</b></p></body></html>"
	md, title, err := htmlToMarkdown([]byte(src), "text/html", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "[the HTML could not be converted (html: open stack of elements exceeds 512 nodes); plain text shown]\n\ndeep text\n\nafter nav\n"
	if title != "Deep page" || md != want {
		t.Fatalf("title %q md %q, want %q", title, md, want)
	}
}

func BenchmarkHTMLToMarkdown(b *testing.B) {
	src, err := os.ReadFile("testdata/golden/article.html")
	if err != nil {
		b.Fatal(err)
	}
	page := []byte(strings.Repeat(string(src), 50)) // ~100 KB of HTML
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, _, err := htmlToMarkdown(page, "text/html", nil); err != nil {
			b.Fatal(err)
		}
	}
}
