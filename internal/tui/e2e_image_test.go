package tui

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// TestEndToEndImageAndMentionInTmux: in the real app, /image attaches a
// file, Tab completes an @path, and the next request carries the image
// part and the mentioned file's numbered lines.
func TestEndToEndImageAndMentionInTmux(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("a grey square and a note")))
	x, work := startInTmux(t, bin, srv.URL())
	img := writePNG(t, filepath.Join(work, "shot.png"))
	os.WriteFile(filepath.Join(work, "notes-for-zero.txt"), []byte("remember the milk\n"), 0o644)
	x.waitFor("the footer", func(l []string) bool { return contains(l, "e2e-model") && contains(l, "· normal") })
	x.typeLine("/image shot.png")
	x.waitFor("the attach notice", func(l []string) bool { return contains(l, "attached shot.png (image/png") })
	x.run("send-keys", "-t", "zero", "-l", "what is in it and in @notes-f")
	x.run("send-keys", "-t", "zero", "Tab")
	x.waitFor("the completed path", func(l []string) bool { return contains(l, "@notes-for-zero.txt") })
	x.run("send-keys", "-t", "zero", "Enter")
	x.waitFor("the reply", func(l []string) bool { return contains(l, "a grey square and a note") && contains(l, "ask anything") })
	x.exit()
	var body string
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			body = string(r.Body)
		}
	}
	if !strings.Contains(body, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(img)) {
		t.Errorf("the request lacks the image part")
	}
	if !strings.Contains(body, `notes-for-zero.txt\"\u003e\n    1\tremember the milk\n`) {
		t.Errorf("the request lacks the mentioned file:\n%s", body)
	}
}
