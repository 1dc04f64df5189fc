package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// checkpointTree is a workspace with the file conventions a restore must
// keep: a BOM and CRLF, an executable script, an ignored directory and a
// .git directory.
func checkpointTree(t *testing.T) string {
	dir := t.TempDir()
	testbin.WriteTree(t, dir, map[string]string{
		"notes.txt":        "\ufeffline one\r\nline two\r\n",
		"run.sh":           "#!/bin/sh\necho hi\n",
		"keep.txt":         "keep me\n",
		".gitignore":       "build/\n",
		"build/out.bin":    "old build\n",
		".git/HEAD":        "ref: refs/heads/main\n",
		"src/deep/file.go": "package deep\n",
	})
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// snapshot reads every file under dir (but a .git below it) with its
// mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			if info.Name() == ".git" && p != dir {
				return filepath.SkipDir
			}
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = info.Mode().Perm().String() + " " + string(b)
		return nil
	})
	return out
}

func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %s is %q, want %q", what, p, got[p], w)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: %s exists, want it absent", what, p)
		}
	}
}

func args(v map[string]string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// sessionOf is the session id a stream-json run reported.
func sessionOf(t *testing.T, r result) string {
	t.Helper()
	evs := parseStream(t, r.stdout)
	id, _ := evs[0]["sessionId"].(string)
	if id == "" {
		t.Fatalf("no session id: %s\n%s", r.stdout, r.stderr)
	}
	return id
}

// TestRewindRestoresToolAndShellChangesByteExact: two prompts change
// files through edit_file, write_file and bash (a change, a creation, a
// deletion, a chmod), each recorded as checkpoint events of its run in
// the session log; rewinding to prompt 1 puts every file back byte for
// byte with its mode, leaves the ignored build output and .git alone (a
// shell command's writes in .git are neither recorded nor reverted, and
// nothing else appears there), keeps a file the user changed since (a conflict) until --force, and the
// rewind itself can be rewound.
func TestRewindRestoresToolAndShellChangesByteExact(t *testing.T) {
	dir := checkpointTree(t)
	original := snapshot(t, dir)
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "edit_file", args(map[string]string{"path": "notes.txt", "old_string": "line two", "new_string": "line 2"}))),
		llmtest.Reply(tc("c2", "bash", args(map[string]string{"command": "rm keep.txt && printf 'echo bye\\n' >> run.sh && chmod 700 run.sh && echo made > src/made.txt && echo new > build/out.bin && echo side > .git/side && printf 'ref: refs/heads/side\\n' > .git/HEAD"}))),
		llmtest.Reply(llmtest.Text("done one")),
	)
	exec := func(extra ...string) result {
		t.Helper()
		a := append([]string{"exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model"}, extra...)
		r := e.run(dir, "", a...)
		if r.code != 0 {
			t.Fatalf("exec exit %d\n%s\n%s", r.code, r.stderr, r.stdout)
		}
		return r
	}
	id := sessionOf(t, exec("first change"))
	afterOne := snapshot(t, dir)
	if got := loggedCheckpointPaths(t, e, id); got != "keep.txt notes.txt run.sh src/made.txt" {
		t.Fatalf("prompt 1's checkpoint events name %q", got)
	}
	git := snapshot(t, filepath.Join(dir, ".git")) // as the command left it
	if !strings.Contains(git["HEAD"], "refs/heads/side") || git["side"] == "" {
		t.Fatalf("prompt 1 did not write .git: %v", git)
	}
	if afterOne["keep.txt"] != "" || !strings.Contains(afterOne["run.sh"], "bye") || afterOne["src/made.txt"] == "" {
		t.Fatalf("prompt 1 did not change the tree: %v", afterOne)
	}
	srv.Script(
		llmtest.Reply(tc("c3", "write_file", args(map[string]string{"path": "src/deep/file.go", "content": "package deep\n\nvar X = 1\n"}))),
		llmtest.Reply(llmtest.Text("done two")),
	)
	exec("--resume", id, "second change")
	afterTwo := snapshot(t, dir)

	zero := func(a ...string) result {
		t.Helper()
		r := e.run(dir, "", a...)
		if r.code != 0 {
			t.Fatalf("zero %v: exit %d\n%s\n%s", a, r.code, r.stderr, r.stdout)
		}
		return r
	}
	list := zero("sessions", "rewind", id)
	if !strings.Contains(list.stdout, "first change") || !strings.Contains(list.stdout, "second change") {
		t.Fatalf("prompt list:\n%s", list.stdout)
	}

	dry := zero("sessions", "rewind", id, "--to", "1", "--dry-run")
	if !strings.Contains(dry.stdout, "delete    src/made.txt") || !strings.Contains(dry.stdout, "recreate  keep.txt") {
		t.Fatalf("dry run:\n%s", dry.stdout)
	}
	sameTree(t, "after a dry run", snapshot(t, dir), afterTwo)

	// The user edits notes.txt after Zero did: a conflict, kept.
	userNotes := "\ufeffmine now\r\n"
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(userNotes), 0o644)
	r := e.run(dir, "", "sessions", "rewind", id, "--to", "1")
	if r.code != 1 || !strings.Contains(r.stdout, "conflict  notes.txt") || !strings.Contains(r.stdout, "undo: --to 3") || !strings.Contains(r.stderr, "kept: notes.txt") {
		t.Fatalf("a rewind keeping a conflict: exit %d (want 1)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	want := map[string]string{}
	for k, v := range original {
		want[k] = v
	}
	want["notes.txt"] = "-rw-r--r-- " + userNotes
	want["build/out.bin"] = afterOne["build/out.bin"] // ignored: not recorded
	sameTree(t, "after rewind to 1", snapshot(t, dir), want)
	sameTree(t, ".git after rewind to 1", snapshot(t, filepath.Join(dir, ".git")), git)

	// Undo the rewind: the tree after prompt 2 (with the user's notes).
	zero("sessions", "rewind", id, "--to", "3", "--files-only")
	wantTwo := map[string]string{}
	for k, v := range afterTwo {
		wantTwo[k] = v
	}
	wantTwo["notes.txt"] = want["notes.txt"]
	sameTree(t, "after undoing the rewind", snapshot(t, dir), wantTwo)

	// --force restores the conflicting file too.
	r = zero("sessions", "rewind", id, "--to", "1", "--force", "--files-only")
	if strings.Contains(r.stdout, "conflict") {
		t.Fatalf("forced rewind kept a conflict:\n%s", r.stdout)
	}
	want["notes.txt"] = original["notes.txt"]
	sameTree(t, "after a forced rewind", snapshot(t, dir), want)
	sameTree(t, ".git after every rewind", snapshot(t, filepath.Join(dir, ".git")), git)
}

// TestResumeAfterRewindContinuesFromThePrompt: a conversation rewind to
// prompt 2 cuts prompt 2 and what followed; the next --resume sends the
// model prompt 1's exchange and the new prompt only.
func TestResumeAfterRewindContinuesFromThePrompt(t *testing.T) {
	dir := checkpointTree(t)
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	exec := func(prompt string, extra ...string) result {
		t.Helper()
		a := append([]string{"exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "llmtest-model"}, extra...)
		r := e.run(dir, "", append(a, prompt)...)
		if r.code != 0 {
			t.Fatalf("exec exit %d\n%s", r.code, r.stderr)
		}
		return r
	}
	srv.Script(llmtest.Reply(llmtest.Text("answer one")))
	id := sessionOf(t, exec("prompt one"))
	srv.Script(llmtest.Reply(llmtest.Text("answer two")))
	exec("prompt two", "--resume", id)
	r := e.run(dir, "", "sessions", "rewind", id, "--to", "2", "--conversation-only")
	if r.code != 0 || !strings.Contains(r.stdout, "the conversation to before prompt 2") {
		t.Fatalf("rewind: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	srv.Script(llmtest.Reply(llmtest.Text("answer three")))
	exec("prompt three", "--resume", id)
	reqs := completions(srv)
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, "prompt one") || !strings.Contains(body, "answer one") || !strings.Contains(body, "prompt three") {
		t.Fatalf("resumed request lacks the kept conversation: %s", body)
	}
	if strings.Contains(body, "prompt two") || strings.Contains(body, "answer two") {
		t.Fatalf("resumed request still holds the rewound prompt: %s", body)
	}
}

// TestForkAtStartsFromBeforeThePrompt: --fork ID --at 2 branches a new
// session whose first request holds prompt 1's exchange only; the forked
// session is untouched, and a prompt number it lacks is a usage error
// that forks nothing.
func TestForkAtStartsFromBeforeThePrompt(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	exec := func(prompt string, extra ...string) result {
		t.Helper()
		a := append([]string{"exec", "-o", "stream-json", "--base-url", srv.URL(), "--model", "llmtest-model"}, extra...)
		return e.run(dir, "", append(a, prompt)...)
	}
	srv.Script(llmtest.Reply(llmtest.Text("answer one")))
	id := sessionOf(t, exec("prompt one"))
	srv.Script(llmtest.Reply(llmtest.Text("answer two")))
	exec("prompt two", "--resume", id)
	if r := exec("prompt x", "--fork", id, "--at", "9"); r.code != 2 || !strings.Contains(r.stderr, "has prompts 1 to 2") {
		t.Fatalf("--at 9: exit %d, %s", r.code, r.stderr)
	}
	srv.Script(llmtest.Reply(llmtest.Text("answer three")))
	r := exec("prompt three", "--fork", id, "--at", "2")
	if r.code != 0 {
		t.Fatalf("fork: exit %d\n%s", r.code, r.stderr)
	}
	fork := sessionOf(t, r)
	reqs := completions(srv)
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, "answer one") || strings.Contains(body, "prompt two") || !strings.Contains(body, "prompt three") {
		t.Fatalf("forked request: %s", body)
	}
	srv.Script(llmtest.Reply(llmtest.Text("answer four")))
	exec("prompt four", "--resume", id)
	reqs = completions(srv)
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "prompt two") || strings.Contains(body, "prompt three") {
		t.Fatalf("the forked session changed: %s", body)
	}
	list := e.run(dir, "", "sessions")
	if strings.Count(list.stdout, "prompt one") != 2 || !strings.Contains(list.stdout, fork[:15]) {
		t.Fatalf("sessions (want the original and one fork):\n%s", list.stdout)
	}
}

// TestKillDuringCheckpointLeavesSessionAndStoreConsistent: zero is killed
// (SIGKILL) while it stores what a shell command created; every stored
// content is whole (named by its hash), the session lists, resumes and
// rewinds, and the workspace keeps what the command wrote.
func TestKillDuringCheckpointLeavesSessionAndStoreConsistent(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "bash", args(map[string]string{"command": "mkdir gen && cd gen && seq 3000 | split -l 1 -a 4"}))),
	)
	cmd := exec.Command(zeroBin, "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model", "make files")
	cmd.Dir, cmd.Env = dir, e.vars
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	blobs := filepath.Join(e.sessionDir, ".checkpoints", "blobs")
	deadline := time.Now().Add(20 * time.Second)
	for countFiles(blobs) < 30 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the checkpoint never started storing:\n%s", out.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if n := countFiles(blobs); n >= 3000 {
		t.Fatalf("the kill came after the checkpoint (%d contents stored)", n)
	}
	if n := countFiles(filepath.Join(dir, "gen")); n != 3000 {
		t.Fatalf("the workspace holds %d of the command's 3000 files", n)
	}
	filepath.Walk(blobs, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || strings.HasPrefix(info.Name(), ".") {
			return err
		}
		b, _ := os.ReadFile(p)
		sum := sha256.Sum256(b)
		if name := filepath.Base(filepath.Dir(p)) + info.Name(); name != hex.EncodeToString(sum[:]) {
			t.Errorf("stored content %s is not whole", name)
		}
		return nil
	})
	ents, _ := os.ReadDir(e.sessionDir)
	var id string
	for _, en := range ents {
		if en.IsDir() && !strings.HasPrefix(en.Name(), ".") {
			id = en.Name()
		}
	}
	if r := e.run(dir, "", "sessions", "rewind", id); r.code != 0 || !strings.Contains(r.stdout, "make files") {
		t.Fatalf("prompts after the kill: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	srv.Script(llmtest.Reply(llmtest.Text("resumed")))
	if r := e.run(dir, "", "exec", "--resume", id, "--base-url", srv.URL(), "--model", "llmtest-model", "go on"); r.code != 0 || !strings.Contains(r.stdout, "resumed") {
		t.Fatalf("resume after the kill: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(dir, "", "sessions", "rewind", id, "--to", "1"); r.code != 0 {
		t.Fatalf("rewind after the kill: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// loggedCheckpointPaths lists, sorted and space-separated, the files the
// checkpoint events of session id's log name, checking each event
// belongs to a run the log started.
func loggedCheckpointPaths(t *testing.T, e *env, id string) string {
	t.Helper()
	evs := readLog(t, filepath.Join(e.sessionDir, id, "events.jsonl"))
	runs := map[any]bool{}
	for _, ev := range eventsOf(evs, "run_start") {
		runs[ev["runId"]] = true
	}
	seen := map[string]bool{}
	for _, ev := range eventsOf(evs, "checkpoint") {
		if !runs[ev["runId"]] {
			t.Errorf("checkpoint event outside a run: %v", ev)
		}
		cp, _ := ev["checkpoint"].(map[string]any)
		changes, _ := cp["changes"].([]any)
		for _, c := range changes {
			p, _ := c.(map[string]any)["path"].(string)
			seen[p] = true
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// countFiles counts the regular files under dir.
func countFiles(dir string) int {
	n := 0
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

// TestRewindRestoresFilesUnderAnAddedRoot: with --add-dir, a file tool's
// write and a shell command's edit, creation and deletion in the added
// root are recorded (by absolute path, the root scanned on its own);
// rewinding to prompt 1 puts them back byte for byte with their modes,
// and rewinding the rewind brings the prompt's result back.
func TestRewindRestoresFilesUnderAnAddedRoot(t *testing.T) {
	dir := checkpointTree(t)
	other := t.TempDir()
	testbin.WriteTree(t, other, map[string]string{"x.txt": "\ufeffx\r\n", "y.sh": "echo y\n", "z.txt": "z\n"})
	os.Chmod(filepath.Join(other, "y.sh"), 0o750)
	original := snapshot(t, other)
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "write_file", args(map[string]string{"path": filepath.Join(other, "x.txt"), "content": "written\n"}))),
		llmtest.Reply(tc("c2", "bash", args(map[string]string{"command": "cd " + other + " && echo more >> y.sh && chmod 700 y.sh && rm z.txt && echo n > new.txt"}))),
		llmtest.Reply(llmtest.Text("done")),
	)
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--add-dir", other, "--base-url", srv.URL(), "--model", "llmtest-model", "change the other root")
	if r.code != 0 {
		t.Fatalf("exec exit %d\n%s\n%s", r.code, r.stderr, r.stdout)
	}
	id := sessionOf(t, r)
	after := snapshot(t, other)
	if !strings.Contains(after["x.txt"], "written") || after["y.sh"] != "-rwx------ echo y\nmore\n" || after["z.txt"] != "" || after["new.txt"] == "" {
		t.Fatalf("the prompt did not change the added root: %v", after)
	}
	r = e.run(dir, "", "sessions", "rewind", id, "--to", "1", "--files-only")
	if r.code != 0 || !strings.Contains(r.stdout, "delete    "+filepath.ToSlash(filepath.Join(other, "new.txt"))) {
		t.Fatalf("rewind: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	sameTree(t, "the added root after rewind to 1", snapshot(t, other), original)
	if r := e.run(dir, "", "sessions", "rewind", id, "--to", "2", "--files-only"); r.code != 0 {
		t.Fatalf("undo: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	sameTree(t, "the added root after undoing the rewind", snapshot(t, other), after)
}

// TestCheckpointLimitsComeFromTheUserConfig: "checkpoints" in the user
// config sets the largest file stored (a bigger one the command writes
// is named in a warning when it happens and in the rewind as skipped,
// and left as it is) and the age past which stored contents are
// collected (an old one goes, a recent one stays); a project config's
// "checkpoints" is ignored with a warning.
func TestCheckpointLimitsComeFromTheUserConfig(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	testbin.WriteTree(t, e.home, map[string]string{".config/zero/config.json": `{"checkpoints": {"maxFileMB": 1, "maxAgeDays": 2}}`})
	testbin.WriteTree(t, dir, map[string]string{".zero/config.json": `{"checkpoints": {"maxAgeDays": 1}}`})
	blobs := filepath.Join(e.sessionDir, ".checkpoints", "blobs")
	testbin.WriteTree(t, blobs, map[string]string{"aa/old": "old", "bb/recent": "recent"})
	old := time.Now().Add(-3 * 24 * time.Hour)
	os.Chtimes(filepath.Join(blobs, "aa", "old"), old, old)
	recent := time.Now().Add(-36 * time.Hour)
	os.Chtimes(filepath.Join(blobs, "bb", "recent"), recent, recent)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(tc("c1", "bash", args(map[string]string{"command": "head -c 2000000 /dev/zero > big.bin && echo s > small.txt"}))),
		llmtest.Reply(llmtest.Text("done")),
	)
	r := e.run(dir, "", "exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model", "make files")
	if r.code != 0 {
		t.Fatalf("exec exit %d\n%s\n%s", r.code, r.stderr, r.stdout)
	}
	if !strings.Contains(r.stdout, `not recorded (over 1 MiB`) || !strings.Contains(r.stdout, "big.bin") {
		t.Errorf("no warning naming the skipped file:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "checkpoints ignored") {
		t.Errorf("the project's checkpoints key was not warned about:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(blobs, "aa", "old")); err == nil {
		t.Errorf("content unused for 3 days survived maxAgeDays 2")
	}
	if _, err := os.Stat(filepath.Join(blobs, "bb", "recent")); err != nil {
		t.Errorf("content unused for 36 hours was collected (the project's maxAgeDays 1 applied?): %v", err)
	}
	id := sessionOf(t, r)
	dry := e.run(dir, "", "sessions", "rewind", id, "--to", "1", "--dry-run")
	if !strings.Contains(dry.stdout, "skipped   big.bin") || !strings.Contains(dry.stdout, "delete    small.txt") {
		t.Fatalf("dry run: exit %d\n%s\n%s", dry.code, dry.stdout, dry.stderr)
	}
	if r := e.run(dir, "", "sessions", "rewind", id, "--to", "1"); r.code != 0 {
		t.Fatalf("rewind: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if info, err := os.Stat(filepath.Join(dir, "big.bin")); err != nil || info.Size() != 2000000 {
		t.Fatalf("the skipped file was not left as it is: %v", err)
	}
}

// TestForkAtRestoresFilesOnlyOnRequest: --fork ID --at 2 leaves the
// workspace as it is; with --restore-files it also puts the files back to
// before prompt 2 (listed on stderr) and the new session continues from
// there; the rewind is logged in the fork, so rewinding the fork to it
// brings the files back, and the forked session still has its prompts.
func TestForkAtRestoresFilesOnlyOnRequest(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t)
	srv := llmtest.NewServer(t)
	exec := func(prompt string, extra ...string) result {
		t.Helper()
		a := append([]string{"exec", "-o", "stream-json", "--auto-approve", "--base-url", srv.URL(), "--model", "llmtest-model"}, extra...)
		r := e.run(dir, "", append(a, prompt)...)
		if r.code != 0 {
			t.Fatalf("exec %s: exit %d\n%s\n%s", prompt, r.code, r.stderr, r.stdout)
		}
		return r
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "(absent)"
		}
		return string(b)
	}
	srv.Script(llmtest.Reply(tc("c1", "write_file", args(map[string]string{"path": "a.txt", "content": "one\n"}))), llmtest.Reply(llmtest.Text("wrote")))
	id := sessionOf(t, exec("prompt one"))
	srv.Script(llmtest.Reply(tc("c2", "bash", args(map[string]string{"command": "echo two > a.txt && echo b > b.txt"}))), llmtest.Reply(llmtest.Text("edited")))
	exec("prompt two", "--resume", id)

	if r := e.run(dir, "", "exec", "--restore-files", "--fork", id, "x"); r.code != 2 || !strings.Contains(r.stderr, "--restore-files needs --fork ID --at N") {
		t.Fatalf("--restore-files without --at: exit %d\n%s", r.code, r.stderr)
	}
	srv.Script(llmtest.Reply(llmtest.Text("forked")))
	exec("prompt three", "--fork", id, "--at", "2")
	if read("a.txt") != "two\n" || read("b.txt") != "b\n" {
		t.Fatalf("a fork without --restore-files changed the files: %q %q", read("a.txt"), read("b.txt"))
	}
	srv.Script(llmtest.Reply(llmtest.Text("forked with files")))
	r := exec("prompt four", "--fork", id, "--at", "2", "--restore-files")
	fork := sessionOf(t, r)
	if read("a.txt") != "one\n" || read("b.txt") != "(absent)" {
		t.Fatalf("--restore-files: a.txt %q, b.txt %q", read("a.txt"), read("b.txt"))
	}
	if !strings.Contains(r.stderr, "restore   a.txt") || !strings.Contains(r.stderr, "delete    b.txt") || !strings.Contains(r.stderr, "undo: zero sessions rewind "+fork+" --to 3") {
		t.Fatalf("the fork's rewind report:\n%s", r.stderr)
	}
	reqs := completions(srv)
	if body := string(reqs[len(reqs)-1].Body); strings.Contains(body, "prompt two") || !strings.Contains(body, "prompt four") {
		t.Fatalf("forked request: %s", body)
	}
	if r := e.run(dir, "", "sessions", "rewind", fork, "--to", "3", "--files-only"); r.code != 0 || read("a.txt") != "two\n" || read("b.txt") != "b\n" {
		t.Fatalf("undoing the fork's restore: exit %d, a.txt %q, b.txt %q\n%s%s", r.code, read("a.txt"), read("b.txt"), r.stdout, r.stderr)
	}
	if list := e.run(dir, "", "sessions", "rewind", id); !strings.Contains(list.stdout, "prompt two") || strings.Contains(list.stdout, "prompt four") {
		t.Fatalf("the forked session changed:\n%s", list.stdout)
	}
}
