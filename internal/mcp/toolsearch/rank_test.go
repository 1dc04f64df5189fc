package toolsearch

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSearchRanksRealisticQueriesOverTwoHundredTools(t *testing.T) {
	cat := catalogue200(t)
	cases := []struct {
		query string
		// first must be the first result; inTop must all be among the
		// first len(inTop)+1 results.
		first string
		inTop []string
	}{
		{query: "mcp__github__create_issue", first: "mcp__github__create_issue"},
		{query: "create_issue", first: "mcp__github__create_issue", inTop: []string{"mcp__gitlab__create_issue"}},
		{query: "github.merge_pull_request", first: "mcp__github__merge_pull_request"},
		{query: "post a message to a slack channel", first: "mcp__slack__slack_post_message"},
		{query: "take a screenshot of the page", first: "mcp__puppeteer__puppeteer_screenshot"},
		{query: "search issues with JQL", first: "mcp__atlassian__jira_search"},
		{query: "merge PR", first: "mcp__github__merge_pull_request"},
		{query: "geocode an address", first: "mcp__google-maps__maps_geocode"},
		{query: "current time in a timezone", first: "mcp__time__get_current_time"},
		{query: "list database tables", first: "mcp__sqlite__list_tables"},
		{query: "git diff staged", first: "mcp__git__git_diff_staged"},
		{query: "create confluence page", first: "mcp__atlassian__confluence_create_page"},
		{query: "knowledge graph entities", first: "mcp__memory__create_entities"},
		{query: "tiny image", first: "mcp__everything__getTinyImage"},
		{query: "rerun failed CI jobs", first: "mcp__github__rerun_failed_jobs"},
		{query: "fetch a url", first: "mcp__fetch__fetch"},
		{query: "jira create issue", first: "mcp__atlassian__jira_create_issue"},
		{query: "list files in a directory", first: "mcp__filesystem__list_directory"},
		{query: "create issue", inTop: []string{"mcp__github__create_issue", "mcp__gitlab__create_issue"}},
		{query: "workflow run logs", inTop: []string{"mcp__github__download_workflow_run_logs"}},
		{query: "review a pull request", inTop: []string{"mcp__github__create_pull_request_review", "mcp__github__get_pull_request_reviews"}},
		{query: "list branches", inTop: []string{"mcp__github__list_branches", "mcp__git__git_branch"}},
		{query: "start a sprint", inTop: []string{"mcp__atlassian__jira_create_sprint", "mcp__atlassian__jira_update_sprint"}},
		{query: "redis key", inTop: []string{"mcp__redis__get", "mcp__redis__set"}},
	}
	for _, c := range cases {
		got := names(Search(cat, c.query, 5))
		if len(got) == 0 {
			t.Errorf("%q: no results", c.query)
			continue
		}
		if c.first != "" && got[0] != c.first {
			t.Errorf("%q: first is %s, want %s (all: %v)", c.query, got[0], c.first, got)
		}
		top := got[:min(len(got), len(c.inTop)+1)]
		for _, w := range c.inTop {
			if !slices.Contains(top, w) {
				t.Errorf("%q: %s not in the first %d: %v", c.query, w, len(top), got)
			}
		}
	}
}

func TestSearchFindsNothingForUnrelatedWords(t *testing.T) {
	cat := catalogue200(t)
	for _, q := range []string{"xylophone", "", "   ", "the of a"} {
		if got := Search(cat, q, 5); len(got) != 0 {
			t.Errorf("%q: got %v, want none", q, names(got))
		}
	}
}

func TestSearchIsTheSameWhateverTheCatalogueOrder(t *testing.T) {
	cat := catalogue200(t)
	r := rand.New(rand.NewPCG(1, 2))
	for _, q := range []string{"create issue", "list", "get pull request", "search"} {
		want := names(Search(cat, q, 10))
		for range 5 {
			shuffled := slices.Clone(cat)
			r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			if got := names(Search(shuffled, q, 10)); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: order depends on the catalogue's order:\n got %v\nwant %v", q, got, want)
			}
		}
	}
}

func TestSearchPutsEveryExactNameBeforeScoredMatches(t *testing.T) {
	cat := catalogue200(t)
	// "search" is gdrive's own tool name; many tools mention searching.
	got := names(Search(cat, "search", 5))
	if got[0] != "mcp__gdrive__search" {
		t.Fatalf("first is %s, want the exact name mcp__gdrive__search: %v", got[0], got)
	}
	if got := Search(cat, "MCP__GITHUB__GET_ME", 1); len(got) != 1 || got[0].Name != "mcp__github__get_me" {
		t.Fatalf("exact name is case-insensitive: got %v", names(got))
	}
}

func TestSearchLimit(t *testing.T) {
	cat := catalogue200(t)
	if got := Search(cat, "list", 3); len(got) != 3 {
		t.Fatalf("limit 3: got %d", len(got))
	}
	if got := Search(cat, "list", 0); len(got) != DefaultLimit {
		t.Fatalf("limit 0: got %d, want DefaultLimit", len(got))
	}
}

func TestWordsSplitsNamesTheWayToolsAreWritten(t *testing.T) {
	cases := map[string][]string{
		"getTinyImage":              {"get", "tiny", "image"},
		"mcp__github__create_issue": {"github", "create", "issue"},
		"list-directory.with_sizes": {"list", "directory", "size"},
		"MCPServerTools":            {"server", "tool"},
		"branches directories":      {"branch", "directory"},
		"status address":            {"status", "address"},
		"HTTP2Client":               {"http2", "client"},
	}
	for in, want := range cases {
		if got := words(in); !reflect.DeepEqual(got, want) {
			t.Errorf("words(%q) = %v, want %v", in, got, want)
		}
	}
}

func FuzzSearch(f *testing.F) {
	cat := catalogue200(f)
	for _, s := range []string{"create issue", "mcp__github__get_me", "getTinyImage", "ÉÀ__ü", "PR", "a-b.c/d:e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := Search(cat, q, 5)
		if len(got) > 5 {
			t.Fatalf("%d results over the limit", len(got))
		}
		exactDone := false
		for _, e := range got {
			if !isExact(e, strings.TrimSpace(q)) {
				exactDone = true
			} else if exactDone {
				t.Fatalf("%q: exact name %s after a scored match", q, e.Name)
			}
		}
	})
}
