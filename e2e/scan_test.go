package e2e

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// loopbackPort is the port of a test server's URL.
func loopbackPort(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Port()
}

func TestScanListsEveryLocalServerAndRemembersThem(t *testing.T) {
	openai := llmtest.NewServer(t)
	openai.SetModels("qwen3-coder", "llama-3.3-70b")
	tags := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"models":[{"name":"qwen3:latest","model":"qwen3:latest"}]}`))
	}))
	defer tags.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := loopbackPort(t, "http://"+l.Addr().String())
	l.Close()
	ports := loopbackPort(t, openai.URL()) + "," + closed + "," + loopbackPort(t, tags.URL)

	e := newEnv(t)
	res := e.run(t.TempDir(), "", "scan", "--ports", ports)
	if res.code != 0 {
		t.Fatalf("zero scan: exit %d, stderr %s", res.code, res.stderr)
	}
	for _, want := range []string{openai.URL() + "/v1", "  1. qwen3-coder", "  2. llama-3.3-70b", "ollama  " + tags.URL + "/v1", "  3. qwen3:latest"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	file := filepath.Join(e.home, ".config", "zero", "servers.json")
	var saved struct {
		Servers []struct {
			Kind, BaseURL string
			Models        []string
		}
	}
	data, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(data, &saved) != nil || len(saved.Servers) != 2 {
		t.Fatalf("servers.json = %s, %v", data, err)
	}

	res = e.run(t.TempDir(), "", "scan", "--json", "--ports", loopbackPort(t, tags.URL))
	var out struct {
		Servers []struct {
			Kind    string   `json:"kind"`
			BaseURL string   `json:"baseURL"`
			Models  []string `json:"models"`
		} `json:"servers"`
	}
	if res.code != 0 || json.Unmarshal([]byte(res.stdout), &out) != nil || len(out.Servers) != 1 || out.Servers[0].Kind != "ollama" || out.Servers[0].Models[0] != "qwen3:latest" {
		t.Fatalf("zero scan --json: exit %d, %s %s", res.code, res.stdout, res.stderr)
	}
	data, _ = os.ReadFile(file)
	if json.Unmarshal(data, &saved) != nil || len(saved.Servers) != 1 || saved.Servers[0].Kind != "ollama" {
		t.Errorf("a re-scan did not refresh servers.json: %s", data)
	}

	res = e.run(t.TempDir(), "", "scan", "--ports", closed)
	if res.code != 1 || !strings.Contains(res.stderr, "no model server on 127.0.0.1 (tried ports "+closed+")") {
		t.Errorf("nothing found: exit %d, stderr %q", res.code, res.stderr)
	}
	// headless, the scan stays on loopback: the LAN is the app's /scan --lan
	if res = e.run(t.TempDir(), "", "scan", "--lan"); res.code != 2 || !strings.Contains(res.stderr, "unknown flag: --lan") {
		t.Errorf("zero scan --lan: exit %d, stderr %q", res.code, res.stderr)
	}
}
