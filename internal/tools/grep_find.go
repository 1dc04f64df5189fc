package tools

import (
	"bytes"
	"regexp/syntax"
	"strings"
)

// byteCommonness lists bytes from most to least common in source code and
// prose (a rough order taken from counting GOROOT/src; it only needs to be
// good enough to pick a rare byte). Bytes not listed count as rarest.
const byteCommonness = " \te\nt\x00roasinlcdu.(),:pmf=\"hg*_/bE{}yw;SkRTxvNAIC0[]1F&D-LOMP2BUW<>'!G+3#%$4H8|56j7V9zq?XKYJQZ\\@^`~"

// byteRank is the position of each byte in byteCommonness (higher: rarer).
var byteRank = func() (r [256]int) {
	for i := range r {
		r[i] = len(byteCommonness)
	}
	for i := len(byteCommonness) - 1; i >= 0; i-- {
		r[byteCommonness[i]] = i
	}
	return r
}()

// litFinder finds a literal in a buffer by jumping to its rarest byte with
// bytes.IndexByte (SIMD) and comparing around it, so a common first byte
// such as ')' or ' ' does not cause a compare at every occurrence. With
// fold set the literal is lower-case ASCII and is matched ASCII
// case-insensitively, by scanning for both cases of the rare byte; the
// buffer is never copied or lowered.
type litFinder struct {
	lit    []byte
	fold   bool
	k      int  // offset of the rare byte in lit
	c0, c1 byte // the rare byte in lower and upper case (equal when not a letter or !fold)
	// n0, n1 cache the next position of c0 and c1 at or after the last
	// search start (-1: none left); valid while the same buffer is scanned
	// forward, which is how match uses it.
	n0, n1 int
}

// newLitFinder prepares a search for lit (lower-case ASCII when fold).
func newLitFinder(lit []byte, fold bool) litFinder {
	f := litFinder{lit: lit, fold: fold}
	for i, c := range lit {
		if byteRank[c] > byteRank[lit[f.k]] {
			f.k = i
		}
	}
	f.c0, f.c1 = lit[f.k], lit[f.k]
	if fold && 'a' <= f.c0 && f.c0 <= 'z' {
		f.c1 = f.c0 - 'a' + 'A'
	}
	f.reset()
	return f
}

// reset forgets cached positions; call it before scanning a new buffer.
func (f *litFinder) reset() { f.n0, f.n1 = -2, -2 }

// index returns the first offset >= from where lit occurs in hay, or -1.
// Successive calls on one buffer must not move from backwards.
func (f *litFinder) index(hay []byte, from int) int {
	n := len(f.lit)
	for {
		p := from + f.k // the rare byte can be no earlier than this
		if from+n > len(hay) {
			return -1
		}
		f.n0 = nextByte(hay, f.c0, p, f.n0)
		cand := f.n0
		if f.c1 != f.c0 {
			f.n1 = nextByte(hay, f.c1, p, f.n1)
			if cand < 0 || (f.n1 >= 0 && f.n1 < cand) {
				cand = f.n1
			}
		}
		if cand < 0 {
			return -1
		}
		start := cand - f.k
		if start+n > len(hay) {
			return -1
		}
		if f.equal(hay[start : start+n]) {
			return start
		}
		from = start + 1
	}
}

// nextByte returns the position of c at or after p, reusing cached (the
// previous answer, -1 for none left, -2 for unknown) when it is still ahead.
func nextByte(hay []byte, c byte, p, cached int) int {
	if cached == -1 || cached >= p {
		return cached
	}
	if p >= len(hay) {
		return -1
	}
	i := bytes.IndexByte(hay[p:], c)
	if i < 0 {
		return -1
	}
	return p + i
}

// equal compares b (len(lit) bytes) with lit, ASCII-folded when f.fold.
func (f *litFinder) equal(b []byte) bool {
	if !f.fold {
		return bytes.Equal(b, f.lit)
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != f.lit[i] {
			return false
		}
	}
	return true
}

// litSpec is one literal of a required set: lower-case ASCII when fold.
type litSpec struct {
	lit  []byte
	fold bool
}

// maxRequiredLits bounds a required literal set; larger sets are not used
// (each literal costs a pass over the file).
const maxRequiredLits = 8

// requiredLiteralSet finds literals at least one of which every match of
// the parsed pattern contains, for patterns requiredLiteral has no single
// literal for, such as "ErrNotExist|deadline" or "(foo|bar)\d+". It
// returns nil when there is no such set of at most maxRequiredLits
// literals free of newlines (and ASCII where case is folded).
func requiredLiteralSet(expr string) []litSpec {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return litSet(re.Simplify())
}

// litSet is requiredLiteralSet on a syntax tree: a concatenation needs any
// one of its parts' sets (the one with the longest shortest literal), an
// alternation needs one literal from every branch's set.
func litSet(re *syntax.Regexp) []litSpec {
	switch re.Op {
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		s := string(re.Rune)
		if strings.Contains(s, "\n") || (fold && !isASCII(s)) {
			return nil
		}
		if fold {
			s = strings.ToLower(s)
		}
		return []litSpec{{lit: []byte(s), fold: fold}}
	case syntax.OpCapture, syntax.OpPlus:
		return litSet(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return litSet(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []litSpec
		for _, sub := range re.Sub {
			if s := litSet(sub); s != nil && (best == nil || shortest(s) > shortest(best)) {
				best = s
			}
		}
		return best
	case syntax.OpAlternate:
		var all []litSpec
		for _, sub := range re.Sub {
			s := litSet(sub)
			if s == nil {
				return nil
			}
			all = append(all, s...)
		}
		if len(all) > maxRequiredLits {
			return nil
		}
		return all
	}
	return nil
}

func shortest(set []litSpec) int {
	n := -1
	for _, l := range set {
		if n < 0 || len(l.lit) < n {
			n = len(l.lit)
		}
	}
	return n
}

// setFinder finds the earliest occurrence of any literal of a set, each
// literal with its own litFinder and the next hit of each cached, so a
// forward scan costs one pass per literal.
type setFinder struct {
	fs   []litFinder
	next []int // next hit of fs[i] at or after the last search start; -1 none, -2 unknown
}

func newSetFinder(set []litSpec) setFinder {
	f := setFinder{fs: make([]litFinder, len(set)), next: make([]int, len(set))}
	for i, l := range set {
		f.fs[i] = newLitFinder(l.lit, l.fold)
	}
	f.reset()
	return f
}

// reset forgets cached positions; call it before scanning a new buffer.
func (f *setFinder) reset() {
	for i := range f.fs {
		f.fs[i].reset()
		f.next[i] = -2
	}
}

// index returns the first offset >= from where any literal starts, or -1.
// Successive calls on one buffer must not move from backwards.
func (f *setFinder) index(hay []byte, from int) int {
	best := -1
	for i := range f.fs {
		if f.next[i] == -2 || (f.next[i] >= 0 && f.next[i] < from) {
			f.next[i] = f.fs[i].index(hay, from)
		}
		if n := f.next[i]; n >= 0 && (best < 0 || n < best) {
			best = n
		}
	}
	return best
}
