// Package ask owns the questions Zero puts to the user for someone else:
// the model (the ask_user tool) or an MCP server (an elicitation, form
// mode: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation).
// It reads an elicitation's requested schema into fields, checks and
// types an answer against them, and defines the Asker seam each surface
// implements (the app's question form; a stream-json question event
// answered by an answer line on stdin). The question and the answer are
// event.Question values, so every surface and the session log share them.
//
// It must not draw or read input itself (surfaces do), nor decide
// permissions: a question is not an approval.
package ask

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/zero-agent/zero/internal/event"
)

// Asker puts q to a person and blocks until they answer or ctx ends
// (then the answer is cancel).
type Asker func(ctx context.Context, q event.Question) event.QuestionAnswer

// Actions of an answer (the elicitation result's).
const (
	Accept  = "accept"
	Decline = "decline"
	Cancel  = "cancel"
)

// Field kinds.
const (
	KindText    = "text"
	KindNumber  = "number"
	KindInteger = "integer"
	KindBoolean = "boolean"
	KindChoice  = "choice"
	KindChoices = "choices"
)

// Declined is the answer of a surface that cannot ask.
func Declined() event.QuestionAnswer { return event.QuestionAnswer{Action: Decline} }

// Check types and validates values (by field name) against q's fields:
// text from a form or a stream-json line becomes the field's kind
// (Value), a missing field takes its default, and a missing required
// field, a value of the wrong kind or a choice outside the list is an
// error naming the field. Unknown names are an error too (a typo would
// otherwise drop a value silently).
func Check(q event.Question, values map[string]any) (map[string]any, error) {
	out := map[string]any{}
	for name := range values {
		if !slices.ContainsFunc(q.Fields, func(f event.QuestionField) bool { return f.Name == name }) {
			return nil, fmt.Errorf("no field %q in this question (fields: %s)", name, fieldNames(q))
		}
	}
	for _, f := range q.Fields {
		v, ok := values[f.Name]
		if !ok || v == nil || v == "" {
			switch {
			case f.Default != nil:
				out[f.Name] = f.Default
			case f.Required:
				return nil, fmt.Errorf("%s is required", label(f))
			}
			continue
		}
		typed, err := Value(f, v)
		if err != nil {
			return nil, err
		}
		out[f.Name] = typed
	}
	return out, nil
}

// Value converts one answer to f's kind: a string is parsed ("yes",
// "3.5", a choice's text or its 1-based number), a JSON value must
// already have the kind.
func Value(f event.QuestionField, v any) (any, error) {
	s, isText := v.(string)
	if isText {
		s = strings.TrimSpace(s)
	}
	bad := func(want string) error { return fmt.Errorf("%s: %v is not %s", label(f), v, want) }
	switch f.Kind {
	case KindBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		switch strings.ToLower(s) {
		case "y", "yes", "true", "1", "on":
			return true, nil
		case "n", "no", "false", "0", "off":
			return false, nil
		}
		return nil, bad("yes or no")
	case KindNumber, KindInteger:
		n, ok := number(v)
		if isText {
			var err error
			if n, err = strconv.ParseFloat(s, 64); err != nil {
				return nil, bad("a number")
			}
			ok = true
		}
		if !ok || math.IsInf(n, 0) || math.IsNaN(n) {
			return nil, bad("a number")
		}
		if f.Kind == KindInteger && n != math.Trunc(n) {
			return nil, bad("a whole number")
		}
		if (f.Min != nil && n < *f.Min) || (f.Max != nil && n > *f.Max) {
			return nil, bad("within " + bounds(f))
		}
		if f.Kind == KindInteger {
			return int64(n), nil
		}
		return n, nil
	case KindChoices:
		return several(f, v)
	case KindChoice:
		if !isText {
			return nil, bad("one of " + strings.Join(f.Choices, ", "))
		}
		if i := slices.IndexFunc(f.Choices, func(c string) bool { return strings.EqualFold(c, s) }); i >= 0 {
			return f.Choices[i], nil
		}
		if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(f.Choices) {
			return f.Choices[n-1], nil
		}
		if f.Other {
			return s, nil
		}
		return nil, bad("one of " + strings.Join(f.Choices, ", "))
	default:
		if !isText {
			return nil, bad("text")
		}
		return s, nil
	}
}

// number is a JSON number or an already typed one (a checked answer
// checked again).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}

// several is a choices field's answer: a JSON list, or text with the
// choices (or their numbers) separated by commas.
func several(f event.QuestionField, v any) (any, error) {
	var items []string
	switch x := v.(type) {
	case string:
		for _, p := range strings.Split(x, ",") {
			if p = strings.TrimSpace(p); p != "" {
				items = append(items, p)
			}
		}
	case []string:
		items = x
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s: %v is not one of %s", label(f), e, strings.Join(f.Choices, ", "))
			}
			items = append(items, s)
		}
	default:
		return nil, fmt.Errorf("%s: %v is not a list of choices", label(f), v)
	}
	one := event.QuestionField{Name: f.Name, Title: f.Title, Kind: KindChoice, Choices: f.Choices}
	out := []string{}
	for _, it := range items {
		c, err := Value(one, it)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c.(string)) {
			out = append(out, c.(string))
		}
	}
	n := float64(len(out))
	if (f.Min != nil && n < *f.Min) || (f.Max != nil && n > *f.Max) {
		return nil, fmt.Errorf("%s: choose %s", label(f), bounds(f))
	}
	return out, nil
}

// bounds says a field's Min and Max in words.
func bounds(f event.QuestionField) string {
	num := func(p *float64) string { return strconv.FormatFloat(*p, 'f', -1, 64) }
	switch {
	case f.Min != nil && f.Max != nil:
		return num(f.Min) + " to " + num(f.Max)
	case f.Min != nil:
		return "at least " + num(f.Min)
	case f.Max != nil:
		return "at most " + num(f.Max)
	}
	return "any"
}

func label(f event.QuestionField) string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

func fieldNames(q event.Question) string {
	var names []string
	for _, f := range q.Fields {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
