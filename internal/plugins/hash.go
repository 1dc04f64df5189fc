package plugins

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// TreeHash is "sha256:HEX" over the tree at dir: each regular file's
// path, executable bit and content, and each symbolic link's path and
// target, in lexical order (filepath.WalkDir's). .git is left out (a
// clone's history is not what runs). The installed copy holds no links,
// so a link added later changes the hash like an edited file.
func TreeHash(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "l %s\x00%s\n", rel, target)
			return nil
		case !d.Type().IsRegular():
			fmt.Fprintf(h, "o %s\n", rel)
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		sum, err := fileSum(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "f %s\x00%v %s\n", rel, fi.Mode().Perm()&0o111 != 0, sum)
		return nil
	})
	if err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func fileSum(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
