//go:build !unix

package sessions

import "os"

// tryLock is a no-op where flock(2) does not exist: the lock always
// succeeds.
func tryLock(*os.File) (held bool, err error) { return false, nil }

// waitLock is a no-op where flock(2) does not exist.
func waitLock(*os.File) error { return nil }

// flockWorks: without flock a free lock proves nothing, so List never
// removes a session here (see Store.List).
const flockWorks = false
