package skills

import (
	"context"
	"encoding/json"
	"github.com/zero-agent/zero/internal/testbin"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write creates files under root (path → content).
func write(t *testing.T, root string, files map[string]string) { testbin.WriteTree(t, root, files) }

func skill(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\nBody of " + name + ".\n"
}

// layout is a home, a config dir and a repository with a sub-folder.
func layout(t *testing.T) (home, config, repo, sub string) {
	home, config, repo = t.TempDir(), t.TempDir(), t.TempDir()
	sub = filepath.Join(repo, "pkg", "api")
	write(t, repo, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	return
}

func TestDiscoverPrecedence(t *testing.T) {
	home, config, repo, sub := layout(t)
	write(t, config, map[string]string{"skills/review/SKILL.md": skill("review", "user's Zero review")})
	write(t, home, map[string]string{
		".claude/skills/review/SKILL.md": skill("review", "user's Claude review"),
		".agents/skills/pdf/SKILL.md":    skill("pdf", "user's pdf"),
	})
	write(t, repo, map[string]string{
		".claude/skills/pdf/SKILL.md":        skill("pdf", "project pdf"),
		".claude/skills/deploy/SKILL.md":     skill("deploy", "root deploy"),
		"pkg/.agents/skills/deploy/SKILL.md": skill("deploy", "nearer deploy"),
		".zero/skills/lint/SKILL.md":         skill("lint", "zero lint"),
	})
	set := Discover(Options{Workdir: sub, Home: home, ConfigDir: config, Trusted: true})
	got := map[string]string{}
	for _, sk := range set.Skills {
		got[sk.Name] = sk.Description + " (" + string(sk.Scope) + ")"
	}
	want := map[string]string{
		"review": "user's Zero review (user)",
		"pdf":    "user's pdf (user)",
		"deploy": "nearer deploy (project)",
		"lint":   "zero lint (project)",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("skills %v, want %v", got, want)
	}
	if n := strings.Count(strings.Join(set.Notes, "\n"), "shadowed"); n != 3 {
		t.Errorf("notes %q: want 3 shadowed", set.Notes)
	}
}

func TestProjectSkillsNeedTrust(t *testing.T) {
	home, config, repo, _ := layout(t)
	write(t, repo, map[string]string{".claude/skills/pdf/SKILL.md": skill("pdf", "project pdf")})
	write(t, home, map[string]string{".claude/skills/mine/SKILL.md": skill("mine", "user's own")})
	set := Discover(Options{Workdir: repo, Home: home, ConfigDir: config})
	if set.Len() != 1 || set.Skills[0].Name != "mine" || set.Untrusted != 1 {
		t.Fatalf("untrusted: skills %+v untrusted %d, want only the user's", set.Skills, set.Untrusted)
	}
	if !strings.Contains(strings.Join(set.Notes, "\n"), "zero trust") {
		t.Errorf("notes %q do not say how to load them", set.Notes)
	}
}

func TestMalformedSkillIsSkippedWithNote(t *testing.T) {
	home, config, repo, _ := layout(t)
	write(t, repo, map[string]string{
		".claude/skills/nodesc/SKILL.md": "---\nname: nodesc\n---\nbody",
		".claude/skills/open/SKILL.md":   "---\nname: open\n",
		".claude/skills/bad/SKILL.md":    "---\nname: \"has space\"\ndescription: x\n---\n",
		".claude/skills/ok/SKILL.md":     "---\ndescription: named by its folder\n---\nbody",
	})
	set := Discover(Options{Workdir: repo, Home: home, ConfigDir: config, Trusted: true})
	if set.Len() != 1 || set.Skills[0].Name != "ok" {
		t.Fatalf("skills %+v, want only ok", set.Skills)
	}
	notes := strings.Join(set.Notes, "\n")
	for _, want := range []string{"no description", "not closed", "has space"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
}

func TestListingFitsBudgetAndPointsToSearch(t *testing.T) {
	set := &Set{}
	for i := range 40 {
		scope := User
		if i%2 == 0 {
			scope = Project
		}
		set.Skills = append(set.Skills, Skill{Name: "skill-" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Description: strings.Repeat("word ", 20), Scope: scope})
	}
	for _, budget := range []int{400, 1200} {
		l := set.Listing(budget)
		if len(l) > budget {
			t.Errorf("budget %d: listing is %d bytes", budget, len(l))
		}
		if !strings.Contains(l, "more: call skill with") {
			t.Errorf("budget %d: no pointer to search:\n%s", budget, l)
		}
	}
	if all := set.Listing(8192); strings.Count(all, "\n- skill-") != 40 || strings.Contains(all, "more:") {
		t.Errorf("a large budget should list every skill:\n%s", all)
	}
	small := set.Listing(600)
	if !strings.Contains(small, "- skill-aa:") || strings.Contains(small, "- skill-ba:") {
		t.Errorf("the small listing should rank project skills first:\n%s", small)
	}
	if (&Set{}).Listing(4096) != "" {
		t.Error("no skills should list nothing")
	}
}

func TestSkillToolReadsBodyFilesAndSearches(t *testing.T) {
	home, config, repo, _ := layout(t)
	write(t, home, map[string]string{
		".claude/skills/pdf/SKILL.md":        skill("pdf", "Fill PDF forms"),
		".claude/skills/pdf/reference.md":    "the reference",
		".claude/skills/pdf/scripts/fill.py": "print('fill')",
		".claude/secret.txt":                 "outside",
		".claude/skills/csv/SKILL.md":        skill("csv", "Clean CSV files"),
	})
	set := Discover(Options{Workdir: repo, Home: home, ConfigDir: config})
	tl := NewTool(set)
	call := func(args string) (string, bool) {
		res, err := tl.Run(context.Background(), json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return res.Content, res.IsError
	}
	out, isErr := call(`{"name":"pdf"}`)
	if isErr || !strings.Contains(out, "Body of pdf.") || !strings.Contains(out, "reference.md") || !strings.Contains(out, "scripts/fill.py") || strings.Contains(out, "description:") {
		t.Errorf("body: %q", out)
	}
	if out, isErr = call(`{"name":"pdf","file":"scripts/fill.py"}`); isErr || out != "print('fill')" {
		t.Errorf("file: %q %v", out, isErr)
	}
	for _, bad := range []string{`{"name":"pdf","file":"../../secret.txt"}`, `{"name":"pdf","file":"/etc/passwd"}`, `{"name":"nope"}`, `{}`} {
		if out, isErr = call(bad); !isErr {
			t.Errorf("%s: not an error: %q", bad, out)
		}
	}
	if out, _ = call(`{"query":"csv"}`); !strings.Contains(out, "csv: Clean CSV files") || strings.Contains(out, "pdf") {
		t.Errorf("search: %q", out)
	}
}

func TestSkillToolRefusesALinkOutOfItsFolder(t *testing.T) {
	home, config, repo, _ := layout(t)
	write(t, home, map[string]string{".claude/skills/pdf/SKILL.md": skill("pdf", "x"), "private.txt": "private"})
	if err := os.Symlink(filepath.Join(home, "private.txt"), filepath.Join(home, ".claude/skills/pdf/link.txt")); err != nil {
		t.Fatal(err)
	}
	set := Discover(Options{Workdir: repo, Home: home, ConfigDir: config})
	res, _ := NewTool(set).Run(context.Background(), json.RawMessage(`{"name":"pdf","file":"link.txt"}`))
	if !res.IsError || strings.Contains(res.Content, "private") {
		t.Errorf("link out: %+v", res)
	}
}

func FuzzParseSkill(f *testing.F) {
	f.Add([]byte(skill("pdf", "x")), "pdf")
	f.Add([]byte("---\nname: [a\n---\n"), "x")
	f.Add([]byte("---\ndescription: a: b\n---"), "dir")
	f.Fuzz(func(t *testing.T, data []byte, folder string) {
		sk, err := Parse(data, folder)
		if err != nil {
			return
		}
		if !namePattern.MatchString(sk.Name) || sk.Description == "" || len(sk.Description) > MaxDescription {
			t.Fatalf("accepted %+v", sk)
		}
	})
}

func TestInstallCopiesTheFolderAndNeverOverwrites(t *testing.T) {
	src, dest, outside := t.TempDir(), filepath.Join(t.TempDir(), "skills"), t.TempDir()
	write(t, src, map[string]string{"SKILL.md": skill("pdf", "Fill PDF forms"), "scripts/fill.py": "print(1)", ".git/config": "x"})
	write(t, outside, map[string]string{"private": "p"})
	if err := os.Symlink(filepath.Join(outside, "private"), filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	sk, err := Install(src, dest)
	if err != nil {
		t.Fatal(err)
	}
	if sk.Name != "pdf" || sk.Dir != filepath.Join(dest, "pdf") {
		t.Errorf("installed %+v", sk)
	}
	if b, err := os.ReadFile(filepath.Join(dest, "pdf", "scripts", "fill.py")); err != nil || string(b) != "print(1)" {
		t.Errorf("scripts/fill.py: %q %v", b, err)
	}
	for _, gone := range []string{"link", ".git"} {
		if _, err := os.Lstat(filepath.Join(dest, "pdf", gone)); err == nil {
			t.Errorf("%s was copied", gone)
		}
	}
	os.WriteFile(filepath.Join(src, "SKILL.md"), []byte(skill("pdf", "changed")), 0o644)
	if _, err := Install(src, dest); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second install: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dest, "pdf", "SKILL.md")); !strings.Contains(string(b), "Fill PDF forms") {
		t.Errorf("the installed skill was overwritten: %s", b)
	}
	if _, err := Install(t.TempDir(), dest); err == nil || !strings.Contains(err.Error(), "not a skill folder") {
		t.Errorf("a folder without SKILL.md: %v", err)
	}
}
