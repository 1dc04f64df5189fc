package testbin

import (
	"path/filepath"
	"testing"
)

// Isolate points HOME, the user config and data dirs and the session
// store at a fresh temp dir and clears the provider variables, so no test
// reads or writes the machine's own setup (config, grants, trust,
// plugins, sessions). It returns the new HOME.
func Isolate(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("ZERO_SESSION_DIR", filepath.Join(home, "sessions"))
	for _, k := range []string{"ZERO_PROVIDER", "ZERO_MODEL", "ZERO_BASE_URL", "ZERO_API_KEY", "ZERO_CONTEXT_WINDOW",
		"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"} {
		t.Setenv(k, "")
	}
	return home
}
