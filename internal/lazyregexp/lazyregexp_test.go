package lazyregexp

import (
	"regexp"
	"slices"
	"sync"
	"testing"
)

func TestMethodsAnswerAsRegexpDoes(t *testing.T) {
	const expr, s = `(\w+)=(\d+)`, "a=1, b=22; c=x"
	lazy, re := newRegexp(expr, false), regexp.MustCompile(expr)
	if lazy.String() != expr {
		t.Errorf("String() = %q", lazy.String())
	}
	if got, want := lazy.MatchString(s), re.MatchString(s); got != want {
		t.Errorf("MatchString = %v, want %v", got, want)
	}
	if got, want := lazy.FindString(s), re.FindString(s); got != want {
		t.Errorf("FindString = %q, want %q", got, want)
	}
	if got, want := lazy.FindStringIndex(s), re.FindStringIndex(s); !slices.Equal(got, want) {
		t.Errorf("FindStringIndex = %v, want %v", got, want)
	}
	if got, want := lazy.FindStringSubmatch(s), re.FindStringSubmatch(s); !slices.Equal(got, want) {
		t.Errorf("FindStringSubmatch = %q, want %q", got, want)
	}
	if got, want := lazy.FindStringSubmatchIndex(s), re.FindStringSubmatchIndex(s); !slices.Equal(got, want) {
		t.Errorf("FindStringSubmatchIndex = %v, want %v", got, want)
	}
	got, want := lazy.FindAllStringSubmatch(s, -1), re.FindAllStringSubmatch(s, -1)
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("FindAllStringSubmatch = %q, want %q", got, want)
	}
	if got, want := lazy.ReplaceAllString(s, "$2=$1"), re.ReplaceAllString(s, "$2=$1"); got != want {
		t.Errorf("ReplaceAllString = %q, want %q", got, want)
	}
	if got, want := lazy.Split(s, -1), re.Split(s, -1); !slices.Equal(got, want) {
		t.Errorf("Split = %q, want %q", got, want)
	}
}

func TestPatternIsCompiledOnFirstUseOnly(t *testing.T) {
	r := newRegexp(`(unclosed`, false) // would panic if compiled here
	if r.re != nil {
		t.Fatal("compiled before first use")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic on first use")
		}
	}()
	r.MatchString("x")
}

func TestBadPatternPanicsAtOnceInTests(t *testing.T) {
	if !inTest {
		t.Fatalf("a go test binary was not recognised as one")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("New accepted a bad pattern in a test binary")
		}
	}()
	New(`(unclosed`)
}

func TestFirstUseFromManyGoroutinesIsSafe(t *testing.T) {
	r := newRegexp(`^go+$`, false)
	var wg sync.WaitGroup
	res := make([]bool, 16)
	for i := range res {
		wg.Go(func() { res[i] = r.MatchString("goooo") })
	}
	wg.Wait()
	if slices.Contains(res, false) {
		t.Fatalf("results %v", res)
	}
}
