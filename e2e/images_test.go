package e2e

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// pngFile writes a small real PNG into dir under name and returns its
// bytes.
func pngFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// wireDialects are the three wire formats the fake server speaks, with a
// model of each that takes images.
var wireDialects = []struct {
	name  string
	args  func(url string) []string
	env   func(url string) []string
	model string
	// part is the image part as the dialect's request carries it, with
	// B64 for the image's base64.
	part string
}{
	{"openai", func(u string) []string { return []string{"--base-url", u} }, nil, "gpt-4.1",
		`{"type":"image_url","image_url":{"url":"data:image/png;base64,B64"}}`},
	{"anthropic", func(string) []string { return []string{"--provider", "anthropic"} },
		func(u string) []string { return []string{"ANTHROPIC_API_KEY=sk-ant-test", "ANTHROPIC_BASE_URL=" + u} }, "claude-sonnet-4-5",
		`{"source":{"data":"B64","media_type":"image/png","type":"base64"},"type":"image"}`},
	{"gemini", func(string) []string { return []string{"--provider", "gemini"} },
		func(u string) []string { return []string{"GEMINI_API_KEY=test-key", "GEMINI_BASE_URL=" + u} }, "gemini-2.5-flash",
		`{"inlineData":{"mimeType":"image/png","data":"B64"}}`},
}

// TestImageFlagSendsAnImagePartInEveryWireFormat: --image attaches the
// file's exact bytes as the dialect's image part of the user message.
func TestImageFlagSendsAnImagePartInEveryWireFormat(t *testing.T) {
	for _, d := range wireDialects {
		t.Run(d.name, func(t *testing.T) {
			dir := t.TempDir()
			data := pngFile(t, dir, "shot.webp") // the bytes decide, not the name
			e := newEnv(t)
			srv := llmtest.NewServer(t)
			srv.Script(llmtest.Reply(llmtest.Text("A grey square.")), llmtest.Reply(llmtest.Text("Grey.")))
			if d.env != nil {
				e.vars = append(e.vars, d.env(srv.URL())...)
			}
			args := append([]string{"exec", "--model", d.model, "--image", "shot.webp"}, d.args(srv.URL())...)
			r := e.run(dir, "", append(args, "what is in the picture?")...)
			if r.code != 0 || strings.TrimSpace(r.stdout) != "A grey square." {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			reqs := completions(srv)
			if len(reqs) != 1 {
				t.Fatalf("%d model requests", len(reqs))
			}
			want := strings.ReplaceAll(d.part, "B64", base64.StdEncoding.EncodeToString(data))
			if body := uncached(reqs[0].Body); !strings.Contains(body, want) {
				t.Fatalf("request lacks %s\n%s", want, body)
			}
			// the session log keeps the image: a resumed run sends it again
			args = append([]string{"exec", "--resume", "--model", d.model}, d.args(srv.URL())...)
			if r := e.run(dir, "", append(args, "and its colour?")...); r.code != 0 {
				t.Fatalf("resume: exit %d: %s", r.code, r.stderr)
			}
			if reqs = completions(srv); len(reqs) != 2 || !strings.Contains(uncached(reqs[1].Body), want) {
				t.Fatalf("the resumed request lacks the image (%d requests)", len(reqs))
			}
		})
	}
}

// uncached is a request body without Anthropic's cache breakpoints,
// which move to the newest block from request to request.
func uncached(body []byte) string {
	return strings.ReplaceAll(string(body), `"cache_control":{"type":"ephemeral"},`, "")
}

// TestImageFlagRefusals: a text-only model, a file that is not an image
// and a missing file are refused before anything is sent.
func TestImageFlagRefusals(t *testing.T) {
	dir := t.TempDir()
	pngFile(t, dir, "shot.png")
	if err := os.WriteFile(filepath.Join(dir, "notes.png"), []byte("just text"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ model, image, want string }{
		{"o3-mini", "shot.png", "o3-mini takes text only: it cannot see images"},
		{"gpt-4.1", "notes.png", "notes.png is not a PNG, JPEG, GIF or WebP image"},
		{"gpt-4.1", "gone.png", "gone.png: no such file"},
	} {
		e := newEnv(t)
		srv := llmtest.NewServer(t)
		r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", tc.model, "--image", tc.image, "describe it")
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Fatalf("%s: exit %d, stderr %s; want %q", tc.image, r.code, r.stderr, tc.want)
		}
		if n := len(completions(srv)); n != 0 {
			t.Fatalf("%s: %d model requests", tc.image, n)
		}
	}
}

// lastOf is the last element of the JSON array v[key].
func lastOf(v any, key string) map[string]any {
	list, _ := v.(map[string]any)[key].([]any)
	if len(list) == 0 {
		return nil
	}
	m, _ := list[len(list)-1].(map[string]any)
	return m
}

// at walks a decoded JSON value by object keys and array indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// checkTinyPNG fails unless b64 is server-everything's 20×20 PNG.
func checkTinyPNG(t *testing.T, b64 any) {
	t.Helper()
	s, _ := b64.(string)
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("image data %.40q: %v", s, err)
	}
	c, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || c.Width != 20 || c.Height != 20 {
		t.Fatalf("image part is not the tool's 20×20 PNG: %v %dx%d", err, c.Width, c.Height)
	}
}

// TestMCPToolImagesReachTheModelAsImageParts: server-everything's
// get-tiny-image returns a PNG; Anthropic gets it as an image block in
// the tool_result, Gemini as inlineData beside the functionResponse, and
// OpenAI chat completions (no images in tool messages) the text
// description only.
func TestMCPToolImagesReachTheModelAsImageParts(t *testing.T) {
	for _, d := range wireDialects {
		t.Run(d.name, func(t *testing.T) {
			e := newEnv(t)
			withEverything(t, e, true)
			srv := llmtest.NewServer(t)
			srv.Script(llmtest.Reply(tc("i1", "mcp__everything__get-tiny-image", `{}`)), llmtest.Reply(llmtest.Text("A tiny image.")))
			if d.env != nil {
				e.vars = append(e.vars, d.env(srv.URL())...)
			}
			args := append([]string{"exec", "--auto-approve", "--model", d.model}, d.args(srv.URL())...)
			r := e.run(t.TempDir(), "", append(args, "show me the tiny image")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			reqs := completions(srv)
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			body := reqs[1].Map()
			switch d.name {
			case "anthropic":
				res := at(lastOf(body, "messages"), "content", 0)
				if at(res, "type") != "tool_result" || at(res, "content", 1, "type") != "image" || at(res, "content", 1, "source", "media_type") != "image/png" {
					t.Fatalf("tool_result %v", res)
				}
				checkTinyPNG(t, at(res, "content", 1, "source", "data"))
			case "gemini":
				parts := at(lastOf(body, "contents"), "parts")
				if at(parts, 0, "functionResponse") == nil || at(parts, 1, "inlineData", "mimeType") != "image/png" {
					t.Fatalf("parts %v", parts)
				}
				checkTinyPNG(t, at(parts, 1, "inlineData", "data"))
			case "openai":
				msg := lastOf(body, "messages")
				content, _ := msg["content"].(string)
				if msg["role"] != "tool" || !strings.Contains(content, "[image: image/png,") || strings.Contains(string(reqs[1].Body), "image_url") {
					t.Fatalf("tool message %v", msg)
				}
			}
		})
	}
}

// TestImageFlagAsksLlamaCppWhetherTheModelSees: for a model the catalog
// does not know, llama-server's /props decides: modalities.vision false
// (no --mmproj) is refused before the prompt is sent, true sends the
// image.
func TestImageFlagAsksLlamaCppWhetherTheModelSees(t *testing.T) {
	dir := t.TempDir()
	data := pngFile(t, dir, "shot.png")
	e := newEnv(t)
	text := llmtest.NewLlamaCpp(t, "qwen2.5-coder-0.5b-q8_0.gguf", 16384)
	r := e.run(dir, "", "exec", "--base-url", text.URL(), "--image", "shot.png", "describe it")
	if r.code != 2 || !strings.Contains(r.stderr, "qwen2.5-coder-0.5b-q8_0.gguf takes text only") {
		t.Fatalf("text-only llama-server: exit %d: %s", r.code, r.stderr)
	}
	if n := len(completions(text.Server)); n != 0 {
		t.Fatalf("%d chat requests to a text-only server", n)
	}
	vl := llmtest.NewLlamaCpp(t, "qwen2.5-vl-3b-q4_k_m.gguf", 16384).Vision()
	vl.Script(llmtest.Reply(llmtest.Text("A grey square.")))
	r = e.run(dir, "", "exec", "--base-url", vl.URL(), "--image", "shot.png", "describe it")
	if r.code != 0 || strings.Contains(r.stderr, "does not know whether") {
		t.Fatalf("vision llama-server: exit %d: %s", r.code, r.stderr)
	}
	reqs := completions(vl.Server)
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "data:image/png;base64,"+base64.StdEncoding.EncodeToString(data)) {
		t.Fatalf("the image did not reach the vision server (%d requests)", len(reqs))
	}
}

// TestAtImageAttachesTheImage: "@shot.png" in the prompt sends the image
// as an image part (the mention stays in the text), beside an @file.
func TestAtImageAttachesTheImage(t *testing.T) {
	dir := t.TempDir()
	data := pngFile(t, dir, "shot.png")
	testbin.WriteTree(t, dir, map[string]string{"notes.txt": "alpha\n"})
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Reply(llmtest.Text("A grey square.")))
	r := e.run(dir, "", "exec", "--base-url", srv.URL(), "--model", "gpt-4.1", "compare @shot.png with @notes.txt")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := completions(srv)
	body := string(reqs[0].Body)
	if !strings.Contains(body, `{"type":"text","text":"compare @shot.png with @notes.txt\n\nFiles the prompt names (@path):\n\u003cfile path=\"notes.txt\"\u003e\n    1\talpha\n\u003c/file\u003e"},`+
		`{"type":"image_url","image_url":{"url":"data:image/png;base64,`+base64.StdEncoding.EncodeToString(data)+`"}}`) {
		t.Fatalf("request:\n%s", body)
	}
}
