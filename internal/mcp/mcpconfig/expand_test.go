package mcpconfig

import (
	"slices"
	"testing"
)

// ${VAR} and ${VAR:-default} expand as Claude Code documents; Gemini's
// bare $VAR and VS Code's ${env:VAR} and ${workspaceFolder} only in those
// tools' files; anything else with a $ is kept as written.
func TestExpandVariables(t *testing.T) {
	env := envOf(map[string]string{"TOKEN": "t0k", "EMPTY": "", "PORT": "8080"})
	for _, tc := range []struct {
		in, want string
		bare     bool
		vscode   bool
		missing  []string
	}{
		{in: "Bearer ${TOKEN}", want: "Bearer t0k"},
		{in: "${URL:-https://api.example.com}/mcp", want: "https://api.example.com/mcp"},
		{in: "${TOKEN:-unused}", want: "t0k"},
		{in: "${EMPTY:-fallback}", want: "fallback"},
		{in: "${EMPTY}", want: ""},
		{in: "${NOPE}x${NOPE}${ALSO}", want: "x", missing: []string{"NOPE", "ALSO"}},
		{in: "${NOPE:-}", want: ""},
		{in: "http://h:${PORT}/${TOKEN}", want: "http://h:8080/t0k"},
		{in: "price $5 and $TOKEN", want: "price $5 and $TOKEN"},
		{in: "$TOKEN/$PORT", want: "t0k/8080", bare: true},
		{in: "$", want: "$"},
		{in: "${unclosed", want: "${unclosed"},
		{in: "${not a var}", want: "${not a var}"},
		{in: "${env:TOKEN}", want: "${env:TOKEN}"},
		{in: "${env:TOKEN}@${workspaceFolder}", want: "t0k@/ws", vscode: true},
		{in: "${userHome}/.cache", want: "/home/u/.cache", vscode: true},
		{in: "héllo ${TOKEN} wörld", want: "héllo t0k wörld"},
	} {
		x := &expander{lookup: env, bare: tc.bare, vscode: tc.vscode, workspace: "/ws", home: "/home/u"}
		if got := x.expand(tc.in); got != tc.want || !slices.Equal(x.missing, tc.missing) {
			t.Errorf("expand(%q) = %q missing %q, want %q missing %q", tc.in, got, x.missing, tc.want, tc.missing)
		}
	}
}

// Expansion covers command, args, env values, url and headers, and does
// not write into maps the caller still holds.
func TestExpandServerFieldsWithoutAliasing(t *testing.T) {
	env := map[string]string{"K": "${V}"}
	s := Server{Name: "s", Command: "${BIN}", Args: []string{"--key=${V}"}, Env: env, URL: "${U}", Headers: map[string]string{"X": "${V}"}}
	x := &expander{lookup: envOf(map[string]string{"BIN": "node", "V": "v", "U": "http://u"})}
	x.server(&s)
	if s.Command != "node" || s.Args[0] != "--key=v" || s.Env["K"] != "v" || s.URL != "http://u" || s.Headers["X"] != "v" {
		t.Errorf("%+v", s)
	}
	if env["K"] != "${V}" {
		t.Errorf("the caller's env map was changed: %v", env)
	}
}
