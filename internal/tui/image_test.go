package tui

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

func writePNG(t *testing.T, path string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestImageCommandAndPastedPathGoWithTheNextPrompt: /image PATH and a
// pasted absolute path to an image each attach it; the next prompt's
// request carries both as image parts, and the one after carries no new
// ones.
func TestImageCommandAndPastedPathGoWithTheNextPrompt(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, dir := testBackend(t, srv)
	first := writePNG(t, filepath.Join(dir, "shot.png"))
	second := writePNG(t, filepath.Join(dir, "drop me.png"))
	os.WriteFile(filepath.Join(dir, "notes.png"), []byte("not an image"), 0o644)
	srv.Script(llmtest.Reply(llmtest.Text("two squares")), llmtest.Reply(llmtest.Text("ok")))
	d := newDriver(t, b, Options{})
	d.typeText("/image notes.png")
	d.press("enter")
	d.typeText("/image shot.png")
	d.press("enter")
	d.send(tea.PasteMsg{Content: strings.ReplaceAll(filepath.Join(dir, "drop me.png"), " ", `\ `)})
	if d.m.Value() != "" {
		t.Fatalf("the pasted path went into the editor: %q", d.m.Value())
	}
	mustContain(t, "screen", d.screen(), "notes.png is not a PNG, JPEG, GIF or WebP image")
	mustContain(t, "screen", d.screen(), "attached drop me.png (image/png")
	d.typeText("what are these?")
	d.press("enter")
	d.until(func() bool { return srv.Remaining() == 1 && !d.m.turn.running })
	d.until(func() bool { return contains(d.screen(), "two squares") })
	mustContain(t, "screen", d.screen(), "· with shot.png, drop me.png")
	mustContain(t, "screen", d.screen(), "the catalog does not know whether m takes images")
	reqs := srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	for _, img := range [][]byte{first, second} {
		if !strings.Contains(body, `"url":"data:image/png;base64,`+base64.StdEncoding.EncodeToString(img)+`"`) {
			t.Fatalf("the request lacks an image part:\n%s", body)
		}
	}
	d.typeText("and now?")
	d.press("enter")
	d.until(func() bool { return srv.Remaining() == 0 && !d.m.turn.running })
	reqs = srv.Requests()
	if n := strings.Count(string(reqs[len(reqs)-1].Body), "data:image/png;base64,"); n != 2 {
		t.Fatalf("the second prompt's request holds %d image parts, want the first prompt's 2", n)
	}
}

// TestTabCompletesMentionedPaths: Tab after "@" completes workspace
// paths, skipping gitignored ones, and walks into a directory.
func TestTabCompletesMentionedPaths(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, dir := testBackend(t, srv)
	writeTree := map[string]string{"main.go": "", "internal/x.go": "", "gen.go": "", ".gitignore": "gen.go\n"}
	for p, c := range writeTree {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	for _, tc := range []struct{ typed, want string }{
		{"fix @ma", "fix @main.go "},
		{"fix @in", "fix @internal/"},
		{"fix @internal/", "fix @internal/x.go "},
		{"fix @ge", "fix @ge"},
		{"mail bob@ma", "mail bob@ma"},
	} {
		d := newDriver(t, b, Options{})
		d.typeText(tc.typed)
		d.press("tab")
		if got := d.m.Value(); got != tc.want {
			t.Errorf("tab on %q = %q, want %q", tc.typed, got, tc.want)
		}
	}
}

// TestMentionedFileReachesTheModelFromTheApp: "@path" typed in the app
// attaches the file's numbered lines; a missing one is a warning on the
// screen, not on the terminal's stderr.
func TestMentionedFileReachesTheModelFromTheApp(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, dir := testBackend(t, srv)
	b.rt.SetWarnings(nil) // as RunApp does
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("alpha\n"), 0o644)
	srv.Script(llmtest.Reply(llmtest.Text("read")))
	d := newDriver(t, b, Options{})
	d.typeText("read @notes.txt and @gone.txt")
	d.press("enter")
	d.until(func() bool { return srv.Remaining() == 0 && !d.m.turn.running })
	mustContain(t, "screen", d.screen(), "@gone.txt not attached")
	reqs := srv.Requests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, `notes.txt\"\u003e\n    1\talpha\n`) {
		t.Fatalf("the request lacks the file:\n%s", body)
	}
}
