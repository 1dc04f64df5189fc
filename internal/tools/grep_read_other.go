//go:build !unix

package tools

import (
	"errors"
	"io"
	"os"
)

// errNotSearched is returned by scratch.read for files grep does not
// search: larger than grepMaxFileBytes or no longer a regular file.
var errNotSearched = errors.New("not a searchable file")

// read loads abs into sc.data unless it is too big to be source or is no
// longer a regular file.
func (sc *scratch) read(abs string) error {
	f, err := os.OpenFile(abs, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || fi.Size() > grepMaxFileBytes {
		return errNotSearched
	}
	n := int(fi.Size()) + 1 // +1 to see EOF in one read
	if cap(sc.data) < n {
		sc.data = make([]byte, 0, n)
	}
	sc.data = sc.data[:0]
	for {
		if len(sc.data) == cap(sc.data) {
			if len(sc.data) >= grepMaxFileBytes {
				return errNotSearched
			}
			sc.data = append(sc.data, 0)[:len(sc.data)]
		}
		k, err := f.Read(sc.data[len(sc.data):cap(sc.data)])
		sc.data = sc.data[:len(sc.data)+k]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
