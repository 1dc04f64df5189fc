package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkillsAddListShow: `zero skills add PATH` copies a skill folder into
// the user's skills folder; list and show find it there; the project's
// skill is listed only after `zero trust`, and show of an unknown name is
// a usage error.
func TestSkillsAddListShow(t *testing.T) {
	home, dir := isolate(t)
	src := filepath.Join(t.TempDir(), "pdf")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "SKILL.md"), []byte("---\nname: pdf\ndescription: Fill PDF forms\n---\nUse fill.py.\n"), 0o644)
	os.WriteFile(filepath.Join(src, "fill.py"), []byte("print(1)\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.MkdirAll(filepath.Join(dir, ".claude", "skills", "deploy"), 0o755)
	os.WriteFile(filepath.Join(dir, ".claude", "skills", "deploy", "SKILL.md"), []byte("---\ndescription: Deploy the service\n---\nSteps.\n"), 0o644)

	r := zero("skills", "add", src)
	installed := filepath.Join(home, ".config", "zero", "skills", "pdf")
	if r.code != ExitOK || !strings.Contains(r.out, "added skill pdf to "+installed) {
		t.Fatalf("add: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	r = zero("skills", "list")
	if !strings.Contains(r.out, "/pdf  (user)  Fill PDF forms") || strings.Contains(r.out, "/deploy") || !strings.Contains(r.out, "1 project skill(s) not loaded") {
		t.Errorf("list before trust:\n%s", r.out)
	}
	if r := zero("trust"); r.code != ExitOK {
		t.Fatalf("trust: %s", r.errOut)
	}
	if r = zero("skills"); !strings.Contains(r.out, "/deploy  (project)  Deploy the service") {
		t.Errorf("list after trust:\n%s", r.out)
	}
	r = zero("skills", "show", "pdf")
	if r.code != ExitOK || !strings.Contains(r.out, "Use fill.py.") || !strings.Contains(r.out, "fill.py") {
		t.Errorf("show: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if r = zero("skills", "show", "nope"); r.code != ExitUsage || !strings.Contains(r.errOut, `no skill "nope"`) {
		t.Errorf("show nope: exit %d %s", r.code, r.errOut)
	}
	if r = zero("skills", "add", src); r.code != ExitUsage || !strings.Contains(r.errOut, "exists already") {
		t.Errorf("second add: exit %d %s", r.code, r.errOut)
	}
}

// TestCommandsListsMarkdownAndTOMLCommands: `zero commands` lists the
// user's Claude Code command and, once the folder is trusted, the
// project's namespaced Markdown and Gemini TOML commands.
func TestCommandsListsMarkdownAndTOMLCommands(t *testing.T) {
	home, dir := isolate(t)
	os.MkdirAll(filepath.Join(home, ".claude", "commands"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "commands", "review.md"), []byte("---\ndescription: review the diff\n---\nReview.\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".claude", "commands", "frontend"), 0o755)
	os.WriteFile(filepath.Join(dir, ".claude", "commands", "frontend", "test.md"), []byte("---\nargument-hint: [file]\n---\nRun the UI tests on $1\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".gemini", "commands"), 0o755)
	os.WriteFile(filepath.Join(dir, ".gemini", "commands", "plan.toml"), []byte("description = \"plan a change\"\nprompt = \"Plan {{args}}\"\n"), 0o644)
	r := zero("commands")
	if !strings.Contains(r.out, "/review  (user)  review the diff") || strings.Contains(r.out, "/plan") || !strings.Contains(r.out, "2 project command(s) not loaded") {
		t.Errorf("before trust:\n%s", r.out)
	}
	zero("trust")
	r = zero("commands")
	for _, want := range []string{"/frontend:test [file]  (project)  Run the UI tests on $1", "/plan  (project)  plan a change"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("after trust, no %q:\n%s", want, r.out)
		}
	}
}

// TestDoctorFailsOnAMalformedSkill: a SKILL.md without a description is
// not silently missing: zero doctor fails its skills check and says why.
func TestDoctorFailsOnAMalformedSkill(t *testing.T) {
	home, _ := isolate(t)
	os.MkdirAll(filepath.Join(home, ".claude", "skills", "nodesc"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "skills", "nodesc", "SKILL.md"), []byte("---\nname: nodesc\n---\nbody\n"), 0o644)
	r := zero("doctor")
	if r.code != ExitFailed || !strings.Contains(r.out, "✗ skills: 0 loaded, 1 unreadable or malformed") || !strings.Contains(r.out, "no description in the front matter") {
		t.Errorf("exit %d:\n%s%s", r.code, r.out, r.errOut)
	}
}
