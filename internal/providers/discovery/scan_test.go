package discovery

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestScanLoopbackListsEveryModelOfEveryServer(t *testing.T) {
	tagsOnly := map[string]string{"/api/tags": "ollama_api_tags.json"}
	tests := []struct {
		name    string
		servers []srvSpec // nil routes: a closed port
		want    []string  // "kind models..." per server found, in port order
	}{
		{"nothing listening", []srvSpec{{}, {}}, nil},
		{"one OpenAI list", []srvSpec{{routes: vllm}}, []string{"vllm Qwen/Qwen3-8B"}},
		{"Ollama by /api/tags when /v1/models is missing", []srvSpec{{routes: tagsOnly}}, []string{"ollama qwen3:latest llama3.2:3b"}},
		{"a hanging and an empty server are left out", []srvSpec{{routes: vllm, hang: true}, {routes: ollamaEmpty}, {routes: notAModel}}, nil},
		{"several servers, in port order", []srvSpec{{routes: tagsOnly}, {}, {routes: vllm}}, []string{"ollama qwen3:latest llama3.2:3b", "vllm Qwen/Qwen3-8B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ports []int
			for _, s := range tt.servers {
				if s.routes == nil {
					ports = append(ports, closedPort(t))
					continue
				}
				ports = append(ports, fake(t, s.routes, s.hang))
			}
			var got []string
			for _, s := range ScanLoopback(context.Background(), ports) {
				if !strings.HasPrefix(s.BaseURL, "http://127.0.0.1:") || !strings.HasSuffix(s.BaseURL, "/v1") {
					t.Errorf("BaseURL = %q", s.BaseURL)
				}
				got = append(got, string(s.Kind)+" "+strings.Join(s.Models, " "))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ScanLoopback = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestServersFileRoundTripsAndIsReplacedOnRescan(t *testing.T) {
	path := ServersFile(filepath.Join(t.TempDir(), "zero"))
	if r, err := LoadServers(path); err != nil || len(r.Servers) != 0 {
		t.Fatalf("missing file: %+v, %v", r, err)
	}
	first := Remembered{Scanned: time.Unix(1, 0).UTC(), Servers: []Server{{Kind: Ollama, BaseURL: "http://127.0.0.1:11434/v1", Models: []string{"a", "b"}}}}
	if err := SaveServers(path, first); err != nil {
		t.Fatal(err)
	}
	second := Remembered{Scanned: time.Unix(2, 0).UTC(), Servers: []Server{{Kind: VLLM, BaseURL: "http://127.0.0.1:8000/v1", Models: []string{"c"}}}}
	if err := SaveServers(path, second); err != nil {
		t.Fatal(err)
	}
	got, err := LoadServers(path)
	if err != nil || !got.Scanned.Equal(second.Scanned) || len(got.Servers) != 1 || got.Servers[0].BaseURL != second.Servers[0].BaseURL {
		t.Errorf("LoadServers = %+v, %v", got, err)
	}
	if err := os.WriteFile(path, []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadServers(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("broken file: err = %v, want one naming %s", err, path)
	}
}

func TestChoicesNumberModelsAcrossServers(t *testing.T) {
	got := Choices([]Server{{BaseURL: "a", Models: []string{"m1", "m2"}}, {BaseURL: "b", Models: []string{"m3"}}})
	if len(got) != 3 || got[2].N != 3 || got[2].Model != "m3" || got[2].Server.BaseURL != "b" || got[0].N != 1 {
		t.Errorf("Choices = %+v", got)
	}
}

// FuzzLoadServers: any servers.json either loads or is an error naming
// the file, and what loads saves and loads back the same.
func FuzzLoadServers(f *testing.F) {
	f.Add([]byte(`{"scanned":"2026-12-02T05:00:00Z","servers":[{"kind":"ollama","baseURL":"http://127.0.0.1:11434/v1","models":["qwen3:latest"]}]}`))
	f.Add([]byte(`{"servers":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := ServersFile(dir)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := LoadServers(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v does not name %s", err, path)
			}
			return
		}
		if err := SaveServers(path, r); err != nil {
			t.Fatal(err)
		}
		again, err := LoadServers(path)
		if err != nil || len(again.Servers) != len(r.Servers) || !again.Scanned.Equal(r.Scanned) {
			t.Fatalf("round trip: %+v, %v; was %+v", again, err, r)
		}
	})
}
