// Package catalog knows the cloud models Zero talks to: each model's
// context window, output cap, abilities and price, and how to pick a
// context window for a model it does not know.
//
// Why it exists: the context window drives compaction and the price drives
// the cost shown after a run. Guessing a window is how agents overflow
// small local models, so an unknown model gets a small window and a
// warning, never a silent 200K guess (issue 3, item 5). Live windows from
// model servers (llama.cpp /props, Ollama /api/show) are discovered in
// internal/providers/discovery and passed to Window as an override.
//
// The data is models.json, embedded in the binary, written on 2026-11-30
// (AsOf) from the vendors' published model and pricing pages below. The
// build machine has no network, so the pages were not re-read live that
// day; the 2026 entries (gpt-5.2, gpt-5.4, claude-opus-4-6,
// claude-sonnet-4-6, gemini-3-flash-preview) were checked against
// published summaries of those pages. Anthropic's 4.x models are listed at
// their standard 200K window (1M is an opt-in), and gpt-5.4's higher price
// for prompts past 272K tokens is not modelled. Check the pages before
// relying on a number. Sources:
//   - OpenAI: https://platform.openai.com/docs/models and
//     https://openai.com/api/pricing/
//   - Anthropic: https://docs.anthropic.com/en/docs/about-claude/models/overview
//     and https://docs.anthropic.com/en/docs/about-claude/pricing (cache
//     writes: the 5-minute TTL price, 1.25x input)
//   - Gemini: https://ai.google.dev/gemini-api/docs/models and
//     https://ai.google.dev/gemini-api/docs/pricing (paid tier, text input)
//
// This package is pure data and arithmetic: no I/O beyond the embedded
// file, and it must not import provider packages.
package catalog

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"github.com/zero-agent/zero/internal/lazyregexp"
	"slices"
	"strings"
	"sync"

	"github.com/zero-agent/zero/internal/llm"
)

// AsOf is the date the embedded data was recorded.
const AsOf = "2026-11-30"

// DefaultWindow is the context window, in tokens, assumed for a model
// nobody described: small enough for any local server's default n_ctx.
const DefaultWindow = 8192

// Model is what the catalog knows about one model. The zero value is an
// unknown model (Known false).
type Model struct {
	// Provider is "openai", "anthropic" or "gemini" for catalog models;
	// for a Resolve guess, whatever the caller passed.
	Provider string `json:"provider"`
	// ID is the vendor's canonical id without a date, e.g. "claude-sonnet-4".
	ID string `json:"id"`
	// Aliases are other ids the vendor accepts for the model.
	Aliases []string `json:"aliases,omitempty"`
	// ContextWindow is the most tokens (prompt plus output) one request
	// may hold, as the vendor states it.
	ContextWindow int `json:"context"`
	// MaxOutput is the most output tokens one response may have; 0 when
	// unknown.
	MaxOutput int `json:"max_output"`
	// Tools, Reasoning and ImageInput say whether the model takes function
	// tools, thinks before answering, and accepts images.
	Tools      bool `json:"tools"`
	Reasoning  bool `json:"reasoning"`
	ImageInput bool `json:"images"`
	// ApplyPatch says the model was trained to edit with apply_patch's
	// patch format, and gets that tool instead of edit_file (OpenAI's
	// GPT-4.1 prompting guide: https://cookbook.openai.com/examples/gpt4-1_prompting_guide;
	// Codex offers it to its GPT-5 models).
	ApplyPatch bool `json:"patch,omitempty"`
	// Price is the standard price; LongContext, when set, replaces it for a
	// request whose prompt is larger than LongContext.Above tokens.
	Price       Price      `json:"price"`
	LongContext *LongPrice `json:"long,omitempty"`
	// Known is true for catalog entries and false for Resolve's guesses.
	Known bool `json:"-"`
}

// Price is USD per million tokens. Zero CachedInput or CacheWrite means
// the vendor lists no separate price: those tokens cost Input.
type Price struct {
	Input       float64 `json:"in"`
	Output      float64 `json:"out"`
	CachedInput float64 `json:"cached,omitempty"`
	CacheWrite  float64 `json:"write,omitempty"`
}

// LongPrice is a price tier for prompts longer than Above tokens (Gemini
// 2.5 Pro and Claude Sonnet 4/4.5 bill the whole request at it).
type LongPrice struct {
	Above int `json:"above"`
	Price
}

//go:embed models.json
var modelsJSON []byte

// models returns the parsed catalog, in file order. It is parsed on first
// use, so start-up does not pay for it.
var models = sync.OnceValue(func() []Model { return mustLoad(modelsJSON) })

func mustLoad(data []byte) []Model {
	var f struct {
		Models []Model `json:"models"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		panic("catalog: embedded models.json: " + err.Error())
	}
	for i := range f.Models {
		f.Models[i].Known = true
	}
	return f.Models
}

// Models returns the catalog's models of one provider ("" for all), in
// catalog order (newest first within a vendor). The models are copies.
func Models(provider string) []Model {
	p := vendor(provider)
	var out []Model
	for _, m := range models() {
		if provider == "" || m.Provider == p {
			out = append(out, m.clone())
		}
	}
	return out
}

// clone returns m with its own copies of Aliases and LongContext, so a
// caller cannot change the catalog.
func (m Model) clone() Model {
	m.Aliases = slices.Clone(m.Aliases)
	if m.LongContext != nil {
		l := *m.LongContext
		m.LongContext = &l
	}
	return m
}

// vendor maps a provider kind or common name onto a catalog provider, or
// "" when the name is not one. Clouds that resell several vendors (Vertex,
// Bedrock, OpenRouter) map to "", so every vendor is searched.
func vendor(provider string) string {
	switch strings.ToLower(strings.TrimSpace(provider)) {
	case "openai":
		return "openai"
	case "anthropic", "claude":
		return "anthropic"
	case "gemini", "google", "google-genai":
		return "gemini"
	}
	return ""
}

// Suffixes that name a snapshot or a channel of a model, tried in order
// when an id does not match: Vertex "@20250514", Bedrock "-v1:0", Anthropic
// "-20250514", OpenAI "-2025-04-14" and "-0613", Gemini "-001" and
// "-preview-05-20", and "-latest". Compiled on first use: start-up time
// counts.
var snapshotSuffixes = []*lazyregexp.Regexp{
	lazyregexp.New(`@\d{8}$`),
	lazyregexp.New(`-v\d+(:\d+)?$`),
	lazyregexp.New(`-\d{8}$`),
	lazyregexp.New(`-\d{4}-\d{2}-\d{2}$`),
	lazyregexp.New(`-\d{3,4}$`),
	lazyregexp.New(`-(preview|exp)(-[0-9-]+)?$`),
	lazyregexp.New(`-latest$`),
}

// Lookup finds a model by id. It accepts exact ids and aliases in any
// case, dated snapshots ("claude-sonnet-4-20250514" is claude-sonnet-4,
// "gpt-4o-2024-08-06" is gpt-4o, "gemini-2.0-flash-001" is
// gemini-2.0-flash), "provider/model" and "models/model" forms, and
// Bedrock/Vertex spellings ("anthropic.claude-sonnet-4-20250514-v1:0",
// "claude-sonnet-4@20250514"). provider is a provider kind ("openai",
// "anthropic", "gemini"); any other name (openai-compatible, openrouter,
// "") searches every vendor.
func Lookup(provider, model string) (Model, bool) {
	p := vendor(provider)
	id := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		prefix := id[:i]
		if v := vendor(prefix[strings.LastIndexByte(prefix, '/')+1:]); v != "" {
			p = v
		}
		id = id[i+1:]
	}
	if i := strings.LastIndex(id, "anthropic."); i >= 0 {
		id = id[i+len("anthropic."):]
		p = "anthropic"
	}
	for id != "" {
		if m, ok := find(p, id); ok {
			return m, true
		}
		stripped := id
		for _, re := range snapshotSuffixes {
			if loc := re.FindStringIndex(id); loc != nil {
				stripped = id[:loc[0]]
				break
			}
		}
		if stripped == id {
			break
		}
		id = stripped
	}
	return Model{}, false
}

func find(provider, id string) (Model, bool) {
	for _, m := range models() {
		if provider != "" && m.Provider != provider {
			continue
		}
		if m.ID == id || slices.Contains(m.Aliases, id) {
			return m.clone(), true
		}
	}
	return Model{}, false
}

// Resolve returns the catalog entry for a model, or, for a model the
// catalog does not know, a guess with Known false and a warning to show
// the user. The guess for a model of a catalog vendor (provider "openai",
// "anthropic" or "gemini": the vendors' own APIs) is the smallest window
// among that vendor's catalog models, named in the warning; for anything
// else (OpenAI-compatible and local servers, unknown providers) it is
// DefaultWindow, with the warning "unknown model X: assuming an 8K-token
// window; set contextWindow in config or ZERO_CONTEXT_WINDOW". A window
// discovered from the server or configured by the user still wins: see
// Window.
func Resolve(provider, model string) (Model, string) {
	if m, ok := Lookup(provider, model); ok {
		return m, ""
	}
	window := DefaultWindow
	basis := ""
	if v := vendor(provider); v != "" {
		for _, m := range models() {
			if m.Provider == v && (basis == "" || m.ContextWindow < window) {
				window, basis = m.ContextWindow, fmt.Sprintf(" (the smallest of current %s models)", v)
			}
		}
	}
	g := Model{Provider: provider, ID: model, ContextWindow: window, Tools: true}
	return g, fmt.Sprintf("unknown model %s: assuming %s %s-token window%s; set contextWindow in config or ZERO_CONTEXT_WINDOW",
		model, article(window), shortTokens(window), basis)
}

// Window picks the context window for a request, in tokens, and names
// where it came from. Precedence: configured (the user's context_window or
// ZERO_CONTEXT_WINDOW) > discovered (the server's live n_ctx or
// context_length) > the catalog > m's guessed window or DefaultWindow.
// Values <= 0 mean "not given". source is "config", "server", "catalog"
// or "default".
func Window(m Model, discovered, configured int) (tokens int, source string) {
	switch {
	case configured > 0:
		return configured, "config"
	case discovered > 0:
		return discovered, "server"
	case m.Known && m.ContextWindow > 0:
		return m.ContextWindow, "catalog"
	case m.ContextWindow > 0:
		return m.ContextWindow, "default"
	}
	return DefaultWindow, "default"
}

// Output caps, in tokens, of one reply when the config sets none
// (maxOutputTokens). A reasoning model gets more because its thinking is
// counted against the same cap: OpenAI's max_completion_tokens and
// Gemini's maxOutputTokens include reasoning tokens
// (https://platform.openai.com/docs/guides/reasoning,
// https://ai.google.dev/gemini-api/docs/thinking), so 8192 could end a
// hard turn before its answer.
const (
	DefaultOutputCap   = 8192
	ReasoningOutputCap = 32768
)

// OutputCap is the most output tokens one reply of m should ask for:
// configured (the config's maxOutputTokens) when > 0, else
// ReasoningOutputCap for a reasoning model and DefaultOutputCap for the
// rest; never more than m's own MaxOutput when the catalog knows it (a
// vendor refuses a max_tokens above it). The agent lowers it further to
// the room the context window leaves.
func OutputCap(m Model, configured int) int {
	c := configured
	if c <= 0 {
		c = DefaultOutputCap
		if m.Reasoning {
			c = ReasoningOutputCap
		}
	}
	if m.MaxOutput > 0 {
		c = min(c, m.MaxOutput)
	}
	return c
}

// Cost estimates the USD price of one request's usage. Input tokens are
// split into cache reads (at CachedInput), cache writes (at CacheWrite)
// and the rest (at Input); output tokens, which include reasoning tokens
// as OpenAI and Anthropic report them, cost Output. A prompt over the
// long-context threshold is billed wholly at the long tier. known is false
// when m is not a catalog model or has no price; usd is then 0.
func Cost(m Model, u llm.Usage) (usd float64, known bool) {
	if !m.Known || (m.Price.Input == 0 && m.Price.Output == 0) {
		return 0, false
	}
	p := m.Price
	if m.LongContext != nil && u.InputTokens > m.LongContext.Above {
		p = m.LongContext.Price
	}
	input := max(u.InputTokens, 0)
	read := min(max(u.CacheReadTokens, 0), input)
	write := min(max(u.CacheWriteTokens, 0), input-read)
	plain := input - read - write
	cached, writeP := p.CachedInput, p.CacheWrite
	if cached == 0 {
		cached = p.Input
	}
	if writeP == 0 {
		writeP = p.Input
	}
	micro := float64(plain)*p.Input + float64(read)*cached + float64(write)*writeP +
		float64(max(u.OutputTokens, 0))*p.Output
	return micro / 1e6, true
}

// shortTokens writes a token count the way people say it: 8192 is "8K",
// 200000 "200K", 1048576 "1M".
func shortTokens(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1000000 && n%1000000 == 0:
		return fmt.Sprintf("%dM", n/1000000)
	case n >= 1024 && n < 100000 && n%1024 == 0:
		return fmt.Sprintf("%dK", n/1024)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dK", n/1000)
	}
	return fmt.Sprint(n)
}

// article is "an" before a count spoken with a vowel sound (8K, 11K,
// 18K, 80K...), else "a".
func article(n int) string {
	s := shortTokens(n)
	if strings.HasPrefix(s, "8") || strings.HasPrefix(s, "11K") || strings.HasPrefix(s, "18K") {
		return "an"
	}
	return "a"
}
