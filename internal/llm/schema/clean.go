package schema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Dialect names the slice of JSON Schema one provider accepts for tool
// parameters.
type Dialect string

// Dialects. Sources: OpenAI function calling guide and the 400 bodies in
// case B31 (provider_errors.txt); Anthropic tool use docs (input_schema);
// Gemini FunctionDeclaration.parameters, "a select subset of an OpenAPI 3.0
// schema object" (google.golang.org/genai Schema).
const (
	// OpenAI is Chat Completions function tools without strict mode, and
	// every OpenAI-compatible server (llama.cpp, Ollama, vLLM, LM Studio).
	OpenAI Dialect = "openai"
	// Anthropic is the Messages API tool input_schema.
	Anthropic Dialect = "anthropic"
	// Gemini is the OpenAPI 3.0 subset of Gemini function declarations.
	Gemini Dialect = "gemini"
)

// Limits of Clean. Inlining $refs copies schemas, and a schema whose
// definitions fan out can grow exponentially; past these limits Clean
// fails and PrepareTools drops the tool.
const (
	// MaxNodes caps the JSON values (objects, arrays, scalars) added by
	// inlining $refs in one schema.
	MaxNodes = 20000
	// MaxRefDepth caps how many $refs may be expanded inside one another.
	MaxRefDepth = 32
)

// noiseKeys describe the schema document rather than the value; every
// provider either ignores or rejects them. $defs/definitions are gone once
// their $refs are inlined.
var noiseKeys = []string{"$schema", "$id", "$comment", "$anchor", "$dynamicAnchor",
	"$vocabulary", "title", "$defs", "definitions", "$dynamicRef", "$recursiveRef", "$recursiveAnchor"}

// Clean rewrites one tool's parameter schema into the given dialect and
// returns the compact JSON to send, plus one human-readable note per
// rewrite ("$.properties.range: inlined $ref \"#/$defs/Range\"").
//
// Every dialect: local $refs (JSON pointers into the same document, e.g.
// "#/$defs/X", "#/definitions/X", "#") are inlined, with a recursive
// reference cut to {"type": <its type>}; unresolvable refs become {};
// $schema/$id/title/$comment/$defs are dropped; const becomes a one-value
// enum with its JSON type; every array schema gets "items" ({} when
// unknown); the top level is made an object (top-level anyOf/oneOf/allOf of
// objects are merged and top-level not/enum/if dropped, since OpenAI and
// Anthropic reject them there).
//
// OpenAI additionally drops annotations (default, examples) and boolean
// additionalProperties. Gemini keeps only its OpenAPI subset (type, format,
// description, nullable, enum, items, properties, required, anyOf,
// pattern, min/max bounds, propertyOrdering): anyOf [X, null] becomes X
// plus "nullable": true, type lists become their first non-null type plus
// nullable, oneOf becomes anyOf, allOf is merged, anyOf branches that only
// add constraints ({"required": [...]}) are dropped, every schema gets a
// single type (unknown: "string") and loses keywords of other types, enums
// stay only on strings (others move into the description), and formats
// other than date-time/enum, int32/int64, float/double are dropped.
// OpenAIStrict is described at its constant.
//
// Key order follows the source, so output bytes are stable. An empty raw
// schema means "no parameters". Errors: invalid JSON, a top level that is
// not an object schema, a non-object schema where one is required, or the
// MaxNodes/MaxRefDepth limits.
func Clean(dialect Dialect, raw json.RawMessage) (json.RawMessage, []string, error) {
	switch dialect {
	case OpenAI, OpenAIStrict, Anthropic, Gemini:
	default:
		return nil, nil, fmt.Errorf("schema: unknown dialect %q", dialect)
	}
	if len(strings.TrimSpace(string(raw))) == 0 || strings.TrimSpace(string(raw)) == "null" {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	root, err := parse(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("schema: %w", err)
	}
	// The root is being expanded: a "#" ref inside it is recursive.
	c := &cleaner{d: dialect, orig: root.clone(), stack: []string{"#"}}
	if root.kind != kObject {
		return nil, nil, fmt.Errorf("schema: tool parameters must be a JSON object schema, got %s", kindName(root.kind))
	}
	out, err := c.schema(root, "$")
	if err != nil {
		return nil, c.notes, fmt.Errorf("schema: %w", err)
	}
	if err := c.topLevel(out); err != nil {
		return nil, c.notes, fmt.Errorf("schema: %w", err)
	}
	switch dialect {
	case OpenAI:
		c.openai(out, "$")
	case OpenAIStrict:
		c.openai(out, "$")
		if err := c.strict(out, "$"); err != nil {
			return nil, c.notes, fmt.Errorf("schema: %w", err)
		}
	case Gemini:
		c.gemini(out, "$")
	}
	if dialect != Gemini && !out.has("properties") {
		out.set("properties", emptyObject())
	}
	return json.RawMessage(out.bytes()), c.notes, nil
}

// cleaner holds the state of one Clean call.
type cleaner struct {
	d     Dialect
	orig  *node // the untouched source, for resolving $refs
	notes []string
	stack []string // $refs being expanded, for the cycle guard
	added int      // nodes added by inlining
}

func (c *cleaner) note(path, format string, args ...any) {
	c.notes = append(c.notes, path+": "+fmt.Sprintf(format, args...))
}

// schema is the dialect-neutral pass: it returns n with $refs inlined,
// noise dropped, const as enum, items on arrays, and every subschema an
// object.
func (c *cleaner) schema(n *node, path string) (*node, error) {
	switch n.kind {
	case kObject:
	case kBool:
		if !n.b {
			c.note(path, "replaced the false schema with {}")
		}
		return emptyObject(), nil
	default:
		return nil, fmt.Errorf("%s: a schema must be an object, got %s", path, kindName(n.kind))
	}
	if n.has("$ref") {
		return c.inline(n, path)
	}
	var dropped []string
	for _, k := range noiseKeys {
		if n.del(k) {
			dropped = append(dropped, k)
		}
	}
	if len(dropped) > 0 {
		c.note(path, "dropped %s", strings.Join(dropped, ", "))
	}
	if cv := n.get("const"); cv != nil {
		i := n.index("const")
		n.del("const")
		if !n.has("enum") {
			n.insertAt(i, "enum", arrayNode(cv))
		}
		if t := jsonType(cv); t != "" && !n.has("type") {
			n.setFront("type", strNode(t))
		}
		c.note(path, "const became a one-value enum")
	}
	c.fixItems(n, path)
	if r := n.get("required"); r != nil {
		if set := stringSet(r); len(set.arr) > 0 {
			n.set("required", set)
		} else {
			n.del("required") // empty, or draft-03 "required": true
		}
	}
	err := forEachSubschema(n, path, true, func(v *node, p string) (*node, error) {
		return c.schema(v, p)
	})
	return n, err
}

// fixItems makes sure an array schema says what it holds: a missing items
// becomes {}, a boolean one {}, and a draft-04 tuple list one schema.
func (c *cleaner) fixItems(n *node, path string) {
	items := n.get("items")
	switch {
	case items == nil && hasType(n, "array"):
		n.set("items", emptyObject())
		c.note(path, "added items {} to an array schema without items")
	case items == nil:
	case items.kind == kBool:
		n.set("items", emptyObject())
	case items.kind == kArray:
		switch len(items.arr) {
		case 0:
			n.set("items", emptyObject())
		case 1:
			n.set("items", items.arr[0])
		default:
			any := emptyObject()
			any.set("anyOf", arrayNode(items.arr...))
			n.set("items", any)
		}
		c.note(path, "tuple items became one items schema")
	}
}

// inline replaces a {"$ref": ...} schema by a copy of its target, with the
// ref's sibling keywords laid over it (they apply too, draft 2019-09).
func (c *cleaner) inline(n *node, path string) (*node, error) {
	refNode := n.get("$ref")
	n.del("$ref")
	if refNode.kind != kString {
		c.note(path, "dropped a $ref that is not a string")
		return c.schema(n, path)
	}
	ref := refNode.s
	target, ok := c.resolve(ref)
	var base *node
	expand := false
	switch {
	case !ok:
		c.note(path, "could not resolve $ref %q; sent as an unconstrained value", ref)
		base = emptyObject()
	case slices.Contains(c.stack, ref):
		c.note(path, "recursive $ref %q cut here", ref)
		base = emptyObject()
		if t := target.get("type"); t != nil && t.kind == kString {
			base.set("type", strNode(t.s))
		}
	case len(c.stack) >= MaxRefDepth:
		return nil, fmt.Errorf("%s: $refs nest deeper than %d", path, MaxRefDepth)
	default:
		base = target.clone()
		if base.kind != kObject {
			base = emptyObject()
		}
		c.added += base.size()
		if c.added > MaxNodes {
			return nil, fmt.Errorf("%s: schema grows past %d values when its $refs are inlined", path, MaxNodes)
		}
		c.note(path, "inlined $ref %q", ref)
		expand = true
	}
	for i, k := range n.keys {
		base.set(k, n.vals[i])
	}
	if expand {
		c.stack = append(c.stack, ref)
		defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	}
	return c.schema(base, path)
}

// resolve finds a local $ref in the source document: "#", "#/a/b" (JSON
// pointer, RFC 6901, percent-decoded as a URI fragment), optionally
// prefixed by the root's $id.
func (c *cleaner) resolve(ref string) (*node, bool) {
	if id := c.orig.str("$id"); id != "" && strings.HasPrefix(ref, id) {
		ref = strings.TrimPrefix(ref, id)
	}
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, false
	}
	cur := c.orig
	if frag == "" {
		return cur, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false // a named anchor; not supported
	}
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch cur.kind {
		case kObject:
			cur = cur.get(tok)
		case kArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.arr) {
				return nil, false
			}
			cur = cur.arr[i]
		default:
			return nil, false
		}
		if cur == nil {
			return nil, false
		}
	}
	return cur, true
}

// topLevel makes the root an object schema: providers take tool arguments
// only as an object, and OpenAI and Anthropic reject combinators at the
// top. Branches of a top-level anyOf/oneOf/allOf are merged (properties
// united; required united for allOf, intersected otherwise).
func (c *cleaner) topLevel(n *node) error {
	for _, comb := range []string{"allOf", "anyOf", "oneOf"} {
		v := n.get(comb)
		if v == nil || v.kind != kArray {
			continue
		}
		var req []string
		for i, b := range v.arr {
			if b.str("type") == "null" {
				continue
			}
			// A branch without a type only adds constraints to the object
			// ({"required": ["id"]} in "id or name"); it merges too.
			if t := b.str("type"); (t != "" && t != "object") || (b.has("type") && !hasType(b, "object")) {
				return fmt.Errorf("$: top-level %s branch %d is not an object schema", comb, i)
			}
			br := names(b.get("required"))
			switch {
			case comb == "allOf" || i == 0:
				req = union(req, br)
			default:
				req = intersect(req, br)
			}
			b.del("required")
			mergeInto(n, b, len(n.keys))
		}
		n.del(comb)
		if len(req) > 0 {
			n.set("required", stringsNode(union(names(n.get("required")), req)))
		}
		c.note("$", "merged top-level %s branches into one object", comb)
	}
	var dropped []string
	for _, k := range []string{"not", "enum", "if", "then", "else"} {
		if n.del(k) {
			dropped = append(dropped, k)
		}
	}
	if len(dropped) > 0 {
		c.note("$", "dropped top-level %s", strings.Join(dropped, ", "))
	}
	switch t := n.get("type"); {
	case t == nil:
		n.setFront("type", strNode("object"))
	case hasType(n, "object"):
		n.set("type", strNode("object"))
	default:
		return fmt.Errorf("$: tool parameters must be an object schema, got type %s", t.bytes())
	}
	return nil
}

// openai drops what OpenAI's function schema check trips on or does not
// use: annotations and boolean additionalProperties (case B31 expected
// form); schema-valued additionalProperties (maps) stay.
func (c *cleaner) openai(n *node, path string) {
	var dropped []string
	for _, k := range []string{"default", "examples"} {
		if n.del(k) {
			dropped = append(dropped, k)
		}
	}
	if ap := n.get("additionalProperties"); ap != nil && ap.kind == kBool {
		n.del("additionalProperties")
		dropped = append(dropped, "additionalProperties")
	}
	if len(dropped) > 0 {
		c.note(path, "dropped %s", strings.Join(dropped, ", "))
	}
	_ = forEachSubschema(n, path, false, func(v *node, p string) (*node, error) {
		c.openai(v, p)
		return v, nil
	})
}

// subschema keywords, by shape.
var (
	mapKeywords    = []string{"properties", "patternProperties", "dependentSchemas"}
	singleKeywords = []string{"additionalProperties", "unevaluatedProperties", "items", "additionalItems",
		"unevaluatedItems", "not", "if", "then", "else", "contains", "propertyNames"}
	listKeywords = []string{"anyOf", "oneOf", "allOf", "prefixItems"}
)

// forEachSubschema replaces every subschema of n by fn's result. Boolean
// values of single-schema keywords (additionalProperties: false) are left
// alone; in map and list positions every value is passed. With dropBad,
// keywords of the wrong JSON shape are removed (they would be rejected).
func forEachSubschema(n *node, path string, dropBad bool, fn func(*node, string) (*node, error)) error {
	var bad []string
	for i, k := range n.keys {
		v := n.vals[i]
		p := path + "." + k
		var err error
		switch {
		case slices.Contains(mapKeywords, k):
			if v.kind != kObject {
				bad = append(bad, k)
				continue
			}
			for j, name := range v.keys {
				if v.vals[j], err = fn(v.vals[j], p+"."+name); err != nil {
					return err
				}
			}
		case slices.Contains(singleKeywords, k):
			switch v.kind {
			case kObject:
				if n.vals[i], err = fn(v, p); err != nil {
					return err
				}
			case kBool:
			default:
				bad = append(bad, k)
			}
		case slices.Contains(listKeywords, k):
			if v.kind != kArray {
				bad = append(bad, k)
				continue
			}
			for j := range v.arr {
				if v.arr[j], err = fn(v.arr[j], p+"["+strconv.Itoa(j)+"]"); err != nil {
					return err
				}
			}
		}
	}
	if dropBad {
		for _, k := range bad {
			n.del(k)
		}
	}
	return nil
}

// hasType reports whether n's type is t or a list containing t.
func hasType(n *node, t string) bool {
	v := n.get("type")
	if v == nil {
		return false
	}
	if v.kind == kString {
		return v.s == t
	}
	if v.kind == kArray {
		for _, e := range v.arr {
			if e.kind == kString && e.s == t {
				return true
			}
		}
	}
	return false
}

// jsonType is the JSON Schema type of a value ("integer" for numbers
// without a fraction or exponent).
func jsonType(v *node) string {
	switch v.kind {
	case kNull:
		return "null"
	case kBool:
		return "boolean"
	case kString:
		return "string"
	case kNumber:
		if strings.ContainsAny(v.s, ".eE") {
			return "number"
		}
		return "integer"
	case kArray:
		return "array"
	case kObject:
		return "object"
	}
	return ""
}

func kindName(k kind) string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// mergeInto lays src's keywords into dst at position at: properties are
// united (dst wins), required united, other keywords only where dst has
// none.
func mergeInto(dst, src *node, at int) {
	for j, k := range src.keys {
		v := src.vals[j]
		switch cur := dst.get(k); {
		case cur == nil:
			dst.insertAt(at, k, v)
			at++
		case k == "properties" && cur.kind == kObject && v.kind == kObject:
			for pi, pk := range v.keys {
				if !cur.has(pk) {
					cur.set(pk, v.vals[pi])
				}
			}
		case k == "required":
			dst.set(k, stringsNode(union(names(cur), names(v))))
		}
	}
}

// names returns the strings of a JSON array node.
func names(n *node) []string {
	if n == nil || n.kind != kArray {
		return nil
	}
	var out []string
	for _, e := range n.arr {
		if e.kind == kString {
			out = append(out, e.s)
		}
	}
	return out
}

// stringSet returns n's strings without repeats, as an array node.
func stringSet(n *node) *node { return stringsNode(union(nil, names(n))) }

func stringsNode(ss []string) *node {
	out := &node{kind: kArray, arr: []*node{}}
	for _, s := range ss {
		out.arr = append(out.arr, strNode(s))
	}
	return out
}

func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func intersect(a, b []string) []string {
	var out []string
	for _, s := range a {
		if slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}
