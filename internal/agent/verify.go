package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
	"github.com/zero-agent/zero/internal/llm/textcalls"
	"github.com/zero-agent/zero/internal/shellguard"
)

// Verification commands for the completion check (QA: an `ls` that exited
// 0 used to back a "tests pass" claim). A bash call verifies when one of
// the simple commands it runs (shellguard.Parts: each part of ; && || and
// pipes, bash -c code, the command behind sudo/env/timeout) is a test or
// build command of a common toolchain.

// verifySubcommands maps a tool (base name of the command word) to the
// subcommands that test or build; the first word after the tool that is
// not a flag (and not a cargo "+toolchain") is matched. An empty set means
// the tool itself tests or builds (pytest, ctest).
var verifySubcommands = map[string][]string{
	"go":       {"test", "build", "vet"},
	"cargo":    {"test", "build", "check", "nextest", "clippy"},
	"npm":      {"test", "t", "run", "run-script"},
	"pnpm":     {"test", "t", "run", "build"},
	"yarn":     {"test", "run", "build"},
	"bun":      {"test", "run"},
	"deno":     {"test", "check"},
	"dotnet":   {"test", "build"},
	"mvn":      {"test", "verify", "package", "install", "compile"},
	"mvnw":     {"test", "verify", "package", "install", "compile"},
	"gradle":   {"test", "build", "check"},
	"gradlew":  {"test", "build", "check"},
	"swift":    {"test", "build"},
	"zig":      {"build", "test"},
	"bazel":    {"test", "build"},
	"mix":      {"test", "compile"},
	"rake":     {"test", "spec"},
	"pytest":   nil,
	"py.test":  nil,
	"tox":      nil,
	"nox":      nil,
	"ctest":    nil,
	"jest":     nil,
	"vitest":   nil,
	"mocha":    nil,
	"tsc":      nil,
	"rspec":    nil,
	"phpunit":  nil,
	"unittest": nil,
}

// runTargets are the npm/yarn/pnpm/bun "run <script>" names that test or
// build (a prefix match: "test:unit", "build-prod").
var runTargets = []string{"test", "build", "check", "typecheck"}

// makeTargets are make targets that test or build; a bare `make` builds
// the default target.
var makeTargets = map[string]bool{"test": true, "tests": true, "check": true, "build": true, "all": true}

// pythonModules are `python -m <module>` modules that run tests.
var pythonModules = map[string]bool{"pytest": true, "unittest": true, "tox": true, "nox": true, "mypy": true, "compileall": true}

var pythonRe = lazyregexp.New(`^python(\d+(\.\d+)?)?$`)

// quotedRe matches quoted text (closed or running to the end) in a
// command line that does not parse: it is data, never a command.
var quotedRe = lazyregexp.New(`'[^']*('|$)|"(\\.|[^"\\])*("|$)`)

// shellOpRe splits a command line that does not parse at its operators.
var shellOpRe = lazyregexp.New(`&&|\|\||[;|&\n]`)

// bashCommand returns the command of a bash tool call's arguments.
func bashCommand(args string) string {
	var a struct {
		Command string `json:"command"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		fixed, err := textcalls.RepairArguments(args)
		if err != nil || json.Unmarshal([]byte(fixed), &a) != nil {
			return ""
		}
	}
	return a.Command
}

// isVerifyCommand reports whether command runs a test or build command.
// A command that does not parse is split on whitespace and shell
// operators instead, its quoted text dropped.
func isVerifyCommand(command string) bool {
	parts, ok := shellguard.Parts(command, shellguard.Options{})
	if !ok || len(parts) == 0 {
		parts = nil
		for _, seg := range shellOpRe.Split(quotedRe.ReplaceAllString(command, "Q"), -1) {
			if f := strings.Fields(seg); len(f) > 0 {
				parts = append(parts, f)
			}
		}
	}
	for _, words := range parts {
		if verifies(words) {
			return true
		}
	}
	return false
}

// verifies reports whether one simple command (its words) tests or builds.
func verifies(words []string) bool {
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		words = words[1:] // VAR=value prefix
	}
	if len(words) == 0 {
		return false
	}
	tool := filepath.Base(words[0])
	rest := words[1:]
	switch {
	case tool == "npx" || tool == "pnpx" || tool == "bunx":
		return verifies(nonFlags(rest))
	case pythonRe.MatchString(tool):
		for i, w := range rest {
			if w == "-m" && i+1 < len(rest) {
				return pythonModules[rest[i+1]]
			}
		}
		return false
	case tool == "make" || tool == "gmake":
		targets := nonFlags(rest)
		if len(targets) == 0 {
			return true
		}
		for _, t := range targets {
			if makeTargets[t] {
				return true
			}
		}
		return false
	}
	subs, known := verifySubcommands[tool]
	if !known {
		return false
	}
	if subs == nil {
		return true
	}
	args := nonFlags(rest)
	if len(args) > 0 && strings.HasPrefix(args[0], "+") {
		args = args[1:] // cargo +nightly test
	}
	if len(args) == 0 {
		return false
	}
	for _, s := range subs {
		if args[0] != s {
			continue
		}
		if s == "run" || s == "run-script" {
			return len(args) > 1 && runTarget(args[1])
		}
		return true
	}
	// yarn/pnpm/bun run scripts without "run": `yarn test:unit`.
	if tool == "yarn" || tool == "pnpm" {
		return runTarget(args[0])
	}
	return false
}

// runTarget reports whether a package.json script name tests or builds.
func runTarget(name string) bool {
	for _, t := range runTargets {
		if strings.HasPrefix(name, t) {
			return true
		}
	}
	return false
}

// nonFlags returns words without the ones starting with "-".
func nonFlags(words []string) []string {
	var out []string
	for _, w := range words {
		if !strings.HasPrefix(w, "-") {
			out = append(out, w)
		}
	}
	return out
}
