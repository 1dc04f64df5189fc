package commands

import (
	"context"
	"errors"
	"github.com/zero-agent/zero/internal/testbin"
	"os"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/skills"
)

// write creates files under root (path → content).
func write(t *testing.T, root string, files map[string]string) { testbin.WriteTree(t, root, files) }

func TestDiscoverNamespacesAndPrecedence(t *testing.T) {
	home, config, repo := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, repo, map[string]string{
		".git/HEAD":                         "x",
		".claude/commands/frontend/test.md": "---\ndescription: run the UI tests\nargument-hint: [file]\nmodel: haiku\nallowed-tools: Bash(npm test:*), Read\n---\nRun $ARGUMENTS",
		".claude/commands/review.md":        "Review the diff.",
		".gemini/commands/git/commit.toml":  "description = \"write a commit\"\nprompt = \"Commit: {{args}}\"\n",
		".gemini/commands/broken.toml":      "prompt = ",
		".zero/commands/review.md":          "---\ndescription: Zero's review\n---\nZero review",
	})
	write(t, home, map[string]string{".claude/commands/review.md": "---\ndescription: my review\n---\nMine"})
	set := Discover(Options{Workdir: repo, Home: home, ConfigDir: config, Trusted: true})
	by := map[string]Command{}
	for _, c := range set.Commands {
		by[c.Name] = c
	}
	if c := by["frontend:test"]; c.Description != "run the UI tests" || c.ArgumentHint != "[file]" || c.Model != "haiku" || len(c.AllowedTools) != 2 || c.Scope != skills.Project {
		t.Errorf("frontend:test = %+v", c)
	}
	if c := by["git:commit"]; c.Format != TOML || c.Description != "write a commit" {
		t.Errorf("git:commit = %+v", c)
	}
	if c := by["review"]; c.Description != "my review" || c.Scope != skills.User {
		t.Errorf("review = %+v, want the user's", c)
	}
	if len(by) != 3 {
		t.Errorf("commands %v", by)
	}
	notes := strings.Join(set.Notes, "\n")
	if !strings.Contains(notes, "broken.toml") || strings.Count(notes, "shadowed") != 2 {
		t.Errorf("notes %q", notes)
	}
	untrusted := Discover(Options{Workdir: repo, Home: home, ConfigDir: config})
	if len(untrusted.Commands) != 1 || untrusted.Untrusted == 0 {
		t.Errorf("untrusted folder loaded %+v", untrusted.Commands)
	}
}

func TestExpand(t *testing.T) {
	files := map[string]string{"src/a.go": "package a"}
	var ran []string
	env := Env{
		Shell: func(_ context.Context, line string) (string, error) {
			ran = append(ran, line)
			if line == "false" {
				return "", errors.New("exit 1")
			}
			return "out of " + line + "\n", nil
		},
		ReadFile: func(p string) (string, error) {
			if s, ok := files[p]; ok {
				return s, nil
			}
			return "", os.ErrNotExist
		},
	}
	cases := []struct {
		name, tmpl, args, want string
		format                 Format
	}{
		{"arguments", "Fix issue $ARGUMENTS now", "#12 fast", "Fix issue #12 fast now", Markdown},
		{"positional", "PR $1 by $2, $3.", `42 "Ann Lee"`, "PR 42 by Ann Lee, .", Markdown},
		{"appended", "Review the diff.", "carefully", "Review the diff.\n\nARGUMENTS: carefully", Markdown},
		{"no args", "Review.", "", "Review.", Markdown},
		{"shell", "Status:\n!`git status`\nDone", "", "Status:\nout of git status\nDone", Markdown},
		{"shell sees args quoted", "!`git log $1`", "main", "out of git log 'main'", Markdown},
		{"args are never run", "Say $ARGUMENTS", "!`rm -rf /`", "Say !`rm -rf /`", Markdown},
		{"file", "Explain @src/a.go and mail me@example.com", "", "Explain @src/a.go and mail me@example.com\n\nFiles the command names:\n<file path=\"src/a.go\">\npackage a\n</file>", Markdown},
		{"toml args", "Commit: {{args}}", "fix bug", "Commit: fix bug", TOML},
		{"toml appended", "Commit.", "fix bug", "Commit.\n\nfix bug", TOML},
		{"toml shell quotes args", "!{grep {{args}} x}", "a; rm -rf /", `out of grep 'a; rm -rf /' x`, TOML},
		{"toml file", "See @{src/a.go}", "", "See package a", TOML},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Expand(context.Background(), Command{Name: "x", Template: c.tmpl, Format: c.format}, c.args, env)
			if err != nil || got != c.want {
				t.Errorf("got %q, %v\nwant %q", got, err, c.want)
			}
		})
	}
}

func TestExpandStopsOnAFailedCommandLine(t *testing.T) {
	var ran []string
	env := Env{Shell: func(_ context.Context, line string) (string, error) {
		ran = append(ran, line)
		if line == "false" {
			return "", errors.New("exit status 1")
		}
		return "", nil
	}}
	_, err := Expand(context.Background(), Command{Name: "deploy", Template: "!`false`\n!`echo after`"}, "", env)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "/deploy: !`false`: exit status 1") {
		t.Fatalf("err = %v", err)
	}
	if len(ran) != 1 {
		t.Errorf("ran %q after the failure", ran)
	}
	if _, err := Expand(context.Background(), Command{Name: "t", Format: TOML, Template: "@{missing.txt}"}, "", Env{ReadFile: func(string) (string, error) { return "", os.ErrNotExist }}); err == nil {
		t.Error("a missing @{file} in a TOML command should fail")
	}
}

func TestParseLine(t *testing.T) {
	cases := []struct {
		in, name, args string
		ok             bool
	}{
		{"/review", "review", "", true},
		{"/frontend:test src/a.ts --watch", "frontend:test", "src/a.ts --watch", true},
		{"/fix\nmulti\nline", "fix", "multi\nline", true},
		{"/usr/bin is missing", "", "", false},
		{"hello", "", "", false},
	}
	for _, c := range cases {
		name, args, ok := ParseLine(c.in)
		if name != c.name || args != c.args || ok != c.ok {
			t.Errorf("ParseLine(%q) = %q %q %v", c.in, name, args, ok)
		}
	}
}

func FuzzParseMarkdown(f *testing.F) {
	f.Add([]byte("---\ndescription: x\nallowed-tools: Bash(a:*), Read\n---\nRun $ARGUMENTS !`ls` @a"))
	f.Add([]byte("no front matter $1 $2"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseMarkdown(data)
		if err != nil {
			return
		}
		_, _ = Expand(context.Background(), c, "a b", Env{})
	})
}

func FuzzParseTOML(f *testing.F) {
	f.Add([]byte("prompt = \"x {{args}} !{ls}\"\ndescription = \"d\""))
	f.Add([]byte("prompt = '''\nmulti\n'''"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseTOML(data)
		if err != nil {
			return
		}
		_, _ = Expand(context.Background(), c, "a", Env{})
	})
}
