package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// cleanCase is one rewrite: the input schema, the exact compact output per
// dialect (key order included), and a note the rewrite must log.
type cleanCase struct {
	name string
	in   string
	want map[Dialect]string
	note string // substring of one note
	// noteIn lists the dialects that must log note; nil means all listed.
	noteIn []Dialect
}

var cleanCases = []cleanCase{
	{
		name: "inline $defs ref, sibling description wins",
		in:   `{"type":"object","properties":{"r":{"$ref":"#/$defs/R","description":"the range"}},"$defs":{"R":{"type":"object","description":"R def","properties":{"a":{"type":"string"}}}}}`,
		want: map[Dialect]string{
			OpenAI:    `{"type":"object","properties":{"r":{"type":"object","description":"the range","properties":{"a":{"type":"string"}}}}}`,
			Anthropic: `{"type":"object","properties":{"r":{"type":"object","description":"the range","properties":{"a":{"type":"string"}}}}}`,
			Gemini:    `{"type":"object","properties":{"r":{"type":"object","description":"the range","properties":{"a":{"type":"string"}}}}}`,
		},
		note: `$.properties.r: inlined $ref "#/$defs/R"`,
	},
	{
		name: "draft-04 definitions and a ref chain",
		in:   `{"type":"object","properties":{"a":{"$ref":"#/definitions/A"}},"definitions":{"A":{"$ref":"#/definitions/B"},"B":{"type":"integer","minimum":1}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"a":{"type":"integer","minimum":1}}}`,
			Gemini: `{"type":"object","properties":{"a":{"type":"integer","minimum":1}}}`,
		},
		note: `inlined $ref "#/definitions/B"`,
	},
	{
		name: "recursive definition is cut at the second visit",
		in:   `{"type":"object","properties":{"node":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`,
		want: map[Dialect]string{
			OpenAI:    `{"type":"object","properties":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"type":"object"}}}}}}`,
			Anthropic: `{"type":"object","properties":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"type":"object"}}}}}}`,
			Gemini:    `{"type":"object","properties":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"type":"object"}}}}}}`,
		},
		note: `recursive $ref "#/$defs/Node" cut here`,
	},
	{
		name: "reference to the root is recursive",
		in:   `{"type":"object","properties":{"self":{"$ref":"#"}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"self":{"type":"object"}}}`,
		},
		note: `recursive $ref "#"`,
	},
	{
		name: "unresolvable ref becomes an unconstrained value",
		in:   `{"type":"object","properties":{"x":{"$ref":"other.json#/X","description":"d"},"y":{"$ref":"#/$defs/Missing"}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"x":{"description":"d"},"y":{}}}`,
			Gemini: `{"type":"object","properties":{"x":{"type":"string","description":"d"},"y":{"type":"string"}}}`,
		},
		note: `could not resolve $ref "other.json#/X"`,
	},
	{
		name: "JSON pointer escapes in refs",
		in:   `{"type":"object","properties":{"a":{"$ref":"#/$defs/a~1b"},"b":{"$ref":"#/%24defs/a~1b"},"c":{"$ref":"urn:t#/$defs/t~0"}},"$id":"urn:t","$defs":{"a/b":{"type":"boolean"},"t~":{"type":"number"}}}`,
		want: map[Dialect]string{
			Anthropic: `{"type":"object","properties":{"a":{"type":"boolean"},"b":{"type":"boolean"},"c":{"type":"number"}}}`,
		},
	},
	{
		name: "document noise dropped, a property named title kept",
		in:   `{"$schema":"http://json-schema.org/draft-07/schema#","$id":"urn:x","title":"T","$comment":"c","type":"object","properties":{"title":{"type":"string","title":"Title"}}}`,
		want: map[Dialect]string{
			OpenAI:    `{"type":"object","properties":{"title":{"type":"string"}}}`,
			Anthropic: `{"type":"object","properties":{"title":{"type":"string"}}}`,
			Gemini:    `{"type":"object","properties":{"title":{"type":"string"}}}`,
		},
		note: `$: dropped $schema, $id, $comment, title`,
	},
	{
		name: "arrays get items",
		in:   `{"type":"object","properties":{"ids":{"type":"array"},"tags":{"type":["array","null"]},"any":{"type":"array","items":true}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"ids":{"type":"array","items":{}},"tags":{"type":["array","null"],"items":{}},"any":{"type":"array","items":{}}}}`,
			Gemini: `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}},"tags":{"type":"array","items":{"type":"string"},"nullable":true},"any":{"type":"array","items":{"type":"string"}}}}`,
		},
		note: `$.properties.ids: added items {}`,
	},
	{
		name: "tuple items become one schema",
		in:   `{"type":"object","properties":{"pt":{"type":"array","items":[{"type":"number"},{"type":"number"}]},"one":{"type":"array","items":[{"type":"string"}]}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"pt":{"type":"array","items":{"anyOf":[{"type":"number"},{"type":"number"}]}},"one":{"type":"array","items":{"type":"string"}}}}`,
		},
		note: `tuple items became one items schema`,
	},
	{
		name: "const becomes a typed one-value enum",
		in:   `{"type":"object","properties":{"s":{"const":"fast"},"n":{"const":3},"f":{"const":1.5,"description":"x"},"b":{"type":"boolean","const":true}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"s":{"type":"string","enum":["fast"]},"n":{"type":"integer","enum":[3]},"f":{"type":"number","enum":[1.5],"description":"x"},"b":{"type":"boolean","enum":[true]}}}`,
			Gemini: `{"type":"object","properties":{"s":{"type":"string","enum":["fast"]},"n":{"type":"integer","description":"One of: 3."},"f":{"type":"number","description":"x One of: 1.5."},"b":{"type":"boolean","description":"One of: true."}}}`,
		},
		note: `const became a one-value enum`,
	},
	{
		name: "Optional[Model] from pydantic: anyOf ref and null",
		in:   `{"type":"object","properties":{"r":{"anyOf":[{"$ref":"#/$defs/R"},{"type":"null"}],"default":null,"description":"maybe"}},"$defs":{"R":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false}}}`,
		want: map[Dialect]string{
			OpenAI:    `{"type":"object","properties":{"r":{"anyOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},{"type":"null"}],"description":"maybe"}}}`,
			Anthropic: `{"type":"object","properties":{"r":{"anyOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false},{"type":"null"}],"default":null,"description":"maybe"}}}`,
			Gemini:    `{"type":"object","properties":{"r":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"description":"maybe","nullable":true}}}`,
		},
	},
	{
		name: "Gemini type lists become one type",
		in:   `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":["integer","string"]},"c":{"type":"null"}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":["integer","string"]},"c":{"type":"null"}}}`,
			Gemini: `{"type":"object","properties":{"a":{"type":"string","nullable":true},"b":{"type":"integer"},"c":{"type":"string","nullable":true}}}`,
		},
	},
	{
		name: "Gemini oneOf becomes anyOf, nullable anyOf keeps the rest",
		in:   `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]},"w":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]},"w":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}}}`,
			Gemini: `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]},"w":{"anyOf":[{"type":"string"},{"type":"integer"}],"nullable":true}}}`,
		},
		note:   `anyOf`,
		noteIn: []Dialect{Gemini},
	},
	{
		name: "Gemini merges allOf",
		in:   `{"type":"object","properties":{"p":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"number"}},"required":["b"]}],"description":"both"}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"p":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"number"}},"required":["b"]}],"description":"both"}}}`,
			Gemini: `{"type":"object","properties":{"p":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}},"required":["a","b"],"description":"both"}}}`,
		},
	},
	{
		name: "Gemini drops what OpenAPI 3.0 lacks and unknown formats",
		in:   `{"type":"object","properties":{"u":{"type":"string","format":"uri","default":"x","examples":["a"]},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64","exclusiveMinimum":0},"m":{"type":"object","additionalProperties":{"type":"string"},"patternProperties":{"^x":{"type":"string"}}}},"additionalProperties":false}`,
		want: map[Dialect]string{
			OpenAI:    `{"type":"object","properties":{"u":{"type":"string","format":"uri"},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64","exclusiveMinimum":0},"m":{"type":"object","additionalProperties":{"type":"string"},"patternProperties":{"^x":{"type":"string"}}}}}`,
			Anthropic: `{"type":"object","properties":{"u":{"type":"string","format":"uri","default":"x","examples":["a"]},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64","exclusiveMinimum":0},"m":{"type":"object","additionalProperties":{"type":"string"},"patternProperties":{"^x":{"type":"string"}}}},"additionalProperties":false}`,
			Gemini:    `{"type":"object","properties":{"u":{"type":"string"},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64"},"m":{"type":"object"}}}`,
		},
		note:   `$.properties.u: dropped`,
		noteIn: []Dialect{OpenAI, Gemini},
	},
	{
		name: "Gemini keeps only required names that have a property",
		in:   `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","ghost","a"]}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","ghost"]}`,
			Gemini: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
		},
	},
	{
		name: "boolean subschemas become objects",
		in:   `{"type":"object","properties":{"never":false,"any":true}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"never":{},"any":{}}}`,
			Gemini: `{"type":"object","properties":{"never":{"type":"string"},"any":{"type":"string"}}}`,
		},
		note: `$.properties.never: replaced the false schema with {}`,
	},
	{
		name: "empty schema means no parameters",
		in:   ``,
		want: map[Dialect]string{
			OpenAI:    `{"type":"object","properties":{}}`,
			Anthropic: `{"type":"object","properties":{}}`,
			Gemini:    `{"type":"object"}`,
		},
	},
	{
		name: "top level without type is an object",
		in:   `{"properties":{"a":{"type":"string"}}}`,
		want: map[Dialect]string{
			Anthropic: `{"type":"object","properties":{"a":{"type":"string"}}}`,
		},
	},
	{
		name: "top level type list with null is an object",
		in:   `{"type":["object","null"],"properties":{}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{}}`,
			Gemini: `{"type":"object"}`,
		},
	},
	{
		name: "top-level anyOf of objects is merged",
		in:   `{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a","c"]},{"type":"object","properties":{"b":{"type":"string"}},"required":["c"]}]}`,
		want: map[Dialect]string{
			OpenAI:    `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["c"]}`,
			Anthropic: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["c"]}`,
			Gemini:    `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}`,
		},
		note: `$: merged top-level anyOf branches into one object`,
	},
	{
		name: "top-level either-of-two-fields constraint is merged away",
		in:   `{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}},"anyOf":[{"required":["id"]},{"required":["name"]}],"not":{"required":["x"]}}`,
		want: map[Dialect]string{
			OpenAI:       `{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}}}`,
			Anthropic:    `{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}}}`,
			Gemini:       `{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string"}}}`,
			OpenAIStrict: `{"type":"object","properties":{"id":{"type":["string","null"]},"name":{"type":["string","null"]}},"required":["id","name"],"additionalProperties":false}`,
		},
		note: "$: dropped top-level not",
	},
	{
		name: "nested either-of-two-fields constraint",
		in:   `{"type":"object","properties":{"who":{"type":"object","properties":{"id":{"type":"string"}},"anyOf":[{"required":["id"]},{"type":"null"}]}},"required":["who"]}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"who":{"type":"object","properties":{"id":{"type":"string"}},"anyOf":[{"required":["id"]},{"type":"null"}]}},"required":["who"]}`,
			Gemini: `{"type":"object","properties":{"who":{"type":"object","properties":{"id":{"type":"string"}},"nullable":true}},"required":["who"]}`,
		},
		note:   "$.properties.who: dropped anyOf branches that only add constraints",
		noteIn: []Dialect{Gemini},
	},
	{
		name: "malformed keywords are dropped",
		in:   `{"type":"object","properties":[],"required":true,"items":"x"}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{}}`,
		},
	},
	{
		name: "HTML characters stay readable",
		in:   `{"type":"object","properties":{"q":{"type":"string","description":"a <b> & c"}}}`,
		want: map[Dialect]string{
			OpenAI: `{"type":"object","properties":{"q":{"type":"string","description":"a <b> & c"}}}`,
		},
	},
}

func TestClean(t *testing.T) {
	for _, tc := range cleanCases {
		for d, want := range tc.want {
			t.Run(tc.name+"/"+string(d), func(t *testing.T) {
				got, notes, err := Clean(d, json.RawMessage(tc.in))
				if err != nil {
					t.Fatalf("Clean: %v", err)
				}
				if string(got) != want {
					t.Errorf("got\n%s\nwant\n%s\nnotes %q", got, want, notes)
				}
				if err := checkDialect(d, got); err != nil {
					t.Errorf("output breaks the %s rules: %v", d, err)
				}
				if tc.note != "" && (tc.noteIn == nil || slices.Contains(tc.noteIn, d)) && !strings.Contains(strings.Join(notes, "\n"), tc.note) {
					t.Errorf("notes lack %q: %q", tc.note, notes)
				}
				// Cleaning is idempotent: the cleaned copy is already clean.
				again, _, err := Clean(d, got)
				if err != nil || !bytes.Equal(again, got) {
					t.Errorf("second Clean changed the schema (err %v):\n%s", err, again)
				}
			})
		}
	}
}

func TestCleanStrict(t *testing.T) {
	tests := []struct {
		name, in, want, note string
	}{
		{
			name: "optional properties become required and nullable, objects closed",
			in:   `{"type":"object","properties":{"path":{"type":"string","minLength":1},"limit":{"type":"integer"},"mode":{"enum":["a","b"]},"opts":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"]},"tags":{"type":"array","items":{"type":"string"}},"when":{"type":"string","format":"date-time"},"site":{"type":"string","format":"uri"}},"required":["path","when","site"]}`,
			want: `{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":["integer","null"]},"mode":{"type":["string","null"],"enum":["a","b",null]},"opts":{"type":["object","null"],"properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false},"tags":{"type":["array","null"],"items":{"type":"string"}},"when":{"type":"string","format":"date-time"},"site":{"type":"string"}},"required":["path","limit","mode","opts","tags","when","site"],"additionalProperties":false}`,
			note: "$.properties.limit: optional property made required and nullable",
		},
		{
			name: "optional anyOf gains a null branch; oneOf and allOf rewritten",
			in:   `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]},"w":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"string"}}}]}},"required":["w"]}`,
			want: `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]},"w":{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":["string","null"]}},"required":["a","b"],"additionalProperties":false}},"required":["v","w"],"additionalProperties":false}`,
			note: "$.properties.v: oneOf became anyOf",
		},
		{
			name: "empty parameters",
			in:   ``,
			want: `{"type":"object","properties":{},"required":[],"additionalProperties":false}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, notes, err := Clean(OpenAIStrict, json.RawMessage(tc.in))
			if err != nil {
				t.Fatalf("Clean: %v", err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if err := checkDialect(OpenAIStrict, got); err != nil {
				t.Errorf("output breaks strict rules: %v", err)
			}
			if tc.note != "" && !strings.Contains(strings.Join(notes, "\n"), tc.note) {
				t.Errorf("notes lack %q: %q", tc.note, notes)
			}
		})
	}
	// What strict mode cannot say fails, so the caller sends the tool
	// without strict. Case B31's untyped "ids" items is one such schema.
	b31 := b31Tools(t)[0].Parameters
	for _, tc := range []struct{ in, want string }{
		{string(b31), "$.properties.ids.items: strict mode needs a type"},
		{`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`, "$.properties.m: strict mode cannot express a map"},
		{`{"type":"object","patternProperties":{"^x":{"type":"string"}}}`, "$: strict mode cannot express patternProperties"},
	} {
		if got, _, err := Clean(OpenAIStrict, json.RawMessage(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Clean(strict, %s) = %s, %v; want error %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCleanErrors(t *testing.T) {
	// fan builds definitions D0..Dn where each refers to the previous one
	// twice, so inlining doubles the size at every level.
	fan := func(n int) string {
		var defs []string
		defs = append(defs, `"D0":{"type":"string"}`)
		for i := 1; i <= n; i++ {
			defs = append(defs, fmt.Sprintf(`"D%d":{"type":"object","properties":{"l":{"$ref":"#/$defs/D%d"},"r":{"$ref":"#/$defs/D%d"}}}`, i, i-1, i-1))
		}
		return fmt.Sprintf(`{"type":"object","properties":{"x":{"$ref":"#/$defs/D%d"}},"$defs":{%s}}`, n, strings.Join(defs, ","))
	}
	// chain builds n distinct definitions, each a $ref-holding object
	// property of the next.
	chain := func(n int) string {
		var defs []string
		for i := 0; i < n; i++ {
			defs = append(defs, fmt.Sprintf(`"C%d":{"type":"object","properties":{"n":{"$ref":"#/$defs/C%d"}}}`, i, i+1))
		}
		defs = append(defs, fmt.Sprintf(`"C%d":{"type":"string"}`, n))
		return fmt.Sprintf(`{"type":"object","properties":{"x":{"$ref":"#/$defs/C0"}},"$defs":{%s}}`, strings.Join(defs, ","))
	}
	tests := []struct {
		name, in string
		dialect  Dialect
		want     string
	}{
		{"invalid JSON", `{"type":"object",`, OpenAI, "invalid JSON"},
		{"trailing data", `{"type":"object"} {}`, OpenAI, "data after the top-level value"},
		{"top level array", `[]`, OpenAI, "must be a JSON object schema, got array"},
		{"top level string type", `{"type":"string"}`, Anthropic, `must be an object schema, got type "string"`},
		{"top-level anyOf of scalars", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, Gemini, "top-level anyOf branch 0 is not an object schema"},
		{"property schema is a string", `{"type":"object","properties":{"a":"string"}}`, Gemini, "$.properties.a: a schema must be an object, got string"},
		{"exponential inlining", fan(20), OpenAI, fmt.Sprintf("past %d values", MaxNodes)},
		{"ref chain too deep", chain(MaxRefDepth + 5), OpenAI, fmt.Sprintf("deeper than %d", MaxRefDepth)},
		{"unknown dialect", `{}`, Dialect("cohere"), `unknown dialect "cohere"`},
		{"nesting too deep", strings.Repeat(`{"not":`, 600) + `{}` + strings.Repeat(`}`, 600), OpenAI, "deeper than 512"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := Clean(tc.dialect, json.RawMessage(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Clean = %s, %v; want error containing %q", got, err, tc.want)
			}
		})
	}
	// Within the limits the same shapes clean fine.
	for _, in := range []string{fan(8), chain(MaxRefDepth - 2)} {
		if _, _, err := Clean(OpenAI, json.RawMessage(in)); err != nil {
			t.Errorf("Clean within limits: %v", err)
		}
	}
}
