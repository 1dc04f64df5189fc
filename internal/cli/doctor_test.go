package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/testbin"
)

// TestDoctorProvider: zero doctor checks the active provider, or the one
// --provider names; an unknown name exits 2 listing the known ones; a
// failed check (✗) exits 1, and only a failed check does.
func TestDoctorProvider(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetModels("qwen3-coder-30b", "llama-3.3-70b")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("ZERO_SESSION_DIR", filepath.Join(home, "sessions"))
	for _, k := range []string{"ZERO_PROVIDER", "ZERO_MODEL", "ZERO_BASE_URL", "ZERO_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENAI_BASE_URL"} {
		t.Setenv(k, "")
	}
	t.Chdir(t.TempDir())
	os.MkdirAll(filepath.Join(home, ".config", "zero"), 0o700)
	// "down" is active and points at a closed port; "local" is the fake server.
	cfg := `{"activeProvider": "down", "providers": [
		{"name": "down", "kind": "openai-compatible", "baseURL": "http://127.0.0.1:9/v1", "model": "m"},
		{"name": "local", "kind": "openai-compatible", "baseURL": "` + srv.URL() + `/v1", "model": "qwen3-coder-30b"}]}`
	if err := os.WriteFile(filepath.Join(home, ".config", "zero", "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		code     int      // -1: 0 when stdout has no ✗ line, else 1 (the sandbox, bash and git checks depend on the machine)
		stdout   []string // lines that must appear
		notOut   string   // text that must not appear on stdout
		stderr   []string
		noStdout bool
	}{
		{
			name:   "active provider",
			args:   []string{"doctor"},
			code:   ExitFailed,
			stdout: []string{`✗ provider down (openai-compatible) http://127.0.0.1:9/v1 model "m": `},
			notOut: "local",
			stderr: []string{"zero: doctor: "},
		},
		{
			name:   "named provider",
			args:   []string{"doctor", "--provider", "local"},
			code:   -1,
			stdout: []string{`✓ provider local (openai-compatible) ` + srv.URL() + `/v1 model "qwen3-coder-30b": 2 models`},
			notOut: "down",
		},
		{
			name:   "a built-in profile without its key",
			args:   []string{"doctor", "--provider=anthropic"},
			code:   ExitFailed,
			stdout: []string{`✗ provider anthropic (anthropic) https://api.anthropic.com model`, "key from nowhere: no key set"},
		},
		{
			name:     "unknown name",
			args:     []string{"doctor", "--provider", "nope"},
			code:     ExitUsage,
			stderr:   []string{`zero: doctor: no provider named "nope"; known: anthropic, down, gemini, local, openai (zero providers lists them)`},
			noStdout: true,
		},
		{
			name:     "a positional name",
			args:     []string{"doctor", "local"},
			code:     ExitUsage,
			stderr:   []string{"zero doctor --provider local"},
			noStdout: true,
		},
		{
			name:   "help",
			args:   []string{"doctor", "--help"},
			code:   ExitOK,
			stdout: []string{"Usage:\n  zero doctor [flags]", "An unknown NAME exits 2", "1\nwhen one failed (✗)", "--provider NAME"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := dispatch(stdio{out: &out, err: &errb}, tc.args)
			want := tc.code
			if want == -1 {
				want = ExitOK
				if strings.Contains(out.String(), "✗") {
					want = ExitFailed
				}
			}
			if code != want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, want, out.String(), errb.String())
			}
			for _, want := range tc.stdout {
				if !strings.Contains(out.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, out.String())
				}
			}
			if tc.notOut != "" && strings.Contains(out.String(), tc.notOut) {
				t.Errorf("stdout mentions %q:\n%s", tc.notOut, out.String())
			}
			for _, want := range tc.stderr {
				if !strings.Contains(errb.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, errb.String())
				}
			}
			if tc.noStdout && out.Len() > 0 {
				t.Errorf("stdout not empty:\n%s", out.String())
			}
		})
	}
}

// TestDoctorSaysWhatZeroUses: doctor shows the kind and model Zero will
// use, not the config's raw fields: the openai profile pointed at a local
// server is OpenAI-compatible, a profile with no model shows the one Zero
// picks there, each served model is counted once (llama-server lists it
// in both "data" and "models"), and a local server's window is shown with
// Ollama's warning when it cuts the model's, and how tools reach the
// model.
func TestDoctorSaysWhatZeroUses(t *testing.T) {
	l := llmtest.NewLlamaCpp(t, "qwen2.5-coder-0.5b-q8_0.gguf", 8192)
	o := llmtest.NewOllama(t, "0.12.6",
		llmtest.OllamaModel{Name: "llama3.2:latest", Arch: "llama", ContextLength: 131072},
		llmtest.OllamaModel{Name: "qwen2.5-coder:7b", Arch: "qwen2", ContextLength: 32768, Loaded: 4096},
		llmtest.OllamaModel{Name: "stablelm2:latest", Arch: "stablelm", ContextLength: 4096, Capabilities: []string{"completion"}})
	for _, tc := range []struct {
		name   string
		env    map[string]string
		config string
		stdout []string
	}{
		{
			name:   "llama-server without a model set",
			config: `{"activeProvider": "local", "providers": [{"name": "local", "kind": "openai-compatible", "baseURL": "` + l.URL() + `/v1"}]}`,
			stdout: []string{
				`✓ provider local (openai-compatible) ` + l.URL() + `/v1 model "qwen2.5-coder-0.5b-q8_0.gguf" (none set: the one Zero picks on the server): 1 model` + "\n",
				"· window: 8192 tokens (llama.cpp /props)\n",
				"· tools: native tool calls (listed in the prompt instead if the server refuses them)\n",
			},
		},
		{
			name:   "an Ollama model without tools",
			config: `{"activeProvider": "local", "providers": [{"name": "local", "kind": "openai-compatible", "baseURL": "` + o.URL() + `", "model": "stablelm2:latest"}]}`,
			stdout: []string{`· tools: Ollama lists no "tools" capability for stablelm2:latest: listing the tools in the prompt instead (prompted tool protocol)` + "\n"},
		},
		{
			name:   "tools configured",
			config: `{"toolProtocol": "prompted", "activeProvider": "local", "providers": [{"name": "local", "kind": "openai-compatible", "baseURL": "` + l.URL() + `"}]}`,
			stdout: []string{`· tools: prompted ("toolProtocol" in the config)` + "\n"},
		},
		{
			name: "the openai profile pointed at Ollama",
			env:  map[string]string{"OPENAI_BASE_URL": o.URL() + "/v1"},
			stdout: []string{
				`✓ provider openai (openai-compatible, as its base URL is not api.openai.com) ` + o.URL() + `/v1 model "qwen2.5-coder:7b" (none set: the one Zero picks on the server): 3 models` + "\n",
				"· window: 4096 tokens (ollama /api/ps; the model supports 32768)\n",
				"! Ollama runs qwen2.5-coder:7b at a 4096-token window (the model supports 32768)",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := testbin.Isolate(t)
			t.Chdir(t.TempDir())
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			if tc.config != "" {
				os.MkdirAll(filepath.Join(home, ".config", "zero"), 0o700)
				if err := os.WriteFile(filepath.Join(home, ".config", "zero", "config.json"), []byte(tc.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var out, errb bytes.Buffer
			dispatch(stdio{out: &out, err: &errb}, []string{"doctor"})
			for _, want := range tc.stdout {
				if !strings.Contains(out.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}

// zero doctor's network line names the sandbox.network value in force
// and what shell commands reach with it.
func TestDoctorReportsTheShellNetwork(t *testing.T) {
	for _, tt := range []struct {
		cfg     *config.Config
		backend string
		want    string
	}{
		{&config.Config{}, sandbox.BackendBubblewrap, "off (shell commands reach no network"},
		{&config.Config{SandboxNetwork: config.NetworkAsk}, sandbox.BackendBubblewrap, "ask (sandbox.network in the config: package installs, remote git, curl and wget ask"},
		{&config.Config{SandboxNetwork: config.NetworkOn}, sandbox.BackendLandlock, "on (sandbox.network in the config: every shell command"},
		{&config.Config{SandboxNetwork: config.NetworkAsk}, sandbox.BackendNone, "not confined"},
		{&config.Config{NoSandbox: true}, sandbox.BackendBubblewrap, "not confined"},
	} {
		if got := networkText(tt.cfg, tt.backend); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%+v on %s: %q, want %q…", tt.cfg, tt.backend, got, tt.want)
		}
	}
}

// TestDoctorNamesABrokenConfigOnce: a config that does not parse fails
// doctor with one "config:" and the file's path and problem.
func TestDoctorNamesABrokenConfigOnce(t *testing.T) {
	home, _ := isolate(t)
	path := filepath.Join(home, ".config", "zero", "config.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"sandbox": {"network": "bogus"}}`), 0o600)
	r := zero("doctor")
	if r.code != ExitCrash || !strings.Contains(r.out, "✗ config: "+path+": sandbox.network must be") || strings.Contains(r.out, "config: config:") {
		t.Fatalf("zero doctor: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}

// zero doctor counts the installed plugins, and an enabled one that no
// longer loads (edited after install) fails the check, named.
func TestDoctorListsPlugins(t *testing.T) {
	home, dir := isolate(t)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	src := filepath.Join(dir, "notes")
	writeFile(t, filepath.Join(src, "skills", "jot", "SKILL.md"), "---\ndescription: Jots\n---\nJot.\n")
	mustRun(t, "plugin", "add", src)
	if r := zero("doctor"); !strings.Contains(r.out, "✓ plugins: 1 installed, 1 loaded, 0 disabled, 0 not loaded") {
		t.Fatalf("doctor with a plugin:\n%s", r.out)
	}
	writeFile(t, filepath.Join(home, ".local", "share", "zero", "plugins", "notes", "skills", "jot", "SKILL.md"), "edited\n")
	r := zero("doctor")
	if r.code != ExitFailed || !strings.Contains(r.out, "✗ plugins: 1 installed, 0 loaded, 0 disabled, 1 not loaded") || !strings.Contains(r.out, "plugin notes not loaded") {
		t.Errorf("doctor with a modified plugin: exit %d\n%s", r.code, r.out)
	}
}

// TestDoctorFailsABrokenSettingsFileAsASessionWould: doctor reads the
// settings files a session reads, so a trusted folder's
// .claude/settings.json that does not parse fails the check, naming the
// file and the position; the same file parsed lists where the hooks and
// rules come from.
func TestDoctorFailsABrokenSettingsFileAsASessionWould(t *testing.T) {
	_, dir := isolate(t)
	path := filepath.Join(dir, ".claude", "settings.json")
	writeFile(t, path, `{"permissions": {"allow": ["Bash(ls)"]} oops}`)
	mustRun(t, "trust")
	r := zero("doctor")
	want := "✗ settings: " + path + ": not valid JSON: line 1, column 41: invalid character 'o'"
	if r.code != ExitFailed || !strings.Contains(r.out, want) || strings.Contains(r.out, "hujson") {
		t.Fatalf("doctor with a broken settings file: exit %d, want %q\n%s%s", r.code, want, r.out, r.errOut)
	}
	writeFile(t, path, `{"permissions": {"allow": ["Bash(ls)"]}}`)
	mustRun(t, "trust")
	if r := zero("doctor"); !strings.Contains(r.out, "✓ settings: hooks and permission rules from "+path) {
		t.Errorf("doctor with a sound settings file:\n%s", r.out)
	}
}

// TestHooksListSaysInWordsWhyProjectFilesAreIgnored: in a folder never
// trusted, or changed since, zero hooks list says so and what to do, not
// the trust state's code name.
func TestHooksListSaysInWordsWhyProjectFilesAreIgnored(t *testing.T) {
	_, dir := isolate(t)
	path := filepath.Join(dir, ".claude", "settings.json")
	writeFile(t, path, `{"permissions": {"allow": ["Bash(ls)"]}}`)
	r := mustRun(t, "hooks", "list")
	if !strings.Contains(r.out, "this folder is not trusted, so its project files are ignored: .claude/settings.json; run `zero trust` to load them") || strings.Contains(r.out, "never") {
		t.Errorf("untrusted:\n%s", r.out)
	}
	mustRun(t, "trust")
	writeFile(t, path, `{"permissions": {"allow": ["Bash(rm:*)"]}}`)
	r = mustRun(t, "hooks", "list")
	if !strings.Contains(r.out, "this folder changed since you trusted it (.claude/settings.json), so its project files are ignored: .claude/settings.json; review them, then run `zero trust`") {
		t.Errorf("changed since trusted:\n%s", r.out)
	}
}
