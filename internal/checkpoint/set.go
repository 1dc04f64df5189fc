package checkpoint

import (
	"errors"
	"path/filepath"
	"strings"
)

// Set is the trackers of a session's writable roots: the workspace's
// (events name its files relative to it) and one for each added root
// (--add-dir; events name its files by absolute path), each with its own
// index, watcher and scan. An added root inside another tracked root, or
// holding one, is left to the first tracked (see Untracked).
type Set struct {
	ts []*Tracker
	// Untracked are added roots no tracker covers.
	Untracked []string
}

// NewSet returns trackers for o.Root and each of added (absolute,
// symlinks resolved).
func NewSet(o Options, added []string) *Set {
	s := &Set{ts: []*Tracker{NewTracker(o)}}
	tracked := []string{o.Root}
	for _, r := range added {
		if overlaps(r, tracked) {
			if !inside(r, tracked) {
				s.Untracked = append(s.Untracked, r)
			}
			continue
		}
		ro := o
		ro.Root, ro.Absolute = r, true
		s.ts = append(s.ts, NewTracker(ro))
		tracked = append(tracked, r)
	}
	return s
}

// within: p is dir or inside it.
func within(p, dir string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// inside: r is one of roots or inside one.
func inside(r string, roots []string) bool {
	for _, t := range roots {
		if within(r, t) {
			return true
		}
	}
	return false
}

// overlaps: r is inside one of roots or holds one.
func overlaps(r string, roots []string) bool {
	for _, t := range roots {
		if within(r, t) || within(t, r) {
			return true
		}
	}
	return false
}

// each calls f on every tracker and joins the errors.
func (s *Set) each(f func(*Tracker) error) error {
	var errs []error
	for _, t := range s.ts {
		errs = append(errs, f(t))
	}
	return errors.Join(errs...)
}

// BeforeShell brings every root's index up to date (Tracker.BeforeShell).
func (s *Set) BeforeShell() error { return s.each((*Tracker).BeforeShell) }

// AfterShell records what a shell command changed under every root.
func (s *Set) AfterShell() error { return s.each((*Tracker).AfterShell) }

// Settle ends a prompt (Tracker.Settle) under every root.
func (s *Set) Settle() error { return s.each((*Tracker).Settle) }

// Close saves every root's index.
func (s *Set) Close() error { return s.each((*Tracker).Close) }

// BeforeWrite records the files a tool is about to write (absolute
// paths), each under the root that holds it; it returns those recorded,
// for AfterWrite.
func (s *Set) BeforeWrite(abs []string) ([]string, error) {
	var out []string
	err := s.byRoot(abs, func(t *Tracker, in []string) error {
		rels, err := t.BeforeWrite(in)
		for _, r := range rels {
			out = append(out, filepath.Join(t.o.Root, filepath.FromSlash(r)))
		}
		return err
	})
	return out, err
}

// AfterWrite records the state the tool left the files in.
func (s *Set) AfterWrite(abs []string) error {
	return s.byRoot(abs, func(t *Tracker, in []string) error {
		var rels []string
		for _, a := range in {
			rels = append(rels, t.rel(a))
		}
		return t.AfterWrite(rels)
	})
}

// byRoot hands each tracker the paths under its root (the first that
// holds a path takes it; paths under none are left out).
func (s *Set) byRoot(abs []string, f func(*Tracker, []string) error) error {
	groups := make([][]string, len(s.ts))
	for _, a := range abs {
		for i, t := range s.ts {
			if t.rel(a) != "" {
				groups[i] = append(groups[i], a)
				break
			}
		}
	}
	var errs []error
	for i, g := range groups {
		if len(g) > 0 {
			errs = append(errs, f(s.ts[i], g))
		}
	}
	return errors.Join(errs...)
}
