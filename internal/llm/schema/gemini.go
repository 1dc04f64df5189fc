package schema

import (
	"slices"
	"strings"
)

// geminiKeys are the schema fields Gemini function declarations accept
// (google.golang.org/genai Schema, an OpenAPI 3.0 subset), less title,
// default and example, which case B31 says to drop. Anything else is
// rejected with "Unknown name ... Cannot find field".
var geminiKeys = []string{"type", "format", "description", "nullable", "enum", "items", "properties",
	"required", "anyOf", "minItems", "maxItems", "minLength", "maxLength", "pattern", "minimum",
	"maximum", "minProperties", "maxProperties", "propertyOrdering"}

// geminiTypes are the OpenAPI types Gemini knows.
var geminiTypes = []string{"string", "number", "integer", "boolean", "array", "object"}

// geminiFormats lists the formats Gemini accepts per type; others are
// rejected or ignored, so they are dropped.
var geminiFormats = map[string][]string{
	"string":  {"enum", "date-time"},
	"integer": {"int32", "int64"},
	"number":  {"float", "double"},
}

// gemini rewrites n (already free of $refs) into Gemini's subset, top
// down: combinators first, so a branch spliced into n is rewritten as part
// of n.
func (c *cleaner) gemini(n *node, path string) {
	for c.geminiCombinators(n, path) { // each step removes a combinator or a branch, so this ends
	}
	c.geminiType(n, path)
	var dropped []string
	for i := 0; i < len(n.keys); {
		if k := n.keys[i]; !slices.Contains(geminiKeys, k) || !shapeOK(k, n.vals[i]) {
			dropped = append(dropped, k)
			n.del(k)
			continue
		}
		i++
	}
	if len(dropped) > 0 {
		c.note(path, "dropped %s (not in Gemini's schema subset)", strings.Join(dropped, ", "))
	}
	_ = forEachSubschema(n, path, true, func(v *node, p string) (*node, error) {
		if v.kind != kObject {
			v = emptyObject()
		}
		c.gemini(v, p)
		return v, nil
	})
	c.geminiEnum(n, path)
	c.geminiInferType(n, path)
	c.dropForeign(n, path)
	c.geminiFormat(n, path)
	if hasType(n, "array") && !n.has("items") {
		n.set("items", objectWithType("string"))
		c.note(path, "added items of type string")
	}
	if p := n.get("properties"); p != nil && len(p.keys) == 0 {
		n.del("properties")
	}
	if r := n.get("required"); r != nil {
		props := n.get("properties")
		var keep []string
		for _, name := range names(r) {
			if props.has(name) {
				keep = append(keep, name)
			}
		}
		if len(keep) == 0 {
			n.del("required")
		} else if len(keep) < len(r.arr) {
			n.set("required", stringsNode(keep))
			c.note(path, "dropped required names that have no property")
		}
	}
}

// geminiCombinators merges allOf, turns oneOf into anyOf, and takes null
// branches out of anyOf as nullable, splicing a single remaining branch
// into n. It reports whether it changed n.
func (c *cleaner) geminiCombinators(n *node, path string) bool {
	if v := n.get("allOf"); v != nil && v.kind == kArray {
		at := n.index("allOf")
		n.del("allOf")
		for _, b := range v.arr {
			if b.kind == kObject {
				mergeInto(n, b, at)
				at = min(len(n.keys), at+len(b.keys))
			}
		}
		c.note(path, "merged allOf")
		return true
	}
	if v := n.get("oneOf"); v != nil {
		if n.has("anyOf") {
			n.del("oneOf")
			c.note(path, "dropped oneOf beside anyOf")
		} else {
			n.keys[n.index("oneOf")] = "anyOf"
			c.note(path, "oneOf became anyOf")
		}
		return true
	}
	v := n.get("anyOf")
	if v == nil || v.kind != kArray {
		return false
	}
	if dropConstraintBranches(n) {
		c.note(path, "dropped anyOf branches that only add constraints")
		return true
	}
	var keep []*node
	nullable := false
	for _, b := range v.arr {
		if isNullSchema(b) {
			nullable = true
		} else {
			keep = append(keep, b)
		}
	}
	if nullable {
		n.set("nullable", boolNode(true))
	}
	switch len(keep) {
	case 0:
		n.del("anyOf")
	case 1:
		if keep[0].kind == kObject {
			n.splice("anyOf", keep[0])
		} else {
			n.del("anyOf")
		}
	default:
		if !nullable {
			return false
		}
		v.arr = keep
	}
	if nullable {
		c.note(path, "anyOf with null became nullable")
	}
	return true
}

// isNullSchema reports whether b admits only null.
func isNullSchema(b *node) bool {
	if b.kind != kObject {
		return false
	}
	t := b.get("type")
	if t == nil {
		return false
	}
	if t.kind == kString {
		return t.s == "null"
	}
	return t.kind == kArray && len(t.arr) == 1 && t.arr[0].kind == kString && t.arr[0].s == "null"
}

// geminiType leaves one type: a list becomes its first non-null member
// plus nullable; "null" alone becomes nullable.
func (c *cleaner) geminiType(n *node, path string) {
	t := n.get("type")
	if t == nil {
		return
	}
	var types []string
	switch t.kind {
	case kString:
		types = []string{t.s}
	case kArray:
		types = names(t)
	}
	first, nullable := "", false
	for _, s := range types {
		if s == "null" {
			nullable = true
		} else if first == "" {
			first = s
		}
	}
	if nullable {
		n.set("nullable", boolNode(true))
	}
	switch {
	case first == "":
		n.del("type")
	case t.kind != kString || first != t.s:
		n.set("type", strNode(first))
	default:
		return
	}
	if t.kind == kArray {
		c.note(path, "type list became type %q", first)
	}
}

// geminiEnum keeps enums only where Gemini takes them: string values on a
// string schema. Null members become nullable; other enums move into the
// description so the model still sees the allowed values.
func (c *cleaner) geminiEnum(n *node, path string) {
	e := n.get("enum")
	if e == nil {
		return
	}
	var vals []*node
	allStrings := true
	for _, v := range e.arr {
		if v.kind == kNull {
			n.set("nullable", boolNode(true))
			continue
		}
		if v.kind != kString {
			allStrings = false
		}
		vals = append(vals, v)
	}
	t := n.str("type")
	switch {
	case len(vals) == 0:
		n.del("enum")
	case allStrings && (t == "" || t == "string"):
		if len(vals) < len(e.arr) {
			n.set("enum", arrayNode(vals...))
		}
		if t == "" {
			n.setFront("type", strNode("string"))
		}
	default:
		var texts []string
		for _, v := range vals {
			texts = append(texts, string(v.bytes()))
		}
		desc := strings.TrimSpace(n.str("description") + " One of: " + strings.Join(texts, ", ") + ".")
		n.del("enum")
		n.set("description", strNode(desc))
		c.note(path, "non-string enum moved into the description")
	}
}

// geminiInferType gives a typeless schema the type its keywords imply;
// Gemini has no "any", so an unconstrained value is sent as a string.
func (c *cleaner) geminiInferType(n *node, path string) {
	t := n.str("type")
	if t != "" && slices.Contains(geminiTypes, t) {
		return
	}
	if t == "" && n.has("anyOf") {
		return
	}
	inferred := "string"
	switch {
	case n.has("properties"):
		inferred = "object"
	case n.has("items"):
		inferred = "array"
	}
	n.setFront("type", strNode(inferred))
	if t != "" {
		c.note(path, "type %q is not a Gemini type; sent as %q", t, inferred)
	} else if inferred == "string" {
		c.note(path, "schema without a type sent as a string")
	}
}

// geminiFormat drops formats Gemini does not accept for the schema's type.
func (c *cleaner) geminiFormat(n *node, path string) {
	f := n.str("format")
	if f == "" {
		return
	}
	if !slices.Contains(geminiFormats[n.str("type")], f) {
		n.del("format")
		c.note(path, "dropped format %q", f)
	}
}

// shapeOK reports whether a keyword has the JSON shape the APIs expect
// (Gemini's proto, OpenAI strict); a wrong shape is rejected.
func shapeOK(k string, v *node) bool {
	switch k {
	case "type":
		return v.kind == kString || v.kind == kArray
	case "format", "description", "pattern":
		return v.kind == kString
	case "nullable":
		return v.kind == kBool
	case "enum", "required", "propertyOrdering", "anyOf":
		return v.kind == kArray
	case "items", "properties":
		return v.kind == kObject
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		return v.kind == kNumber
	case "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties":
		return v.kind == kNumber && !strings.ContainsAny(v.s, ".eE-")
	}
	return true
}

func objectWithType(t string) *node {
	n := emptyObject()
	n.set("type", strNode(t))
	return n
}

// dropForeign removes keywords that only apply to another type (properties
// on a string, items on an object): Gemini and strict mode reject them.
func (c *cleaner) dropForeign(n *node, path string) {
	var dropped []string
	if !hasType(n, "object") {
		for _, k := range []string{"properties", "required", "additionalProperties", "minProperties", "maxProperties", "propertyOrdering"} {
			if n.del(k) {
				dropped = append(dropped, k)
			}
		}
	}
	if !hasType(n, "array") {
		for _, k := range []string{"items", "minItems", "maxItems"} {
			if n.del(k) {
				dropped = append(dropped, k)
			}
		}
	}
	if len(dropped) > 0 {
		c.note(path, "dropped %s (not for type %s)", strings.Join(dropped, ", "), n.get("type").bytesOr("none"))
	}
}

// dropConstraintBranches removes anyOf branches that name no type of their
// own when n has one ({"type": "object", "anyOf": [{"required": ["id"]},
// {"required": ["name"]}]}): typed-schema dialects would read such a branch
// as "any value". It reports whether it changed n.
func dropConstraintBranches(n *node) bool {
	v := n.get("anyOf")
	if v == nil || v.kind != kArray || !n.has("type") {
		return false
	}
	var keep []*node
	for _, b := range v.arr {
		if b.kind != kObject || b.has("type") || b.has("properties") || b.has("items") || b.has("enum") || b.has("anyOf") || b.has("oneOf") || b.has("allOf") {
			keep = append(keep, b)
		}
	}
	if len(keep) == len(v.arr) {
		return false
	}
	if len(keep) == 0 {
		n.del("anyOf")
	} else {
		v.arr = keep
	}
	return true
}
