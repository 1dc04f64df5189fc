package toolsearch

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/tools"
)

// offering is the tool list Zero sends when Budget defers: the direct
// tools plus mcp_search and mcp_call.
func offeringBytes(direct []Entry) int {
	search := NewSearchTool(func() []Entry { return nil })
	call := NewCallTool(func() []Entry { return nil }, nil)
	return Footprint(direct) + toolBytes(search) + toolBytes(call)
}

func toolBytes(t tools.Tool) int { return SpecBytes(t.Name(), t.Description(), t.Schema()) }

// The figures README quotes (issue 12 item 7): 200 MCP tools against an
// 8192-token window and the default 10% budget.
func TestTwoHundredToolsFitTenPercentOfAnEightKWindowBehindSearch(t *testing.T) {
	cat := catalogue200(t)
	const window = 8192
	budget := DefaultFraction * window

	all := Footprint(cat)
	direct, deferred := Budget(cat, window, 0, nil)
	if len(direct) != 0 || len(deferred) != 200 {
		t.Fatalf("direct %d, deferred %d; want 0 and 200", len(direct), len(deferred))
	}
	offered := offeringBytes(direct)
	t.Logf("all 200 tools directly: %d bytes, %d tokens (%.0f%% of %d)", all, Tokens(all), 100*float64(Tokens(all))/window, window)
	t.Logf("mcp_search + mcp_call instead: %d bytes, %d tokens (%.1f%% of %d; budget %.0f tokens)", offered, Tokens(offered), 100*float64(Tokens(offered))/window, window, budget)
	if float64(Tokens(offered)) >= budget {
		t.Errorf("offering takes %d tokens, want under the %.0f-token budget", Tokens(offered), budget)
	}
	if Tokens(all) < 2*window {
		t.Errorf("all 200 tools take %d tokens; the fixture should be over twice the whole window", Tokens(all))
	}

	// alwaysLoad keeps a few tools direct; the offering stays in budget.
	keep := map[string]bool{"mcp__filesystem__read_text_file": true, "mcp__git__git_status": true}
	direct, deferred = Budget(cat, window, 0, func(e Entry) bool { return keep[e.Name] })
	if len(direct) != 2 || len(deferred) != 198 {
		t.Fatalf("with alwaysLoad: direct %v, deferred %d", names(direct), len(deferred))
	}
	withKept := offeringBytes(direct)
	t.Logf("with 2 alwaysLoad tools: %d bytes, %d tokens", withKept, Tokens(withKept))
	if float64(Tokens(withKept)) >= budget {
		t.Errorf("offering with alwaysLoad takes %d tokens, want under %.0f", Tokens(withKept), budget)
	}
}

func TestBudgetOffersEverythingDirectlyWhenItFits(t *testing.T) {
	cat := catalogue200(t)
	window := Tokens(Footprint(cat)) * 10 // all tools are exactly 10%
	direct, deferred := Budget(cat, window, 0.10, func(Entry) bool { return false })
	if len(direct) != 200 || deferred != nil {
		t.Fatalf("direct %d, deferred %d; want all direct", len(direct), len(deferred))
	}
	direct, deferred = Budget(cat, window-10, 0.10, nil)
	if len(direct) != 0 || len(deferred) != 200 {
		t.Fatalf("one step over: direct %d, deferred %d; want all deferred", len(direct), len(deferred))
	}
	if direct, _ := Budget(cat, 0, 0.10, nil); len(direct) != 200 {
		t.Fatalf("unknown window: direct %d, want all", len(direct))
	}
}

func TestBudgetKeepsTheCatalogueOrder(t *testing.T) {
	cat := catalogue200(t)
	ro := func(e Entry) bool { return e.ReadOnly }
	d1, f1 := Budget(cat, 8192, 0.10, ro)
	d2, f2 := Budget(cat, 8192, 0.10, ro)
	if len(d1) == 0 || len(f1) == 0 {
		t.Fatalf("want both lists non-empty: %d, %d", len(d1), len(f1))
	}
	for _, pair := range [][2][]Entry{{d1, d2}, {f1, f2}} {
		for i := range pair[0] {
			if pair[0][i].Name != pair[1][i].Name {
				t.Fatalf("Budget is not deterministic at %d", i)
			}
		}
	}
	pos := map[string]int{}
	for i, e := range cat {
		pos[e.Name] = i
	}
	for _, l := range [][]Entry{d1, f1} {
		for i := 1; i < len(l); i++ {
			if pos[l[i-1].Name] > pos[l[i].Name] {
				t.Fatalf("%s before %s: catalogue order lost", l[i-1].Name, l[i].Name)
			}
		}
	}
}

func TestFootprintCountsCompactSpecs(t *testing.T) {
	e := Entry{Name: "mcp__s__t", Description: "d", Schema: json.RawMessage("{\n  \"type\": \"object\"\n}")}
	want := len(`{"name":"mcp__s__t","description":"d","parameters":{"type":"object"}}`)
	if got := Footprint([]Entry{e}); got != want {
		t.Fatalf("Footprint = %d, want %d", got, want)
	}
	if Tokens(7) != 2 || Tokens(8) != 2 || Tokens(0) != 0 {
		t.Fatal("Tokens rounds bytes/4 up")
	}
}

func BenchmarkSearchTwoHundredTools(b *testing.B) {
	cat := catalogue200(b)
	search := NewSearchTool(func() []Entry { return cat })
	args := json.RawMessage(`{"query":"create a pull request review"}`)
	var res tools.Result
	for b.Loop() {
		res, _ = search.Run(context.Background(), args)
	}
	direct, _ := Budget(cat, 8192, 0, nil)
	b.ReportMetric(float64(Tokens(Footprint(cat))), "all-tools-tokens")
	b.ReportMetric(float64(Tokens(offeringBytes(direct))), "offered-tokens")
	b.ReportMetric(float64(Tokens(len(res.Content))), "result-tokens")
}
