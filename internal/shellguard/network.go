package shellguard

import (
	"slices"
	"strings"
)

// networkCommands is the one table of commands known to need the network
// (package managers, fetchers, remote git): with sandbox.network "ask",
// a command line with such a part asks to run with the network, and
// every other command runs offline. Each row is a program and the
// subcommand words that follow it; flags between them are skipped
// (`npm --silent install`), except that a row's own flag words must be
// there (`python -m pip install`). A program alone (curl) matches every
// call of it.
var networkCommands = splitRows(
	// JavaScript
	"npm install", "npm i", "npm ci", "npm add", "npm update", "npm publish", "npm view", "npm exec", "npx",
	"pnpm install", "pnpm i", "pnpm add", "pnpm update", "pnpm fetch", "pnpm dlx",
	"yarn install", "yarn add", "yarn upgrade", "yarn dlx",
	"bun install", "bun add", "bun update", "bunx",
	// Python
	"pip install", "pip download", "pip3 install", "pip3 download", "python -m pip install", "pipx install", "pipx run",
	"uv pip install", "uv sync", "uv add", "uv lock", "uvx", "poetry install", "poetry add", "poetry update",
	// Go, Rust, Ruby, PHP, Java
	"go mod download", "go mod tidy", "go get", "go install",
	"cargo fetch", "cargo build", "cargo install", "cargo update", "cargo add",
	"gem install", "bundle install", "bundle update", "composer install", "composer require", "composer update",
	"mvn install", "mvn package", "gradle build",
	// Remote git and fetchers
	"git clone", "git fetch", "git pull", "git push", "git ls-remote", "git submodule update",
	"curl", "wget", "ssh", "scp",
	// System packages
	"apt-get install", "apt-get update", "apt install", "apt update", "brew install", "brew update",
)

// valueFlags are a table program's global options whose value is the
// next word, skipped with it between the program and its subcommand
// (`git -C dir fetch`, `npm --prefix web install`); `--opt=value` is one
// word and needs no entry. Sources: git(1) OPTIONS, npm-config(7),
// pnpm's --dir/--filter, yarn's --cwd, `go help build` (-C), cargo(1).
var valueFlags = map[string][]string{
	"git":    {"-C", "-c", "--git-dir", "--work-tree", "--namespace"},
	"npm":    {"--prefix", "-w", "--workspace"},
	"pnpm":   {"-C", "--dir", "--filter", "-F"},
	"yarn":   {"--cwd"},
	"go":     {"-C"},
	"cargo":  {"--manifest-path", "--config", "-Z"},
	"uv":     {"--directory", "--project"},
	"poetry": {"-C", "--directory"},
}

func splitRows(rows ...string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Fields(r)
	}
	return out
}

// NetworkNeed is one simple command of a line that the table knows to
// need the network, with the prefix (its words up to the table's
// subcommand, as written: "npm install") a grant for it would name. A
// program named by its path in a system bin folder is named as on PATH
// ("/usr/bin/curl" is "curl"), so a grant for curl covers both; any
// other path (./curl, the model's own script) stays as written.
type NetworkNeed struct {
	Words  []string
	Prefix string
}

// NetworkNeeds returns the parts (from Parts) that need the network. A
// word known only at run time never matches a table word, so `npm $cmd`
// is not known to need it.
func NetworkNeeds(parts [][]string) []NetworkNeed {
	var out []NetworkNeed
	for _, p := range parts {
		for _, row := range networkCommands {
			if n, ok := matchRow(p, row); ok {
				words := append([]string{systemName(p[0])}, p[1:]...)
				out = append(out, NetworkNeed{Words: words, Prefix: strings.Join(words[:n], " ")})
				break
			}
		}
	}
	return out
}

// systemBins are the folders whose programs systemName names as on PATH:
// the FHS's (https://refspecs.linuxfoundation.org/FHS_3.0/fhs/ch04s04.html)
// and Homebrew's.
var systemBins = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin"}

// systemName is word's base name when word is a program of a system bin
// folder, else word.
func systemName(word string) string {
	i := strings.LastIndexByte(word, '/')
	if i < 0 || !slices.Contains(systemBins, word[:i]) {
		return word
	}
	return word[i+1:]
}

// matchRow reports whether words run the row's command and how many of
// the words the match took.
func matchRow(words, row []string) (int, bool) {
	if len(words) == 0 || strings.Contains(words[0], Unknown) {
		return 0, false
	}
	name := words[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if name != row[0] && commandBase(name) != row[0] {
		return 0, false
	}
	i := 1
	for _, want := range row[1:] {
		for i < len(words) && strings.HasPrefix(words[i], "-") && !strings.HasPrefix(want, "-") {
			if i+1 < len(words) && slices.Contains(valueFlags[row[0]], words[i]) {
				i++ // the option's value (`git -C dir fetch`)
			}
			i++
		}
		if i >= len(words) || words[i] != want {
			return 0, false
		}
		i++
	}
	return i, true
}
