package shellguard

import "testing"

// TestOrdinaryWorkAllowed guards against a guard so eager it is ignored:
// everyday development commands must be allowed.
func TestOrdinaryWorkAllowed(t *testing.T) {
	for _, cmd := range []string{
		`npm run build && npm test`,
		`cargo build --release 2>&1 | tail -20`,
		`python -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt`,
		`export PATH=$PATH:/usr/local/go/bin`,
		`ls -la ~`,
		`cat /etc/os-release`,
		`echo $HOME`,
		`grep -rn "TODO" --include=*.go .`,
		`sed -n '1,50p' main.go`,
		`git log --oneline | head`,
		`docker build -t app .`,
		`curl -s http://localhost:8080/health`,
		`go test ./... -run TestX -v 2>&1 | head -50`,
		`mkdir -p /tmp/x && cp a /tmp/x/`,
		`tar -czf out.tgz src/`,
		`find . -name "*.go" | xargs grep -l foo`,
		`for f in *.go; do gofmt -l "$f"; done`,
		`which go && go version`,
		`make test > /tmp/log 2>&1`,
		`printf "a\n" > file.txt`,
		`cd sub && go test`,
		`env | sort`,
		`ps aux | grep node`,
		`kill 1234`,
		`chmod +x ./scripts/build.sh && ./scripts/build.sh`,
		`git add -A && git commit -m "fix: handle rm -rf in docs"`,
		`git push origin feature`,
		`git pull --rebase`,
		`npx prettier --write .`,
		`cat ~/.gitconfig`,
		`node scripts/gen.js > out.json`,
		`wc -l $(git ls-files '*.go')`,
		`diff <(sort a.txt) <(sort b.txt)`,
		`jq '.items[] | select(.x > 1)' data.json`,
		`awk -F, '{sum += $2} END {print sum}' data.csv`,
		"cat <<'EOF' > notes.md\n# notes\nrm -rf / is bad\nEOF",
	} {
		if v := Check(cmd, caseOpts); v.Verdict != Allow {
			t.Errorf("Check(%q) = %s (%s: %s), want allow", cmd, v.Verdict, v.Rule, v.Reason)
		}
	}
}
