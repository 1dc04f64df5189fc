package catalog

import (
	"math"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		provider, model string
		wantID          string // "" means not found
	}{
		{"openai", "gpt-4.1", "gpt-4.1"},
		{"openai", "gpt-4.1-mini", "gpt-4.1-mini"},
		{"openai", "gpt-4.1-mini-2025-04-14", "gpt-4.1-mini"},
		{"openai", "gpt-4o-2024-08-06", "gpt-4o"},
		{"openai", "GPT-4o-Mini", "gpt-4o-mini"},
		{"openai", "o3-2025-04-16", "o3"},
		{"openai", "o4-mini", "o4-mini"},
		{"openai", "gpt-5-2025-08-07", "gpt-5"},
		{"openai", "gpt-5-mini", "gpt-5-mini"},
		{"openai", "gpt-5-chat-latest", ""}, // not a tool model; not guessed as gpt-5
		{"openai", "gpt-5.4-2026-03-05", "gpt-5.4"},
		{"openai", "gpt-5.4-mini", ""}, // not guessed as gpt-5.4
		{"anthropic", "claude-sonnet-4-6", "claude-sonnet-4-6"},
		{"anthropic", "claude-sonnet-4-7", ""}, // not guessed as claude-sonnet-4
		{"gemini", "gemini-3-flash-preview", "gemini-3-flash-preview"},
		{"anthropic", "claude-sonnet-4-20250514", "claude-sonnet-4"},
		{"anthropic", "claude-sonnet-4-0", "claude-sonnet-4"},
		{"anthropic", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5"},
		{"anthropic", "claude-opus-4-1-20250805", "claude-opus-4-1"},
		{"anthropic", "claude-opus-4-20250514", "claude-opus-4"},
		{"anthropic", "claude-haiku-4-5", "claude-haiku-4-5"},
		{"anthropic", "claude-3-5-haiku-latest", "claude-3-5-haiku"},
		{"anthropic", "claude-3-5-haiku-20241022", "claude-3-5-haiku"},
		{"", "us.anthropic.claude-sonnet-4-20250514-v1:0", "claude-sonnet-4"},
		{"vertex", "claude-opus-4-1@20250805", "claude-opus-4-1"},
		{"gemini", "gemini-2.5-pro", "gemini-2.5-pro"},
		{"gemini", "models/gemini-2.5-flash", "gemini-2.5-flash"},
		{"gemini", "gemini-2.5-flash-lite", "gemini-2.5-flash-lite"},
		{"gemini", "gemini-2.5-flash-preview-05-20", "gemini-2.5-flash"},
		{"gemini", "gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash"},
		{"google", "gemini-2.0-flash-001", "gemini-2.0-flash"},
		{"openrouter", "anthropic/claude-sonnet-4", "claude-sonnet-4"},
		{"", "openai/gpt-4o", "gpt-4o"},
		{"openai-compatible", "openrouter/google/gemini-2.5-pro", "gemini-2.5-pro"},
		{"openai", "claude-sonnet-4", ""}, // the OpenAI API does not serve it
		{"openai-compatible", "qwen2.5-coder:7b", ""},
		{"ollama", "llama3.1:8b", ""},
		{"", "", ""},
	}
	for _, tc := range tests {
		m, ok := Lookup(tc.provider, tc.model)
		if ok != (tc.wantID != "") || m.ID != tc.wantID {
			t.Errorf("Lookup(%q, %q) = %q, %v; want %q", tc.provider, tc.model, m.ID, ok, tc.wantID)
		}
		if ok && !m.Known {
			t.Errorf("Lookup(%q, %q): Known is false", tc.provider, tc.model)
		}
	}
}

func TestResolveUnknown(t *testing.T) {
	tests := []struct {
		provider, model string
		window          int
		warning         string
	}{
		{"openai-compatible", "qwen2.5-coder:7b", 8192,
			"unknown model qwen2.5-coder:7b: assuming an 8K-token window; set contextWindow in config or ZERO_CONTEXT_WINDOW"},
		{"openai", "gpt-9-turbo", 128000,
			"unknown model gpt-9-turbo: assuming a 128K-token window (the smallest of current openai models); set contextWindow in config or ZERO_CONTEXT_WINDOW"},
		{"ollama", "gpt-oss:20b", 8192,
			"unknown model gpt-oss:20b: assuming an 8K-token window; set contextWindow in config or ZERO_CONTEXT_WINDOW"},
		{"", "mystery", 8192,
			"unknown model mystery: assuming an 8K-token window; set contextWindow in config or ZERO_CONTEXT_WINDOW"},
		{"anthropic", "claude-opus-9", 200000,
			"unknown model claude-opus-9: assuming a 200K-token window (the smallest of current anthropic models); set contextWindow in config or ZERO_CONTEXT_WINDOW"},
		{"gemini", "gemini-9-ultra", 1048576,
			"unknown model gemini-9-ultra: assuming a 1M-token window (the smallest of current gemini models); set contextWindow in config or ZERO_CONTEXT_WINDOW"},
	}
	for _, tc := range tests {
		m, warning := Resolve(tc.provider, tc.model)
		if m.Known || m.ContextWindow != tc.window || m.ID != tc.model {
			t.Errorf("Resolve(%q, %q) = %+v; want an unknown model with window %d", tc.provider, tc.model, m, tc.window)
		}
		if warning != tc.warning {
			t.Errorf("Resolve(%q, %q) warning\n got %q\nwant %q", tc.provider, tc.model, warning, tc.warning)
		}
	}
	m, warning := Resolve("anthropic", "claude-sonnet-4-20250514")
	if !m.Known || m.ContextWindow != 200000 || warning != "" {
		t.Errorf("Resolve of a catalog model = %+v, %q", m, warning)
	}
}

func TestWindow(t *testing.T) {
	gpt41, _ := Lookup("openai", "gpt-4.1")
	local, _ := Resolve("openai-compatible", "qwen3:8b")
	claudeNext, _ := Resolve("anthropic", "claude-opus-9")
	tests := []struct {
		name                   string
		m                      Model
		discovered, configured int
		want                   int
		source                 string
	}{
		{"catalog", gpt41, 0, 0, 1047576, "catalog"},
		{"server beats catalog", gpt41, 32768, 0, 32768, "server"},
		{"config beats server", gpt41, 32768, 65536, 65536, "config"},
		{"config beats catalog", gpt41, 0, 100000, 100000, "config"},
		{"non-positive values are not given", gpt41, -1, -5, 1047576, "catalog"},
		{"unknown local model", local, 0, 0, 8192, "default"},
		{"unknown local model, server says", local, 40960, 0, 40960, "server"},
		{"unknown vendor model", claudeNext, 0, 0, 200000, "default"},
		{"zero value", Model{}, 0, 0, DefaultWindow, "default"},
	}
	for _, tc := range tests {
		got, source := Window(tc.m, tc.discovered, tc.configured)
		if got != tc.want || source != tc.source {
			t.Errorf("%s: Window = %d, %q; want %d, %q", tc.name, got, source, tc.want, tc.source)
		}
	}
}

func TestCost(t *testing.T) {
	model := func(p, id string) Model {
		m, ok := Lookup(p, id)
		if !ok {
			t.Fatalf("%s/%s not in catalog", p, id)
		}
		return m
	}
	unknown, _ := Resolve("ollama", "llama3.1:8b")
	tests := []struct {
		name  string
		m     Model
		u     llm.Usage
		want  float64
		known bool
	}{
		// 6000 x $2 + 4000 cached x $0.50 + 2000 out x $8 = $0.03
		{"openai with cached input", model("openai", "gpt-4.1"),
			llm.Usage{InputTokens: 10000, OutputTokens: 2000, CacheReadTokens: 4000}, 0.03, true},
		// 10000 x $3 + 30000 read x $0.30 + 10000 write x $3.75 + 1000 out x $15 = $0.0915
		{"anthropic cache read and write", model("anthropic", "claude-sonnet-4-20250514"),
			llm.Usage{InputTokens: 50000, OutputTokens: 1000, CacheReadTokens: 30000, CacheWriteTokens: 10000}, 0.0915, true},
		// over 200K: 300000 x $6 + 1000 out x $22.50 = $1.8225
		{"anthropic long context", model("anthropic", "claude-sonnet-4-5"),
			llm.Usage{InputTokens: 300000, OutputTokens: 1000}, 1.8225, true},
		// 80000 x $1.25 + 20000 cached x $0.125 + 5000 out x $10 = $0.1525
		{"gemini pro", model("gemini", "gemini-2.5-pro"),
			llm.Usage{InputTokens: 100000, OutputTokens: 5000, CacheReadTokens: 20000}, 0.1525, true},
		// over 200K: 200000 x $2.50 + 50000 cached x $0.25 + 1000 out x $15 = $0.5275
		{"gemini pro long context", model("gemini", "gemini-2.5-pro"),
			llm.Usage{InputTokens: 250000, OutputTokens: 1000, CacheReadTokens: 50000}, 0.5275, true},
		// exactly at the threshold is still the standard tier: 200000 x $1.25 = $0.25
		{"gemini pro at the threshold", model("gemini", "gemini-2.5-pro"),
			llm.Usage{InputTokens: 200000}, 0.25, true},
		// no cached price listed: 10000 x $0.075 + 1000 out x $0.30 = $0.00105
		{"no cached price", model("gemini", "gemini-2.0-flash-lite"),
			llm.Usage{InputTokens: 10000, OutputTokens: 1000, CacheReadTokens: 5000}, 0.00105, true},
		// no write price listed: 1000 written x $0.30 = $0.0003
		{"no cache write price", model("gemini", "gemini-2.5-flash"),
			llm.Usage{InputTokens: 1000, CacheWriteTokens: 1000}, 0.0003, true},
		// cache reads larger than the prompt are capped at it: 100 x $1.25 = $0.000125
		{"inconsistent report", model("openai", "gpt-4o"),
			llm.Usage{InputTokens: 100, CacheReadTokens: 500}, 0.000125, true},
		// reasoning tokens are inside OutputTokens: 1000 x $1.10 + 3000 x $4.40 = $0.0143
		{"reasoning model", model("openai", "o4-mini"),
			llm.Usage{InputTokens: 1000, OutputTokens: 3000, ReasoningTokens: 2500}, 0.0143, true},
		{"no usage", model("openai", "gpt-5"), llm.Usage{}, 0, true},
		{"unknown model", unknown, llm.Usage{InputTokens: 1000, OutputTokens: 1000}, 0, false},
		{"zero model", Model{}, llm.Usage{InputTokens: 1000}, 0, false},
	}
	for _, tc := range tests {
		got, known := Cost(tc.m, tc.u)
		if known != tc.known || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: Cost = %.10f, %v; want %.10f, %v", tc.name, got, known, tc.want, tc.known)
		}
	}
}

// TestCatalogData checks the embedded file: the models the issue names are
// there, numbers are sane, and no id or alias is listed twice.
func TestCatalogData(t *testing.T) {
	required := map[string][]string{
		"openai": {"gpt-4.1", "gpt-4.1-mini", "gpt-4o", "gpt-4o-mini", "o3", "o4-mini",
			"gpt-5", "gpt-5-mini", "gpt-5-nano"},
		"anthropic": {"claude-opus-4", "claude-sonnet-4", "claude-3-5-haiku", "claude-sonnet-4-5",
			"claude-haiku-4-5", "claude-opus-4-1"},
		"gemini": {"gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.0-flash"},
	}
	for p, ids := range required {
		for _, id := range ids {
			if m, ok := Lookup(p, id); !ok || m.ID != id || m.Provider != p {
				t.Errorf("%s/%s missing from the catalog", p, id)
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range Models("") {
		if vendor(m.Provider) != m.Provider {
			t.Errorf("%s: provider %q", m.ID, m.Provider)
		}
		for _, id := range append([]string{m.ID}, m.Aliases...) {
			if id != strings.ToLower(id) || seen[m.Provider+"/"+id] {
				t.Errorf("%s/%s: listed twice or not lower case", m.Provider, id)
			}
			seen[m.Provider+"/"+id] = true
		}
		if m.ContextWindow < 100000 || m.MaxOutput <= 0 || m.MaxOutput > m.ContextWindow {
			t.Errorf("%s: window %d, max output %d", m.ID, m.ContextWindow, m.MaxOutput)
		}
		if !m.Tools {
			t.Errorf("%s: a catalog model must take tools", m.ID)
		}
		p := m.Price
		if p.Input <= 0 || p.Output < p.Input || p.CachedInput < 0 || p.CachedInput > p.Input ||
			(p.CacheWrite != 0 && p.CacheWrite < p.Input) {
			t.Errorf("%s: implausible price %+v", m.ID, p)
		}
		if l := m.LongContext; l != nil && (l.Above <= 0 || l.Input < p.Input || l.Output < p.Output) {
			t.Errorf("%s: implausible long-context tier %+v", m.ID, *l)
		}
	}
	if n := len(Models("anthropic")); n == 0 || n == len(Models("")) {
		t.Errorf("Models(anthropic) returned %d of %d", n, len(Models("")))
	}
	if got := Models("ollama"); len(got) != 0 {
		t.Errorf("Models(ollama) = %d models, want none", len(got))
	}
}

// TestModelsAreCopies checks that a caller changing a returned model does
// not change the catalog.
func TestModelsAreCopies(t *testing.T) {
	m, _ := Lookup("anthropic", "claude-sonnet-4")
	m.Aliases[0] = "changed"
	m.LongContext.Input = 0
	m.ContextWindow = 1
	again, ok := Lookup("anthropic", "claude-sonnet-4-0")
	if !ok || again.LongContext.Input == 0 || again.ContextWindow != 200000 {
		t.Errorf("catalog changed through a returned model: %+v, %v", again, ok)
	}
}

// TestOutputCap: the config's cap wins, a reasoning model gets room for
// its thinking, and no cap passes the model's own output limit.
func TestOutputCap(t *testing.T) {
	local := Model{Provider: "openai-compatible", ID: "qwen3-coder"}
	reasoning := Model{Provider: "openai", ID: "r", MaxOutput: 128000, Reasoning: true, Known: true}
	small := Model{Provider: "anthropic", ID: "s", MaxOutput: 4096, Known: true}
	for _, tc := range []struct {
		name       string
		m          Model
		configured int
		want       int
	}{
		{"local model, nothing configured", local, 0, DefaultOutputCap},
		{"local model, configured", local, 2048, 2048},
		{"reasoning model", reasoning, 0, ReasoningOutputCap},
		{"configured beats reasoning", reasoning, 4000, 4000},
		{"model limit caps the default", small, 0, 4096},
		{"model limit caps the config", small, 100000, 4096},
	} {
		if got := OutputCap(tc.m, tc.configured); got != tc.want {
			t.Errorf("%s: OutputCap = %d, want %d", tc.name, got, tc.want)
		}
	}
	for _, m := range Models("anthropic") {
		if got := OutputCap(m, 0); got <= 0 || (m.MaxOutput > 0 && got > m.MaxOutput) {
			t.Errorf("%s: OutputCap = %d (max output %d)", m.ID, got, m.MaxOutput)
		}
	}
}
