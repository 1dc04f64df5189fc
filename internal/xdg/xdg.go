// Package xdg owns where Zero keeps its data on disk by default: the XDG
// base directory spec's data home
// (https://specifications.freedesktop.org/basedir-spec/latest/). It only
// computes paths; it must not create, read or write anything.
package xdg

import (
	"errors"
	"os"
	"path/filepath"
)

// DataDir is Zero's data directory: $XDG_DATA_HOME/zero when that is an
// absolute path (the spec says a relative one is ignored), else
// ~/.local/share/zero. It fails only when there is no home directory.
func DataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "zero"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	if home == "" {
		return "", errors.New("the home directory is empty")
	}
	return filepath.Join(home, ".local", "share", "zero"), nil
}
