package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxInstall caps what Install copies (a skill is prose and a few
// scripts; a larger folder is more likely a mistake, a repository root).
const MaxInstall = 20 << 20

// Install copies the skill folder src (holding SKILL.md) into dir (the
// user's skills folder) as dir/NAME and returns the skill. It copies
// rather than links: the installed skill does not change when src does
// (a project's folder, a download that goes away), so what the user
// installed is what runs. Symbolic links and files other than regular
// ones are skipped; an existing dir/NAME is an error (nothing is
// overwritten).
func Install(src, dir string) (Skill, error) {
	data, err := os.ReadFile(filepath.Join(src, File))
	if err != nil {
		return Skill{}, fmt.Errorf("%s is not a skill folder: %v", src, err)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return Skill{}, err
	}
	sk, err := Parse(data, filepath.Base(abs))
	if err != nil {
		return Skill{}, fmt.Errorf("%s: %v", filepath.Join(src, File), err)
	}
	dest := filepath.Join(dir, sk.Name)
	if _, err := os.Lstat(dest); err == nil {
		return Skill{}, fmt.Errorf("%s exists already: remove it first to replace the skill", dest)
	}
	total := int64(0)
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil
		}
		if fi, err := d.Info(); err == nil && !d.IsDir() {
			if total += fi.Size(); total > MaxInstall {
				return fmt.Errorf("%s holds more than %d MB: is it the skill's own folder?", src, MaxInstall>>20)
			}
		}
		return nil
	})
	if err != nil {
		return Skill{}, err
	}
	tmp, err := os.MkdirTemp(dir, "."+sk.Name+"-")
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			tmp, err = os.MkdirTemp(dir, "."+sk.Name+"-")
		}
	}
	if err != nil {
		return Skill{}, err
	}
	if err := copyTree(abs, tmp); err != nil {
		os.RemoveAll(tmp)
		return Skill{}, err
	}
	if err := os.Rename(tmp, dest); err != nil {
		os.RemoveAll(tmp)
		return Skill{}, err
	}
	sk.Dir, sk.Scope = dest, User
	return sk, nil
}

// copyTree copies the regular files and folders of src into dst.
func copyTree(src, dst string) error {
	if err := os.Chmod(dst, 0o755); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "." {
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return os.Mkdir(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		return copyFile(p, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm()|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
