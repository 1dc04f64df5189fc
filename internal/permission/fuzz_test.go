package permission

import (
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/shellguard"
)

// FuzzSuggestPrefix: any command line gives a prefix that is empty or the
// first one or two words of its only simple command, never anything that
// would widen a grant past what the command starts with.
func FuzzSuggestPrefix(f *testing.F) {
	for _, s := range []string{"go test ./...", "npm run build", "a && b", "$(x) y", "FOO=1 make", "'go' test", "rm -rf /", "", "\x00", "git\tstatus"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		p := SuggestPrefix(cmd, shellguard.Options{Workspace: "/w"})
		if p == "" {
			return
		}
		words := strings.Fields(p)
		if len(words) == 0 || len(words) > 2 {
			t.Fatalf("prefix %q of %q", p, cmd)
		}
		parts, ok := shellguard.Parts(cmd, shellguard.Options{Workspace: "/w"})
		if !ok || len(parts) != 1 || !hasWordPrefix(parts[0], words) {
			t.Fatalf("prefix %q is not how %q starts (parts %q)", p, cmd, parts)
		}
	})
}
