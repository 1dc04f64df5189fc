package toolsearch

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"unicode"
)

// The ranking is BM25F (Robertson & Zaragoza, "The Probabilistic Relevance
// Framework: BM25 and Beyond", 2009, section 3.7.1) over four fields of a
// tool: its own name, its server's name, its description, and its
// parameters (names and descriptions, one level of nesting). A word in the
// tool's name counts most, and a short name that is mostly the query's
// words beats a long one that contains them (b near 1): asked for "create
// issue", create_issue comes before jira_create_issue_link.

// nameMatchWeight scales the bonus for how well the query and the tool's
// own name cover each other (F1 of their word sets): among tools that
// all mention the query's words, the one whose name is just those words
// wins ("jira create issue" finds jira_create_issue before
// jira_batch_create_issues).
const nameMatchWeight = 2.0

// Field weights and length normalisation (b) per field, and the saturation
// constant k1 (the usual 1.2). Parameters weigh least: the same few
// ("owner", "repo", "issue_key") recur across a server's tools.
var fields = [...]struct{ weight, b float64 }{
	{weight: 3.0, b: 0.9},  // tool name
	{weight: 1.0, b: 0},    // server name
	{weight: 1.5, b: 0.75}, // description
	{weight: 0.6, b: 0.75}, // parameters
}

const k1 = 1.2

// doc is one entry's words, counted per field.
type doc struct {
	tf  [len(fields)]map[string]int
	len [len(fields)]int
}

type scored struct {
	index int
	exact bool
	score float64
}

// rank scores every entry against query and returns the matching ones in
// order (Search describes it).
func rank(entries []Entry, query string) []scored {
	terms := queryTerms(query)
	docs := make([]doc, len(entries))
	var avg [len(fields)]float64
	df := map[string]int{}
	for i, e := range entries {
		docs[i] = newDoc(e)
		for f := range fields {
			avg[f] += float64(docs[i].len[f])
		}
		for _, t := range terms {
			if docs[i].has(t) {
				df[t]++
			}
		}
	}
	for f := range fields {
		avg[f] = math.Max(avg[f]/math.Max(float64(len(entries)), 1), 1)
	}
	n := float64(len(entries))
	var out []scored
	for i, e := range entries {
		s := scored{index: i, exact: isExact(e, query)}
		for _, t := range terms {
			if df[t] == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			tf := docs[i].weightedTF(t, avg)
			s.score += idf * tf / (k1 + tf)
		}
		if s.score > 0 {
			s.score += nameMatchWeight * nameMatch(docs[i].tf[0], terms)
		}
		if s.exact || s.score > 0 {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.exact != y.exact {
			return x.exact
		}
		if x.score != y.score {
			return x.score > y.score
		}
		return entries[x.index].Name < entries[y.index].Name
	})
	return out
}

// nameMatch is the F1 of the query's words found among a tool name's
// distinct words (name) against both sets' sizes.
func nameMatch(name map[string]int, terms []string) float64 {
	hit := 0
	for _, t := range terms {
		if name[t] > 0 {
			hit++
		}
	}
	if hit == 0 {
		return 0
	}
	p := float64(hit) / float64(len(name))
	r := float64(hit) / float64(len(terms))
	return 2 * p * r / (p + r)
}

func (d doc) has(t string) bool {
	for f := range fields {
		if d.tf[f][t] > 0 {
			return true
		}
	}
	return false
}

// weightedTF is BM25F's pseudo term frequency: each field's count, length
// normalised and weighted, summed.
func (d doc) weightedTF(t string, avg [len(fields)]float64) float64 {
	var sum float64
	for f, p := range fields {
		c := d.tf[f][t]
		if c == 0 {
			continue
		}
		norm := 1 - p.b + p.b*float64(d.len[f])/avg[f]
		sum += p.weight * float64(c) / norm
	}
	return sum
}

func newDoc(e Entry) doc {
	var d doc
	texts := [len(fields)][]string{
		{e.Tool},
		{e.Server},
		{e.Description},
		paramTexts(e.Schema),
	}
	for f, ts := range texts {
		d.tf[f] = map[string]int{}
		for _, s := range ts {
			for _, w := range words(s) {
				d.tf[f][w]++
				d.len[f]++
			}
		}
	}
	return d
}

// paramTexts returns the names and descriptions of a schema's properties,
// and of the properties of object and array-of-object properties one level
// down.
func paramTexts(schema json.RawMessage) []string {
	var out []string
	var walk func(raw json.RawMessage, depth int)
	walk = func(raw json.RawMessage, depth int) {
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Items      json.RawMessage            `json:"items"`
		}
		if json.Unmarshal(raw, &s) != nil {
			return
		}
		if len(s.Items) > 0 && depth <= 1 {
			walk(s.Items, depth)
		}
		for name, p := range s.Properties {
			var pd struct {
				Description string `json:"description"`
			}
			_ = json.Unmarshal(p, &pd)
			out = append(out, name, pd.Description)
			if depth < 1 {
				walk(p, depth+1)
			}
		}
	}
	if len(schema) > 0 {
		walk(schema, 0)
	}
	return out
}

// queryTerms are the query's distinct words, with the usual abbreviations
// written out as well.
func queryTerms(q string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, w := range words(q) {
		add(w)
		for _, x := range abbreviations[w] {
			add(x)
		}
	}
	return out
}

// abbreviations a user or a model writes for words tool catalogues spell
// out.
var abbreviations = map[string][]string{
	"pr":   {"pull", "request"},
	"mr":   {"merge", "request"},
	"repo": {"repository"},
	"dir":  {"directory"},
	"msg":  {"message"},
	"db":   {"database"},
	"ci":   {"workflow"},
}

// words splits s into lower-case, lightly stemmed words: on anything that
// is not a letter or digit (so snake_case, kebab-case, dotted and spaced
// names split) and at camelCase boundaries ("getTinyImage", "MCPServer").
// Stop words are dropped.
func words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 {
			w := stem(strings.ToLower(string(rs[start:end])))
			if !stopWords[w] {
				out = append(out, w)
			}
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return out
}

// stem folds the English plural endings tool descriptions use ("issues",
// "branches", "directories") onto the singular.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") ||
		strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "for": true,
	"in": true, "on": true, "and": true, "or": true, "with": true, "by": true,
	"from": true, "is": true, "it": true, "its": true, "this": true,
	"that": true, "be": true, "as": true, "at": true, "e": true, "g": true,
	"i": true, "me": true, "my": true, "some": true, "into": true,
	"mcp": true,
}
