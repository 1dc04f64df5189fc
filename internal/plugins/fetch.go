package plugins

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// MaxTree caps what a plugin or marketplace copy holds (prose, a few
// scripts and configs; a larger tree is more likely a mistake).
const MaxTree = 50 << 20

// fetched is a source's tree in a temporary folder, before it is checked
// and moved into place.
type fetched struct {
	Dir          string
	Source, Kind string
	Ref, Commit  string
	cleanup      func()
}

// IsGitSource says whether source names a git repository to clone
// rather than a folder to copy: a URL (https, http, ssh, git, file), an
// scp-like address (git@host:repo), a path to a bare repository or a
// folder whose name ends in .git, or a repository's folder with #REF.
func IsGitSource(source string) bool {
	src, ref := splitRef(source)
	for _, p := range []string{"https://", "http://", "ssh://", "git://", "file://", "git@"} {
		if strings.HasPrefix(src, p) {
			return true
		}
	}
	if fi, err := os.Stat(src); err == nil && fi.IsDir() {
		if ref != "" && exists(filepath.Join(src, ".git")) {
			return true
		}
		_, head := os.Stat(filepath.Join(src, "HEAD"))
		_, objects := os.Stat(filepath.Join(src, "objects"))
		return head == nil && objects == nil
	}
	return strings.HasSuffix(src, ".git")
}

// splitRef splits "URL#REF" (a branch, tag or commit to check out).
func splitRef(source string) (src, ref string) {
	if i := strings.LastIndex(source, "#"); i > 0 && !strings.Contains(source[i:], "/") {
		return source[:i], source[i+1:]
	}
	return source, ""
}

// fetch puts source's tree (a copy of a folder, or a clone of a git
// repository without its .git) in a new temporary folder under parent.
// Nothing of the tree runs: git is told to run no hooks, and a folder is
// only read.
func fetch(ctx context.Context, source, parent string) (*fetched, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, ".fetch-")
	if err != nil {
		return nil, err
	}
	f := &fetched{Dir: filepath.Join(tmp, "tree"), cleanup: func() { os.RemoveAll(tmp) }}
	if IsGitSource(source) {
		f.Kind = KindGit
		f.Source, f.Ref = splitRef(source)
		if abs, err := filepath.Abs(f.Source); err == nil && exists(f.Source) {
			f.Source = abs
		}
		clone := filepath.Join(tmp, "clone")
		if f.Commit, err = gitClone(ctx, f.Source, f.Ref, clone); err == nil {
			err = copyTree(clone, f.Dir)
		}
	} else {
		f.Kind = KindPath
		if f.Source, err = filepath.Abs(source); err == nil {
			var fi os.FileInfo
			if fi, err = os.Stat(f.Source); err == nil && !fi.IsDir() {
				err = fmt.Errorf("%s is a file, not a plugin folder", source)
			}
		}
		if err == nil {
			err = copyTree(f.Source, f.Dir)
		}
	}
	if err != nil {
		f.cleanup()
		return nil, err
	}
	return f, nil
}

// gitClone clones url into dir (at ref when set) and returns the commit
// checked out. No hooks run (core.hooksPath is emptied), no submodules
// are fetched, and git never prompts (a private repository needs the
// credentials git already has).
func gitClone(ctx context.Context, url, ref, dir string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", fmt.Errorf("installing from a git repository needs git on PATH: %v", err)
	}
	git := func(dir string, args ...string) (string, error) {
		base := []string{"-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never", "-c", "advice.detachedHead=false"}
		cmd := exec.CommandContext(ctx, "git", append(base, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(errb.String()))
		}
		return strings.TrimSpace(out.String()), nil
	}
	if _, err := git("", "clone", "--quiet", "--no-recurse-submodules", "--", url, dir); err != nil {
		return "", err
	}
	if ref != "" {
		if _, err := git(dir, "checkout", "--quiet", ref, "--"); err != nil {
			return "", fmt.Errorf("%s has no ref %q: %v", url, ref, err)
		}
	}
	return git(dir, "rev-parse", "HEAD")
}

// copyTree copies the regular files and folders of src into dst (new),
// leaving out .git and anything that is not a regular file (a link could
// point anywhere on the machine), up to MaxTree bytes.
func copyTree(src, dst string) error {
	total := int64(0)
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git" && rel != ".":
			return filepath.SkipDir
		case d.IsDir():
			return os.Mkdir(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if total += fi.Size(); total > MaxTree {
			return fmt.Errorf("%s holds more than %d MB: is it the plugin's own folder?", src, MaxTree>>20)
		}
		return copyFile(p, target, fi.Mode().Perm())
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return !errors.Is(err, fs.ErrNotExist)
}
