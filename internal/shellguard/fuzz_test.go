package shellguard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCheck proves the parse-and-classify path never panics and always
// returns a well-formed verdict. Seeds are the case commands.
func FuzzCheck(f *testing.F) {
	for _, id := range []string{"B18", "B19", "B21"} {
		b, err := os.ReadFile(filepath.Join("testdata", id, "commands.jsonl"))
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			var l caseLine
			if json.Unmarshal([]byte(line), &l) == nil && l.Command != "" {
				f.Add(l.Command)
			}
		}
	}
	for _, s := range []string{":(){ :|:& };:", "a{b,c}{d,e}", "x=$(y) z", "cat <<EOF\n$(a)\nEOF", "find / | xargs -I{} sh -c 'rm {}'",
		"git -c alias.a='!a' a", "$'\\x72\\u006d' -rf /", "cd $X; rm -rf ../*",
		// unknown commands carrying a command line, workspace deletes,
		// ordinary deletes (issue 19)
		"mywrapper rm -rf /", "retry sudo dd of=/dev/sda", "xargs rm -rf", "env FOO=1 rm -rf ~",
		"nice -n 5 rm -rf /", "timeout 5 sudo rm -rf /", "a b c d e rm -rf / sudo git push -f",
		"retry retry retry env -S 'rm -rf .'", "rm -r -f .", "rm -rf ./", `rm -rf "$PWD"`, "rm -rf *",
		"rm foo.txt", "rm -- -x .git/config", "find . -exec retry rm -rf {} +"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		v := Check(cmd, caseOpts)
		switch v.Verdict {
		case Allow, Ask, Deny:
		default:
			t.Fatalf("Check(%q) verdict %q", cmd, v.Verdict)
		}
		if _, ok := policy[v.Rule]; !ok || v.Reason == "" {
			t.Fatalf("Check(%q) = %+v: unknown rule or empty reason", cmd, v)
		}
		if policy[v.Rule].level != v.Verdict {
			t.Fatalf("Check(%q) = %+v: verdict does not match its rule", cmd, v)
		}
	})
}
