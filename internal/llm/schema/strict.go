package schema

import (
	"fmt"
	"slices"
	"strings"
)

// OpenAIStrict is OpenAI function tools with "strict": true (Structured
// Outputs): every object closed with additionalProperties false, every
// property required (optional ones made nullable instead), every schema
// typed. A schema strict mode cannot express (a map, an untyped value)
// fails to clean; send that tool without strict instead. Source: OpenAI
// Structured Outputs guide, "Supported schemas".
const OpenAIStrict Dialect = "openai-strict"

// strictKeys are the keywords strict mode accepts; others are dropped (the
// raw schema still validates arguments, so a dropped constraint is only a
// weaker hint to the model).
var strictKeys = []string{"type", "description", "properties", "required", "additionalProperties", "items",
	"enum", "anyOf", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"multipleOf", "minItems", "maxItems"}

// strictFormats are the string formats strict mode accepts.
var strictFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// strict rewrites n, already through the OpenAI pass, into strict form.
func (c *cleaner) strict(n *node, path string) error {
	for c.strictCombinators(n, path) { // each step removes a combinator or a branch
	}
	if pp := n.get("patternProperties"); pp != nil && len(pp.keys) > 0 {
		return fmt.Errorf("%s: strict mode cannot express patternProperties", path)
	}
	if ap := n.get("additionalProperties"); ap != nil && ap.kind == kObject {
		return fmt.Errorf("%s: strict mode cannot express a map (additionalProperties with a schema)", path)
	}
	var dropped []string
	for i := 0; i < len(n.keys); {
		if k := n.keys[i]; !slices.Contains(strictKeys, k) {
			dropped = append(dropped, k)
			n.del(k)
			continue
		}
		i++
	}
	for i := 0; i < len(n.keys); {
		if k := n.keys[i]; !shapeOK(k, n.vals[i]) {
			dropped = append(dropped, k)
			n.del(k)
			continue
		}
		i++
	}
	if f := n.str("format"); f != "" && !slices.Contains(strictFormats, f) {
		n.del("format")
		dropped = append(dropped, "format "+f)
	}
	if len(dropped) > 0 {
		c.note(path, "dropped %s (not supported in strict mode)", strings.Join(dropped, ", "))
	}
	if !n.has("type") && !n.has("anyOf") {
		switch {
		case n.has("properties"):
			n.setFront("type", strNode("object"))
		case n.has("items"):
			n.setFront("type", strNode("array"))
		case n.has("enum") && allOfKind(n.get("enum"), kString):
			n.setFront("type", strNode("string"))
		default:
			return fmt.Errorf("%s: strict mode needs a type here (the schema allows any value)", path)
		}
	}
	c.dropForeign(n, path)
	if hasType(n, "object") {
		props := n.get("properties")
		if props == nil || props.kind != kObject {
			props = emptyObject()
			n.set("properties", props)
		}
		optional := map[string]bool{}
		req := names(n.get("required"))
		for _, k := range props.keys {
			optional[k] = !slices.Contains(req, k)
		}
		// required and additionalProperties follow properties, whatever
		// the source order, so a second Clean leaves the bytes alone.
		n.del("required")
		n.del("additionalProperties")
		at := n.index("properties") + 1
		n.insertAt(at, "required", stringsNode(props.keys))
		n.insertAt(at+1, "additionalProperties", boolNode(false))
		for i, k := range props.keys {
			p := path + ".properties." + k
			if err := c.strict(props.vals[i], p); err != nil {
				return err
			}
			if optional[k] {
				makeNullable(props.vals[i])
				c.note(p, "optional property made required and nullable")
			}
		}
	}
	if it := n.get("items"); it != nil {
		if it.kind != kObject {
			return fmt.Errorf("%s.items: strict mode needs an items schema", path)
		}
		if err := c.strict(it, path+".items"); err != nil {
			return err
		}
	}
	if a := n.get("anyOf"); a != nil {
		for i, b := range a.arr {
			if err := c.strict(b, fmt.Sprintf("%s.anyOf[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// strictCombinators merges allOf and turns oneOf into anyOf, reporting
// whether it changed n.
func (c *cleaner) strictCombinators(n *node, path string) bool {
	if v := n.get("allOf"); v != nil && v.kind == kArray {
		at := n.index("allOf")
		n.del("allOf")
		for _, b := range v.arr {
			mergeInto(n, b, at)
			at = min(len(n.keys), at+len(b.keys))
		}
		c.note(path, "merged allOf")
		return true
	}
	if dropConstraintBranches(n) {
		c.note(path, "dropped anyOf branches that only add constraints")
		return true
	}
	if n.has("oneOf") {
		if n.has("anyOf") {
			n.del("oneOf")
		} else {
			n.keys[n.index("oneOf")] = "anyOf"
		}
		c.note(path, "oneOf became anyOf")
		return true
	}
	return false
}

// makeNullable lets a strict schema also accept null.
func makeNullable(n *node) {
	if a := n.get("anyOf"); a != nil {
		if !slices.ContainsFunc(a.arr, isNullSchema) {
			a.arr = append(a.arr, objectWithType("null"))
		}
		return
	}
	switch t := n.get("type"); {
	case t == nil:
	case t.kind == kString && t.s != "null":
		n.set("type", arrayNode(strNode(t.s), strNode("null")))
	case t.kind == kArray && !slices.Contains(names(t), "null"):
		t.arr = append(t.arr, strNode("null"))
	}
	if e := n.get("enum"); e != nil && !slices.ContainsFunc(e.arr, func(v *node) bool { return v.kind == kNull }) {
		e.arr = append(e.arr, &node{kind: kNull})
	}
}

func allOfKind(n *node, k kind) bool {
	if n == nil || n.kind != kArray || len(n.arr) == 0 {
		return false
	}
	for _, v := range n.arr {
		if v.kind != k {
			return false
		}
	}
	return true
}
