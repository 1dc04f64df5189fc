package subagents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/skills"
	"github.com/zero-agent/zero/internal/testbin"
)

// Claude Code's fields are read; tools come as a comma-separated string or
// a YAML list; the body is the prompt.
func TestParseReadsClaudeCodeFrontMatter(t *testing.T) {
	cases := []struct {
		name, file string
		want       Definition
	}{
		{"comma list", "---\nname: reviewer\ndescription: Reviews code: finds bugs\ntools: Read, Grep, Glob\nmodel: haiku\npermissionMode: acceptEdits\nmaxTurns: 5\nskills: go-style\n---\nYou review code.\n",
			Definition{Name: "reviewer", Description: "Reviews code: finds bugs", Tools: []string{"Read", "Grep", "Glob"}, Model: "haiku", PermissionMode: "acceptEdits", MaxTurns: 5, Skills: []string{"go-style"}, Prompt: "You review code."}},
		{"yaml list, name from file", "---\ndescription: Runs tests\ntools:\n  - bash\n  - read_file\ndisallowedTools: [write_file]\n---\nRun the tests.",
			Definition{Name: "base", Description: "Runs tests", Tools: []string{"bash", "read_file"}, DisallowedTools: []string{"write_file"}, Prompt: "Run the tests."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse([]byte(c.file), "base")
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != c.want.Name || got.Description != c.want.Description || !slices.Equal(got.Tools, c.want.Tools) ||
				!slices.Equal(got.DisallowedTools, c.want.DisallowedTools) || got.Model != c.want.Model || got.PermissionMode != c.want.PermissionMode ||
				got.MaxTurns != c.want.MaxTurns || !slices.Equal(got.Skills, c.want.Skills) || got.Prompt != c.want.Prompt {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestParseRejectsWhatCannotBeUsed(t *testing.T) {
	for _, file := range []string{
		"---\nname: x\n---\nno description",
		"---\nname: bad name!\ndescription: d\n---\n",
		"---\nname: x\ndescription: d\nmaxTurns: many\n---\n",
		"---\nname: x\ndescription: d\n",
	} {
		if _, err := Parse([]byte(file), "x"); err == nil {
			t.Errorf("no error for %q", file)
		}
	}
}

// User folders come before project ones, the built-ins before both; a
// project folder loads only when trusted; a broken file is a note.
func TestDiscoverOrderTrustAndShadowing(t *testing.T) {
	home, cfg, proj := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	def := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\nbody\n"
	}
	testbin.WriteTree(t, cfg, map[string]string{"agents/reviewer.md": def("reviewer", "mine"), "agents/notes.txt": "not an agent"})
	testbin.WriteTree(t, home, map[string]string{".claude/agents/explore.md": def("explore", "would replace the built-in")})
	testbin.WriteTree(t, proj, map[string]string{
		".claude/agents/reviewer.md": def("reviewer", "the repository's"),
		".zero/agents/tester.md":     def("tester", "runs tests"),
		".zero/agents/broken.md":     "---\nname: broken\n",
	})
	o := skills.Options{Workdir: proj, Home: home, ConfigDir: cfg}
	untrusted := Discover(o)
	if got := untrusted.Names(); !slices.Equal(got, []string{"explore", "general", "reviewer"}) || untrusted.Untrusted != 3 {
		t.Fatalf("untrusted: %v (%d untrusted)", got, untrusted.Untrusted)
	}
	o.Trusted = true
	s := Discover(o)
	if got := s.Names(); !slices.Equal(got, []string{"explore", "general", "reviewer", "tester"}) {
		t.Fatalf("trusted: %v, notes %v", got, s.Notes)
	}
	if r, _ := s.Get("reviewer"); r.Description != "mine" || r.Scope != skills.User {
		t.Errorf("reviewer: %+v", r)
	}
	notes := strings.Join(s.Notes, "\n")
	for _, want := range []string{"explore in " + filepath.Join(home, ".claude/agents/explore.md") + " is shadowed by the built-in", "reviewer in", "broken.md skipped"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// A plugin's agents load as PLUGIN:NAME from its agents/ folder and the
// files its manifest names, in a folder that is not trusted, beside the
// user's own of the same name; a broken one is a note naming it.
func TestDiscoverLoadsPluginAgentsNamespaced(t *testing.T) {
	home, plug := t.TempDir(), t.TempDir()
	def := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + desc + " body\n"
	}
	testbin.WriteTree(t, home, map[string]string{".claude/agents/reviewer.md": def("reviewer", "mine")})
	testbin.WriteTree(t, plug, map[string]string{
		"agents/reviewer.md":   def("reviewer", "the kit's"),
		"agents/broken.md":     "---\nname: broken\n",
		"agents/deep/inner.md": def("inner", "in a sub-folder"),
		"extra/tester.md":      def("tester", "named by the manifest"),
	})
	s := Discover(skills.Options{Workdir: t.TempDir(), Home: home, Plugins: []skills.Namespace{
		{Prefix: "kit", Agents: []string{filepath.Join(plug, "agents"), filepath.Join(plug, "extra/tester.md")}},
	}})
	if got := s.Names(); !slices.Equal(got, []string{"explore", "general", "reviewer", "kit:reviewer", "kit:tester"}) {
		t.Fatalf("agents: %v, notes %v", got, s.Notes)
	}
	kit, _ := s.Get("kit:reviewer")
	if kit.Scope != skills.Plugin || kit.Prompt != "the kit's body" || kit.Path != filepath.Join(plug, "agents/reviewer.md") {
		t.Errorf("kit:reviewer = %+v", kit)
	}
	if mine, _ := s.Get("reviewer"); mine.Description != "mine" {
		t.Errorf("the user's reviewer = %+v", mine)
	}
	if notes := strings.Join(s.Notes, "\n"); !strings.Contains(notes, filepath.Join(plug, "agents/broken.md")+" skipped") {
		t.Errorf("notes: %s", notes)
	}
	if r := s.Report(); !strings.Contains(r, "kit:tester  (plugin, "+filepath.Join(plug, "extra/tester.md")+")  named by the manifest") {
		t.Errorf("report:\n%s", r)
	}
}
