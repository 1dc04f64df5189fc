//go:build !linux

package checkpoint

// watcher is inotify's on Linux (watch_linux.go); elsewhere every shell
// command's checkpoint scans the tree before and after.
type watcher struct{}

func newWatcher() *watcher                          { return nil }
func (w *watcher) add(string)                       {}
func (w *watcher) addGit(string)                    {}
func (w *watcher) drain() bool                      { return false }
func (w *watcher) changes() (map[string]bool, bool) { return nil, true }
func (w *watcher) close()                           {}
