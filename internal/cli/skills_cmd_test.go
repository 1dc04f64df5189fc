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
