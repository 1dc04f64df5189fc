package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fake serves the given paths ("METHOD /path" or "/path" for GET) from
// testdata files; other paths are 404. hang makes every request wait for
// the client to give up.
func fake(t testing.TB, routes map[string]string, hang bool) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang {
			<-r.Context().Done()
			return
		}
		file, ok := routes[r.Method+" "+r.URL.Path]
		if !ok && r.Method == http.MethodGet {
			file, ok = routes[r.URL.Path]
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/api/show" {
			var req struct{ Model string }
			if json.NewDecoder(r.Body).Decode(&req) != nil || req.Model == "" {
				http.Error(w, `{"error":"model is required"}`, http.StatusBadRequest)
				return
			}
		}
		data, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	n, _ := net.LookupPort("tcp", port)
	return n
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

var (
	ollama       = map[string]string{"/v1/models": "ollama_v1_models.json", "POST /api/show": "ollama_api_show.json"}
	ollamaNumCtx = map[string]string{"/v1/models": "ollama_v1_models.json", "POST /api/show": "ollama_api_show_num_ctx.json"}
	ollamaEmpty  = map[string]string{"/v1/models": "ollama_v1_models_empty.json"}
	llamacpp     = map[string]string{"/v1/models": "llamacpp_v1_models.json", "/props": "llamacpp_props.json"}
	llamacppOld  = map[string]string{"/v1/models": "llamacpp_v1_models.json", "/props": "llamacpp_props_old.json"}
	lmstudio     = map[string]string{"/v1/models": "lmstudio_v1_models.json", "/api/v0/models": "lmstudio_api_v0_models.json"}
	vllm         = map[string]string{"/v1/models": "vllm_v1_models.json"}
	notAModel    = map[string]string{}
)

type srvSpec struct {
	routes map[string]string
	hang   bool
	down   bool
}

func TestFind(t *testing.T) {
	up := func(r map[string]string) srvSpec { return srvSpec{routes: r} }
	down := srvSpec{down: true}
	tests := []struct {
		name       string
		servers    [4]srvSpec // in priority order: Ollama, llama.cpp, LM Studio, vLLM ports
		wantKind   ServerKind
		wantModels []string
		wantErr    []string
	}{
		{"all up: Ollama first", [4]srvSpec{up(ollama), up(llamacpp), up(lmstudio), up(vllm)}, Ollama, []string{"qwen3:8b", "llama3.2:latest"}, nil},
		{"llama.cpp", [4]srvSpec{down, up(llamacpp), down, up(vllm)}, LlamaCpp, []string{"Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf"}, nil},
		{"empty Ollama is passed over", [4]srvSpec{up(ollamaEmpty), down, up(lmstudio), down}, LMStudio, []string{"qwen/qwen3-coder-30b", "text-embedding-nomic-embed-text-v1.5"}, nil},
		{"a 404 is not a server", [4]srvSpec{up(notAModel), down, down, up(vllm)}, VLLM, []string{"Qwen/Qwen3-8B"}, nil},
		{"a hung port times out", [4]srvSpec{{hang: true}, down, down, up(vllm)}, VLLM, []string{"Qwen/Qwen3-8B"}, nil},
		{"kind from the model list, not the port", [4]srvSpec{up(llamacpp), down, down, down}, LlamaCpp, []string{"Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf"}, nil},
		{"nothing", [4]srvSpec{down, down, down, down}, "", nil,
			[]string{"ollama serve", "llama-server -m model.gguf --port 8080", "LM Studio", "vllm serve", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"}},
		{"only an empty Ollama", [4]srvSpec{up(ollamaEmpty), down, down, down}, "", nil,
			[]string{"Ollama on port", "lists no models", "ollama pull"}},
	}
	kinds := []ServerKind{Ollama, LlamaCpp, LMStudio, VLLM}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cands []Candidate
			for i, s := range tt.servers {
				port := closedPort(t)
				if !s.down {
					port = fake(t, s.routes, s.hang)
				}
				cands = append(cands, Candidate{Port: port, Kind: kinds[i]})
			}
			p := &Prober{Candidates: cands, Timeout: 200 * time.Millisecond}
			srv, err := p.Find(context.Background())
			if tt.wantErr != nil {
				if !errors.Is(err, ErrNoServer) || srv != nil {
					t.Fatalf("Find = %+v, %v; want ErrNoServer", srv, err)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error lacks %q:\n%v", w, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if srv.Kind != tt.wantKind || !slices.Equal(srv.Models, tt.wantModels) || !strings.HasPrefix(srv.BaseURL, "http://127.0.0.1:") || !strings.HasSuffix(srv.BaseURL, "/v1") {
				t.Errorf("Find = %+v, want %s %v", srv, tt.wantKind, tt.wantModels)
			}
		})
	}
}

func TestScan(t *testing.T) {
	cands := []Candidate{{Port: fake(t, ollama, false), Kind: Ollama}, {Port: closedPort(t), Kind: LlamaCpp}, {Port: fake(t, vllm, false), Kind: VLLM}}
	got := (&Prober{Candidates: cands}).Scan(context.Background())
	if len(got) != 3 || got[0].Server == nil || got[1].Err == nil || got[1].Server != nil || got[2].Server == nil || got[2].Server.Kind != VLLM {
		t.Errorf("Scan = %+v", got)
	}
}

func TestContextWindow(t *testing.T) {
	tests := []struct {
		name   string
		routes map[string]string
		kind   ServerKind
		model  string
		want   int
	}{
		{"llama.cpp /props", llamacpp, LlamaCpp, "Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf", 32768},
		{"llama.cpp top-level n_ctx", llamacppOld, LlamaCpp, "m", 8192},
		{"ollama num_ctx", ollamaNumCtx, Ollama, "qwen3:8b", 16384},
		{"lm studio loaded", lmstudio, LMStudio, "qwen/qwen3-coder-30b", 32768},
		{"vllm from the model list", vllm, VLLM, "Qwen/Qwen3-8B", 32768},
		{"wrong kind guess falls back", llamacpp, Ollama, "x", 32768},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			port := fake(t, tt.routes, false)
			p := &Prober{Candidates: []Candidate{{Port: port, Kind: tt.kind}}}
			srv, err := p.Find(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			srv.Kind = tt.kind
			n, err := p.ContextWindow(context.Background(), *srv, tt.model)
			if err != nil || n != tt.want {
				t.Errorf("ContextWindow = %d, %v; want %d", n, err, tt.want)
			}
		})
	}
	port := fake(t, vllm, false)
	srv := Server{Kind: Unknown, BaseURL: "http://127.0.0.1:" + strconv.Itoa(port) + "/v1"}
	if _, err := (&Prober{}).ContextWindow(context.Background(), srv, "other"); !errors.Is(err, ErrNoWindow) {
		t.Errorf("no window: err = %v", err)
	}
}

func TestUnknownKindRecognised(t *testing.T) {
	tests := []struct {
		routes map[string]string
		want   ServerKind
	}{{ollama, Ollama}, {llamacpp, LlamaCpp}, {lmstudio, LMStudio}, {vllm, VLLM}}
	for _, tt := range tests {
		p := &Prober{Candidates: []Candidate{{Port: fake(t, tt.routes, false), Kind: Unknown}}}
		srv, err := p.Find(context.Background())
		if err != nil || srv.Kind != tt.want {
			t.Errorf("Find = %+v, %v; want kind %s", srv, err, tt.want)
		}
	}
	if len(ScanCandidates) != 8 || !slices.Equal(ScanCandidates[:4], DefaultCandidates) {
		t.Errorf("ScanCandidates = %v", ScanCandidates)
	}
}
