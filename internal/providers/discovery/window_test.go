package discovery

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// Ollama's real response shapes, in testdata:
//   - GET /api/ps (https://docs.ollama.com/api/ps): {"models":[{"name",
//     "model","size","digest","details",...,"expires_at","size_vram",
//     "context_length":4096}]}; context_length is "the context length the
//     model is loaded with" and is absent from versions before it was added
//     (ollama_api_ps_no_context_length.json);
//   - POST /api/show: "parameters" (one "name value" line each, num_ctx
//     among them when a Modelfile sets it) and "model_info" with
//     "general.architecture" and "<arch>.context_length" (api.ShowResponse,
//     github.com/ollama/ollama/api/types.go);
//   - GET /api/version: {"version":"0.12.6"}
//     (https://docs.ollama.com/api-reference/get-version).
//
// LM Studio's, in testdata:
//   - GET /api/v1/models (https://lmstudio.ai/docs/developer/rest/list):
//     the documented example, "loaded_instances":[{"id":
//     "gemma-3-270m-it-qat","config":{"context_length":4096}}] with
//     "max_context_length":32768, plus a model not loaded;
//   - GET /api/v0/models: "state":"loaded", "max_context_length",
//     "loaded_context_length" as LM Studio sends them
//     (https://github.com/zed-industries/zed/pull/25606).

var (
	ollamaLoaded4K = map[string]string{"/v1/models": "ollama_v1_models.json", "POST /api/show": "ollama_api_show.json",
		"/api/ps": "ollama_api_ps.json", "/api/version": "ollama_api_version.json"}
	ollamaNotLoaded = map[string]string{"/v1/models": "ollama_v1_models.json", "POST /api/show": "ollama_api_show.json",
		"/api/ps": "ollama_api_ps_empty.json", "/api/version": "ollama_api_version.json"}
	ollamaOldNotLoaded = map[string]string{"/v1/models": "ollama_v1_models.json", "POST /api/show": "ollama_api_show.json",
		"/api/ps": "ollama_api_ps_empty.json", "/api/version": "ollama_api_version_old.json"}
	ollamaPsWithoutLength = map[string]string{"/v1/models": "ollama_v1_models.json", "POST /api/show": "ollama_api_show.json",
		"/api/ps": "ollama_api_ps_no_context_length.json", "/api/version": "ollama_api_version.json"}
	ollamaNumCtxLoaded = map[string]string{"/v1/models": "ollama_v1_models.json", "POST /api/show": "ollama_api_show_num_ctx.json",
		"/api/ps": "ollama_api_ps_empty.json", "/api/version": "ollama_api_version.json"}
	lmstudioV1 = map[string]string{"/v1/models": "lmstudio_v1_models_gemma.json", "/api/v1/models": "lmstudio_api_v1_models.json",
		"/api/v0/models": "lmstudio_api_v0_models.json"}
)

func TestWindowReportsWhatTheServerRuns(t *testing.T) {
	tests := []struct {
		name     string
		routes   map[string]string
		kind     ServerKind
		model    string
		want     Window // Warning is checked by wantWarn
		wantWarn []string
	}{
		{"ollama runs a loaded model at its /api/ps window, not the trained one", ollamaLoaded4K, Ollama, "qwen3:8b",
			Window{Tokens: 4096, Model: 40960, Source: "ollama /api/ps"},
			[]string{"Ollama runs qwen3:8b at a 4096-token window (the model supports 40960)", "OLLAMA_CONTEXT_LENGTH=32768", "num_ctx 32768"}},
		{"ollama: a model not loaded gets the default of 0.6.7 and later", ollamaNotLoaded, Ollama, "qwen3:8b",
			Window{Tokens: 4096, Model: 40960, Source: "ollama default", Assumed: true},
			[]string{"has not loaded qwen3:8b", "assumed 4096 tokens", "OLLAMA_CONTEXT_LENGTH"}},
		{"ollama before 0.6.7 defaults to 2048", ollamaOldNotLoaded, Ollama, "qwen3:8b",
			Window{Tokens: 2048, Model: 40960, Source: "ollama default", Assumed: true}, []string{"assumed 2048 tokens"}},
		{"ollama /api/ps without context_length falls back to the default", ollamaPsWithoutLength, Ollama, "qwen3",
			Window{Tokens: 4096, Model: 40960, Source: "ollama default", Assumed: true}, []string{"assumed 4096"}},
		{"ollama: a Modelfile num_ctx is the window", ollamaNumCtxLoaded, Ollama, "qwen3:8b",
			Window{Tokens: 16384, Model: 40960, Source: "ollama /api/show num_ctx"}, []string{"at a 16384-token window"}},
		{"lm studio v1: the loaded instance's context length", lmstudioV1, LMStudio, "gemma-3-270m-it-qat",
			Window{Tokens: 4096, Model: 32768, Source: "lmstudio /api/v1/models"},
			[]string{"LM Studio runs gemma-3-270m-it-qat at a 4096-token window (the model supports 32768)", "lms load gemma-3-270m-it-qat --context-length 32768"}},
		{"lm studio v1: a model not loaded is assumed to load at 4096", lmstudioV1, LMStudio, "qwen/qwen3-coder-30b",
			Window{Tokens: 4096, Model: 262144, Source: "lmstudio default", Assumed: true}, []string{"has not loaded qwen/qwen3-coder-30b", "--context-length 32768"}},
		{"lm studio v0 when v1 is missing: loaded_context_length", lmstudio, LMStudio, "qwen/qwen3-coder-30b",
			Window{Tokens: 32768, Model: 262144, Source: "lmstudio /api/v0/models"}, []string{"at a 32768-token window"}},
		{"lm studio v0: not loaded", lmstudio, LMStudio, "google/gemma-3-12b",
			Window{Tokens: 4096, Model: 131072, Source: "lmstudio default", Assumed: true}, []string{"assumed 4096"}},
		{"lm studio: an embedding model's own small window is not cut", lmstudioV1, LMStudio, "text-embedding-nomic-embed-text-v1.5-embedding",
			Window{Tokens: 2048, Model: 2048, Source: "lmstudio default", Assumed: true}, nil},
		{"llama.cpp says no model window, warns nothing, and gives its slots", llamacpp, LlamaCpp, "m",
			Window{Tokens: 32768, Source: "llama.cpp /props", Slots: 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Prober{Candidates: []Candidate{{Port: fake(t, tt.routes, false), Kind: tt.kind}}}
			srv, err := p.Find(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			w, err := p.Window(context.Background(), *srv, tt.model)
			if err != nil {
				t.Fatal(err)
			}
			warn := w.Warning
			w.Warning = ""
			tt.want.Kind = tt.kind // the kind of server that answered
			if w != tt.want {
				t.Errorf("Window = %+v\nwant     %+v", w, tt.want)
			}
			if (warn != "") != (tt.wantWarn != nil) {
				t.Errorf("warning = %q", warn)
			}
			for _, s := range tt.wantWarn {
				if !strings.Contains(warn, s) {
					t.Errorf("warning lacks %q:\n%s", s, warn)
				}
			}
		})
	}
}

func TestOllamaFoundByVersionWhenModelsAreNotFromTheLibrary(t *testing.T) {
	routes := map[string]string{"/v1/models": "ollama_v1_models_user.json", "/api/version": "ollama_api_version.json"}
	p := &Prober{Candidates: []Candidate{{Port: fake(t, routes, false), Kind: Unknown}}}
	srv, err := p.Find(context.Background())
	if err != nil || srv.Kind != Ollama || srv.Version != "0.12.6" {
		t.Fatalf("Find = %+v, %v; want Ollama 0.12.6", srv, err)
	}
}

func TestOllamaModelNamesMatchWithTheirLatestTag(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"qwen3", "qwen3:latest", true}, {"qwen3:8b", "qwen3:8b", true}, {"qwen3:8b", "qwen3", false},
		{"hf.co/bartowski/Qwen3-8B-GGUF:Q4_K_M", "hf.co/bartowski/Qwen3-8B-GGUF:Q4_K_M", true}, {"localhost:5000/m", "localhost:5000/m:latest", true}, {"", "", false}} {
		if got := sameOllamaModel(c.a, c.b); got != c.want {
			t.Errorf("sameOllamaModel(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestOllamaDefaultWindowByVersion(t *testing.T) {
	for v, want := range map[string]int{"0.6.2": 2048, "0.5.13": 2048, "0.6.7": 4096, "0.12.6": 4096, "0.15.5": 4096, "v0.1.32": 2048, "0.16.0-rc1": 4096, "": 4096, "dev": 4096} {
		if got := ollamaDefaultWindow(v); got != want {
			t.Errorf("ollamaDefaultWindow(%q) = %d, want %d", v, got, want)
		}
	}
}

// LM Studio answers a path it does not serve with HTTP 200 and an error
// body; taken for an Ollama or llama.cpp answer, it must not yield a
// window (least of all Ollama's assumed default).
func TestErrorBodiesWithStatus200AreNoWindow(t *testing.T) {
	junk := "lmstudio_unexpected_endpoint.json"
	routes := map[string]string{"/v1/models": "lmstudio_v1_models.json", "/props": junk, "POST /api/show": junk,
		"/api/ps": junk, "/api/version": junk, "/api/v1/models": junk, "/api/v0/models": junk}
	port := fake(t, routes, false)
	srv := Server{BaseURL: "http://127.0.0.1:" + strconv.Itoa(port) + "/v1"}
	if w, err := (&Prober{}).Window(context.Background(), srv, "qwen/qwen3-coder-30b"); !errors.Is(err, ErrNoWindow) {
		t.Errorf("Window = %+v, %v; want ErrNoWindow", w, err)
	}
}

// BenchmarkWindowOllama measures what reading Ollama's window adds to a
// start: POST /api/show, GET /api/ps and GET /api/version on loopback.
func BenchmarkWindowOllama(b *testing.B) {
	port := fake(b, ollamaNotLoaded, false)
	srv := Server{Kind: Ollama, BaseURL: "http://127.0.0.1:" + strconv.Itoa(port) + "/v1"}
	p := &Prober{}
	for b.Loop() {
		if _, err := p.Window(context.Background(), srv, "qwen3:8b"); err != nil {
			b.Fatal(err)
		}
	}
}

// POST /api/show "capabilities" (["completion","tools","thinking"] in
// ollama_api_show.json; ["completion"] for a model whose template has no
// tools) says whether Ollama accepts tools for a model.
func TestSupportsToolsReadsOllamasCapabilities(t *testing.T) {
	tests := []struct {
		name            string
		routes          map[string]string
		kind            ServerKind
		wantOK, wantKnw bool
	}{
		{"tools listed", ollamaLoaded4K, Ollama, true, true},
		{"tools not listed", map[string]string{"POST /api/show": "ollama_api_show_no_tools.json"}, Ollama, false, true},
		{"a modelfile num_ctx changes nothing", map[string]string{"POST /api/show": "ollama_api_show_num_ctx.json"}, Ollama, true, true},
		{"an older Ollama without capabilities", map[string]string{"POST /api/show": "ollama_api_show_old.json"}, Ollama, false, false},
		{"not Ollama", lmstudio, LMStudio, false, false},
		{"no answer", map[string]string{}, Ollama, false, false},
		// A --base-url server is not probed for its kind first.
		{"ollama named by --base-url", map[string]string{"POST /api/show": "ollama_api_show_no_tools.json"}, "", false, true},
		{"lm studio named by --base-url", lmstudio, "", false, false},
		{"llama.cpp is not asked", map[string]string{"POST /api/show": "ollama_api_show_no_tools.json"}, LlamaCpp, false, false},
	}
	for _, tt := range tests {
		srv := Server{Kind: tt.kind, BaseURL: "http://127.0.0.1:" + strconv.Itoa(fake(t, tt.routes, false)) + "/v1"}
		ok, known := (&Prober{}).SupportsTools(context.Background(), srv, "m")
		if ok != tt.wantOK || known != tt.wantKnw {
			t.Errorf("%s: SupportsTools = %v, %v; want %v, %v", tt.name, ok, known, tt.wantOK, tt.wantKnw)
		}
	}
}
