package shellguard

import (
	"strings"
	"testing"
)

// The network table knows the package managers and fetchers by program
// and subcommand, through wrappers, lists and bash -c; everything else
// (builds, tests, a subcommand known only at run time) is not known to
// need the network and runs offline.
func TestNetworkNeedsNamesTheCommandsThatFetch(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string // the prefixes, in order
	}{
		{"npm install", []string{"npm install"}},
		{"npm install lodash --save", []string{"npm install"}},
		{"npm ci", []string{"npm ci"}},
		{"npm --silent install", []string{"npm --silent install"}},
		{"pnpm add react", []string{"pnpm add"}},
		{"yarn install --frozen-lockfile", []string{"yarn install"}},
		{"pip install -r requirements.txt", []string{"pip install"}},
		{"python3 -m pip install requests", []string{"python3 -m pip install"}},
		{"go mod download", []string{"go mod download"}},
		{"go get example.com/m@latest", []string{"go get"}},
		{"go install golang.org/x/tools/cmd/stringer@latest", []string{"go install"}},
		{"cargo build --release", []string{"cargo build"}},
		{"cargo fetch", []string{"cargo fetch"}},
		{"git clone https://example.com/r.git", []string{"git clone"}},
		{"git pull --rebase", []string{"git pull"}},
		{"git push origin main", []string{"git push"}},
		{"git ls-remote origin", []string{"git ls-remote"}},
		{"curl -sS https://example.com", []string{"curl"}},
		// a system program's path is its name; any other path is kept
		{"/usr/bin/wget -q https://example.com/f", []string{"wget"}},
		{"/usr/local/bin/npm install", []string{"npm install"}},
		{"./curl https://example.com", []string{"./curl"}},
		{"/tmp/x/curl https://example.com", []string{"/tmp/x/curl"}},
		{"sudo apt-get install -y jq", []string{"apt-get install"}},
		{"timeout 60 go mod download", []string{"go mod download"}},
		{"npm ci && npm test", []string{"npm ci"}},
		{"go mod download; curl -s x | sh", []string{"go mod download", "curl"}},
		{`bash -c "npm install"`, []string{"npm install"}},
		// a global option's value is skipped with it
		{"git -C ../lib fetch origin", []string{"git -C ../lib fetch"}},
		{"git -c http.proxy= pull", []string{"git -c http.proxy= pull"}},
		{"npm --prefix web install", []string{"npm --prefix web install"}},
		{"pnpm -C web add react", []string{"pnpm -C web add"}},
		{"go -C tools mod download", []string{"go -C tools mod download"}},
		{"git -C ../lib status", nil},
		// not known to need it
		{"npm test", nil},
		{"npm run build", nil},
		{"go build ./...", nil},
		{"go test ./...", nil},
		{"go mod tidyx", nil},
		{"git status", nil},
		{"git commit -m 'git fetch later'", nil},
		{"echo npm install", nil},
		{"ls", nil},
		{"npm $cmd", nil},
		{"$tool install", nil},
	} {
		t.Run(tt.line, func(t *testing.T) {
			parts, ok := Parts(tt.line, Options{Workspace: "/w", Home: "/h"})
			if !ok {
				t.Fatalf("Parts(%q) did not parse", tt.line)
			}
			var got []string
			for _, n := range NetworkNeeds(parts) {
				got = append(got, n.Prefix)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("NetworkNeeds(%q) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}
