package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// shapeGen builds a JSON Schema from fuzz bytes, choosing among the
// keywords the cleaner rewrites, so the fuzzer explores schema shapes
// rather than JSON syntax.
type shapeGen struct {
	data []byte
	pos  int
}

func (g *shapeGen) next(n int) int {
	if g.pos >= len(g.data) || n <= 0 {
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return int(b) % n
}

var (
	shapeTypes  = []string{`"string"`, `"integer"`, `"number"`, `"boolean"`, `"array"`, `"object"`, `"null"`, `["string","null"]`, `["array","null"]`, `["integer","string"]`, `"any"`}
	shapeRefs   = []string{`"#/$defs/A"`, `"#/$defs/B"`, `"#"`, `"#/$defs/Missing"`, `"#/properties/p0"`, `"other.json"`, `7`}
	shapeScalar = []string{`"x"`, `1`, `2.5`, `true`, `null`, `{}`, `[]`}
)

func (g *shapeGen) schema(depth int) string {
	if depth > 4 {
		return `{"type":"string"}`
	}
	switch g.next(12) {
	case 0:
		return `true`
	case 1:
		return `false`
	}
	var kv []string
	for i, n := 0, g.next(5); i < n; i++ {
		switch g.next(17) {
		case 0:
			kv = append(kv, `"type":`+shapeTypes[g.next(len(shapeTypes))])
		case 1:
			var props []string
			for j, m := 0, g.next(4); j < m; j++ {
				props = append(props, fmt.Sprintf(`"p%d":%s`, j, g.schema(depth+1)))
			}
			kv = append(kv, `"properties":{`+strings.Join(props, ",")+`}`)
		case 2:
			kv = append(kv, `"items":`+g.schema(depth+1))
		case 3:
			kv = append(kv, `"items":[`+g.schema(depth+1)+`,`+g.schema(depth+1)+`]`)
		case 4, 5:
			comb := []string{"anyOf", "oneOf", "allOf"}[g.next(3)]
			br := []string{g.schema(depth + 1)}
			if g.next(2) == 0 {
				br = append(br, `{"type":"null"}`)
			} else {
				br = append(br, g.schema(depth+1))
			}
			kv = append(kv, `"`+comb+`":[`+strings.Join(br, ",")+`]`)
		case 6:
			kv = append(kv, `"$ref":`+shapeRefs[g.next(len(shapeRefs))])
		case 7:
			kv = append(kv, `"const":`+shapeScalar[g.next(len(shapeScalar))])
		case 8:
			kv = append(kv, `"enum":[`+shapeScalar[g.next(len(shapeScalar))]+`,`+shapeScalar[g.next(len(shapeScalar))]+`]`)
		case 9:
			kv = append(kv, `"additionalProperties":`+g.schema(depth+1))
		case 10:
			kv = append(kv, `"required":["p0","ghost"]`)
		case 11:
			kv = append(kv, `"format":`+[]string{`"date-time"`, `"uri"`, `"int64"`, `"float"`, `3`}[g.next(5)])
		case 12:
			kv = append(kv, `"default":null`, `"title":"T"`, `"examples":[1]`)
		case 13:
			kv = append(kv, `"nullable":true`)
		case 14:
			kv = append(kv, `"patternProperties":{"^x":`+g.schema(depth+1)+`}`)
		case 15:
			kv = append(kv, `"minItems":1`, `"maxLength":-1`, `"minimum":"0"`)
		case 16:
			kv = append(kv, `"description":`+shapeScalar[g.next(len(shapeScalar))])
		}
	}
	return `{` + strings.Join(kv, ",") + `}`
}

// FuzzCleanShapes cleans generated schemas for every dialect: no panic,
// valid JSON that keeps the dialect's rules, and cleaning the output again
// changes nothing.
func FuzzCleanShapes(f *testing.F) {
	for _, seed := range []string{"", "\x05\x01\x03\x06\x02", "\x04\x04\x05\x06\x00\x07\x01", "\x02\x03\x09\x09\x01\x01\x06\x03"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &shapeGen{data: data}
		root := g.schema(0)
		doc := fmt.Sprintf(`{"type":"object","properties":{"p0":%s,"p1":%s},"$defs":{"A":%s,"B":%s}}`,
			root, g.schema(1), g.schema(1), g.schema(1))
		if !json.Valid([]byte(doc)) {
			t.Fatalf("generator made invalid JSON: %s", doc)
		}
		for _, d := range []Dialect{OpenAI, OpenAIStrict, Anthropic, Gemini} {
			out, _, err := Clean(d, json.RawMessage(doc))
			if err != nil {
				continue
			}
			if err := checkDialect(d, out); err != nil {
				t.Fatalf("%s: %v\nin:  %s\nout: %s", d, err, doc, out)
			}
			again, _, err := Clean(d, out)
			if err != nil || !bytes.Equal(again, out) {
				t.Fatalf("%s: not idempotent (err %v)\nin:    %s\nout:   %s\nagain: %s", d, err, doc, out, again)
			}
		}
	})
}
