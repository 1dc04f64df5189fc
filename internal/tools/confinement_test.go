package tools

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pathRequest is one line of a confinement case's requests.jsonl.
type pathRequest struct {
	Tool   string `json:"tool"`
	Expect string `json:"expect"`
	Post   string `json:"post"`
}

// runPathCase runs setup.sh in a temp dir, then every request through the
// real tool and its expected outcome; post conditions are checked by
// posts, and an unknown one fails the test.
func runPathCase(t *testing.T, c, wsRel string, posts map[string]func(base string, res Result) bool) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	setup := exec.Command("sh", filepath.Join(mustAbs(t, "testdata"), c, "setup.sh"))
	setup.Dir = base
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("setup.sh: %v\n%s", err, out)
	}
	_, reg := newWS(t, filepath.Join(base, wsRel))
	sc := bufio.NewScanner(bytes.NewReader(readTestdata(t, c, "requests.jsonl")))
	n := 0
	for sc.Scan() {
		line := strings.ReplaceAll(sc.Text(), "<abs>", base)
		if strings.TrimSpace(line) == "" {
			continue
		}
		n++
		var req pathRequest
		var args map[string]any
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(line), &args); err != nil {
			t.Fatal(err)
		}
		delete(args, "tool")
		delete(args, "expect")
		delete(args, "post")
		res := call(t, reg, req.Tool, args)
		switch req.Expect {
		case "deny":
			if !res.IsError || !strings.Contains(res.Content, "outside the workspace") {
				t.Errorf("%s: want deny, got %+v", line, res)
			}
		case "allow":
			if res.IsError {
				t.Errorf("%s: want allow, got %s", line, res.Content)
			}
		default:
			t.Fatalf("unknown expect %q", req.Expect)
		}
		if req.Post != "" {
			check, ok := posts[req.Post]
			if !ok {
				t.Fatalf("no check for post condition %q", req.Post)
			}
			if !check(base, res) {
				t.Errorf("%s: post condition failed: %s (result %q)", line, req.Post, res.Content)
			}
		}
	}
	if n == 0 {
		t.Fatal("no requests")
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// TestSymlinkEscapesAreDeniedOnTheResolvedPath runs the requests through
// links to outside files and dirs, a dangling link and a link as the final
// component of a write: every escape is denied, nothing outside changes.
// Case B22 (testdata/B22; modelcontextprotocol/servers#1845,
// wonderwhy-er/DesktopCommanderMCP#420).
func TestSymlinkEscapesAreDeniedOnTheResolvedPath(t *testing.T) {
	notExist := func(rel string) func(string, Result) bool {
		return func(base string, _ Result) bool {
			_, err := os.Stat(filepath.Join(base, rel))
			return os.IsNotExist(err)
		}
	}
	runPathCase(t, "B22", "ws", map[string]func(string, Result) bool{
		"outside/new.txt must not exist":     notExist("outside/new.txt"),
		"outside/created.txt must not exist": notExist("outside/created.txt"),
		"outside/victim.txt still 'original'": func(base string, _ Result) bool {
			b, err := os.ReadFile(filepath.Join(base, "outside/victim.txt"))
			return err == nil && string(b) == "original\n"
		},
		"ws/sub/new_dir/new.txt exists": func(base string, _ Result) bool {
			b, err := os.ReadFile(filepath.Join(base, "ws/sub/new_dir/new.txt"))
			return err == nil && string(b) == "ok"
		},
		"no match reported from outside/ (do not follow escaping links)": func(_ string, res Result) bool {
			// Nothing inside ws/ holds SECRET: any path:line pointer came
			// through an escaping link.
			return !regexp.MustCompile(`(?m)^\S+:\d+: `).MatchString(res.Content) &&
				!strings.Contains(res.Content, "secret.txt") && !strings.Contains(res.Content, "outside")
		},
	})
}

// TestSiblingSharingTheRootsPrefixIsOutside: ../project-evil is outside
// t/project although its path starts with the root's.
// Case B23 (testdata/B23; CodebuffAI/freebuff#463).
func TestSiblingSharingTheRootsPrefixIsOutside(t *testing.T) {
	runPathCase(t, "B23", "t/project", nil)
}

// TestEscapingLinksAreDeniedToEditWriteGlobGrepAndListDir covers what the
// case describes beyond its requests: edits through the dangling link,
// list_dir and glob of escaping links.
// Case B22 (testdata/B22; HKUDS/nanobot#4072).
func TestEscapingLinksAreDeniedToEditWriteGlobGrepAndListDir(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	setup := exec.Command("sh", filepath.Join(mustAbs(t, "testdata"), "B22", "setup.sh"))
	setup.Dir = base
	if out, err := setup.CombinedOutput(); err != nil {
		t.Fatalf("setup.sh: %v\n%s", err, out)
	}
	_, reg := newWS(t, filepath.Join(base, "ws"))
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit_file", map[string]any{"path": "dangling.txt", "old_string": "a", "new_string": "b"}},
		{"write_file", map[string]any{"path": "root/tmp/zero-b22.txt", "content": "x"}},
		{"glob", map[string]any{"pattern": "*", "path": "linkdir"}},
		{"grep", map[string]any{"pattern": "SECRET", "path": "link.txt"}},
		{"list_dir", map[string]any{"path": "root"}},
	} {
		if res := call(t, reg, c.tool, c.args); !res.IsError || !strings.Contains(res.Content, "outside the workspace") {
			t.Errorf("%s %v: want deny, got %+v", c.tool, c.args, res)
		}
	}
	res := call(t, reg, "glob", map[string]any{"pattern": "**/*"})
	if strings.Contains(res.Content, "secret") || strings.Contains(res.Content, "victim") {
		t.Errorf("glob followed an escaping link: %q", res.Content)
	}
}
