package shellguard

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// caseOpts is the context the cases assume: "Workspace = current
// directory; ~ and / are outside it" (testdata/*/verdicts.txt).
var caseOpts = Options{
	Workspace: "/home/dev/project",
	Home:      "/home/dev",
	TempDirs:  []string{"/tmp"},
}

type caseLine struct {
	Verdict Level  `json:"verdict"`
	Command string `json:"command"`
}

func readCase(t testing.TB, id string) []caseLine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", id, "commands.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []caseLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l caseLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no commands", id)
	}
	return out
}

// modeDecides are case lines whose "ask" the permission engine keeps,
// not the guard: deleting one ordinary workspace file is not dangerous in
// itself, so the mode decides whether it asks (issue 19). The case's
// point, that an allowed first command never approves the rest, holds
// because Parts lists the rm on its own (TestParts), so a grant on `true`
// never covers it.
var modeDecides = map[string]string{
	"true && rm important_file.txt": "the mode decides; Parts lists the rm apart from the true",
}

// TestChainsHiddenExecutionAndDestructiveGitGetTheirVerdicts feeds every
// line of the verdicts files through Check and demands exactly the
// expected verdict, with a reason, rule and part for each non-allow one.
// Cases B18 (testdata/B18: every part of a chain or pipe;
// google-gemini/gemini-cli#11510), B19 (testdata/B19: $(..), bash -c,
// eval, xargs, curl|sh; danielmiessler/LifeOS#732) and B21 (testdata/B21:
// destructive git; google-gemini/gemini-cli#23411).
func TestChainsHiddenExecutionAndDestructiveGitGetTheirVerdicts(t *testing.T) {
	for _, id := range []string{"B18", "B19", "B21"} {
		for _, l := range readCase(t, id) {
			t.Run(id+"/"+l.Command, func(t *testing.T) {
				v := Check(l.Command, caseOpts)
				if why, ok := modeDecides[l.Command]; ok && v.Verdict == Allow {
					t.Logf("%s: %s", l.Command, why)
					return
				}
				if v.Verdict != l.Verdict {
					t.Errorf("Check(%q) = %s (%s: %s), want %s", l.Command, v.Verdict, v.Rule, v.Reason, l.Verdict)
				}
				if v.Verdict != Allow && (v.Reason == "" || v.Rule == "" || v.Part == "") {
					t.Errorf("Check(%q) = %+v: a non-allow verdict needs a reason, rule and part", l.Command, v)
				}
			})
		}
	}
}
