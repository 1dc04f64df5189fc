package catalog

import "testing"

// FuzzLookup feeds arbitrary provider and model names to Lookup and
// Resolve: they must not panic, a found model must be found again by its
// own id, and an unknown one always gets a positive window and a warning.
func FuzzLookup(f *testing.F) {
	for _, s := range [][2]string{
		{"anthropic", "claude-sonnet-4-20250514"},
		{"", "us.anthropic.claude-sonnet-4-20250514-v1:0"},
		{"gemini", "models/gemini-2.5-flash-preview-09-2025"},
		{"openrouter", "openrouter/google/gemini-2.5-pro"},
		{"openai-compatible", "qwen2.5-coder:7b"},
		{"openai", "gpt-4o-2024-08-06"},
		{"", "-latest-latest@20250101"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, provider, model string) {
		m, ok := Lookup(provider, model)
		if ok {
			again, ok2 := Lookup(m.Provider, m.ID)
			if !ok2 || again.ID != m.ID {
				t.Fatalf("Lookup(%q, %q) found %s/%s, which is not found by its own id", provider, model, m.Provider, m.ID)
			}
		}
		r, warning := Resolve(provider, model)
		if r.ContextWindow <= 0 || (!ok && warning == "") || (ok && warning != "") {
			t.Fatalf("Resolve(%q, %q) = %+v, %q", provider, model, r, warning)
		}
	})
}
