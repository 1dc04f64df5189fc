// Package lazyregexp holds package-level regular expressions that are
// compiled the first time they are used instead of when the program starts.
// Compiled at init, Zero's ~70 patterns took about 1.6 ms of package
// initialisation on every start, `zero --version` included
// (GODEBUG=inittrace=1 shows it per package), though a run needs few of
// them.
//
// It follows the Go distribution's own internal/lazyregexp
// (https://go.dev/src/internal/lazyregexp/lazyre.go), down to its one
// safeguard: in a test binary every pattern is compiled as it is declared,
// so a bad pattern still fails its package's tests at once, as
// regexp.MustCompile at init would, instead of panicking in the middle of
// a run.
//
// It owns nothing but that deferral: a Regexp behaves exactly as the
// *regexp.Regexp it wraps. It imports only the standard library and must
// not import other Zero packages.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regular expression compiled on first use. It is safe for
// concurrent use; the methods are those of regexp.Regexp.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// inTest is set in a `go test` binary (named pkg.test), where patterns are
// compiled eagerly.
var inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

// New returns expr as a Regexp compiled on first use. Like
// regexp.MustCompile it panics on a bad expr: on first use, or at once in
// a test binary.
func New(expr string) *Regexp { return newRegexp(expr, inTest) }

func newRegexp(expr string, eager bool) *Regexp {
	r := &Regexp{expr: expr}
	if eager {
		r.compiled()
	}
	return r
}

func (r *Regexp) compiled() *regexp.Regexp {
	r.once.Do(r.compile)
	return r.re
}

func (r *Regexp) compile() { r.re = regexp.MustCompile(r.expr) }

// String returns the source text of the expression.
func (r *Regexp) String() string { return r.expr }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.compiled().MatchString(s) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.compiled().FindString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.compiled().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.compiled().FindStringSubmatch(s) }

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.compiled().FindStringSubmatchIndex(s)
}

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.compiled().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compiled().ReplaceAllString(src, repl)
}

// Split is regexp.Regexp.Split.
func (r *Regexp) Split(s string, n int) []string { return r.compiled().Split(s, n) }
