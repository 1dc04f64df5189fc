package ask

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
)

func everything(t testing.TB) []event.QuestionField {
	t.Helper()
	b, err := os.ReadFile("testdata/everything-elicitation.json")
	if err != nil {
		t.Fatal(err)
	}
	fields, err := FromElicitation(json.RawMessage(b))
	if err != nil {
		t.Fatal(err)
	}
	return fields
}

func TestElicitationSchemaOfARealServerReadsInOrder(t *testing.T) {
	fields := everything(t)
	var got []string
	for _, f := range fields {
		got = append(got, f.Name+":"+f.Kind)
	}
	want := []string{"name:text", "check:boolean", "firstLine:text", "email:text", "homepage:text", "birthdate:text",
		"integer:integer", "number:number", "untitledSingleSelectEnum:choice", "untitledMultipleSelectEnum:choices",
		"titledSingleSelectEnum:choice", "titledMultipleSelectEnum:choices", "legacyTitledEnum:choice"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields\n got %v\nwant %v", got, want)
	}
	by := map[string]event.QuestionField{}
	for _, f := range fields {
		by[f.Name] = f
	}
	if !by["name"].Required || by["check"].Required {
		t.Error("required is not read from the schema")
	}
	if by["integer"].Default != int64(42) || *by["integer"].Min != 1 || *by["integer"].Max != 100 {
		t.Errorf("integer field %+v", by["integer"])
	}
	if h := by["titledSingleSelectEnum"]; h.Choices[1] != "hero-2" || h.Labels[1] != "Green Lantern" || h.Default != "hero-1" {
		t.Errorf("titled enum %+v", h)
	}
	if p := by["legacyTitledEnum"]; p.Labels[0] != "Cats" {
		t.Errorf("legacy enumNames %+v", p)
	}
	if m := by["untitledMultipleSelectEnum"]; !reflect.DeepEqual(m.Default, []string{"Guitar"}) || *m.Max != 3 {
		t.Errorf("multi-select %+v", m)
	}
	if by["email"].Format != "email" {
		t.Errorf("format lost: %+v", by["email"])
	}
}

func TestValueTypesTextAnswers(t *testing.T) {
	fields := map[string]event.QuestionField{}
	for _, f := range everything(t) {
		fields[f.Name] = f
	}
	cases := []struct {
		field string
		in    any
		want  any
		err   string
	}{
		{"check", "yes", true, ""},
		{"check", "N", false, ""},
		{"check", true, true, ""},
		{"check", "maybe", nil, "not yes or no"},
		{"integer", "7", int64(7), ""},
		{"integer", float64(9), int64(9), ""},
		{"integer", int64(9), int64(9), ""},
		{"integer", "7.5", nil, "whole number"},
		{"integer", "101", nil, "within 1 to 100"},
		{"integer", "seven", nil, "not a number"},
		{"number", "3.25", 3.25, ""},
		{"number", "NaN", nil, "not a number"},
		{"untitledSingleSelectEnum", "joey", "Joey", ""},
		{"untitledSingleSelectEnum", "2", "Rachel", ""},
		{"untitledSingleSelectEnum", "Gunther", nil, "not one of"},
		{"untitledMultipleSelectEnum", "piano, 1", []string{"Piano", "Guitar"}, ""},
		{"untitledMultipleSelectEnum", []any{"Drums"}, []string{"Drums"}, ""},
		{"untitledMultipleSelectEnum", "1,2,3,4", nil, "choose 1 to 3"},
		{"untitledMultipleSelectEnum", "Kazoo", nil, "not one of"},
		{"name", "  Ada  ", "Ada", ""},
		{"name", 3.0, nil, "not text"},
	}
	for _, c := range cases {
		got, err := Value(fields[c.field], c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %v: err %v, want %q", c.field, c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v = %#v, %v; want %#v", c.field, c.in, got, err, c.want)
		}
	}
}

func TestCheckFillsDefaultsAndNamesWhatIsMissing(t *testing.T) {
	q := event.Question{Fields: everything(t)}
	if _, err := Check(q, map[string]any{"check": "yes"}); err == nil || !strings.Contains(err.Error(), "String is required") {
		t.Errorf("missing required: %v", err)
	}
	if _, err := Check(q, map[string]any{"name": "Ada", "nmae": "x"}); err == nil || !strings.Contains(err.Error(), `no field "nmae"`) {
		t.Errorf("typo: %v", err)
	}
	got, err := Check(q, map[string]any{"name": "Ada", "integer": ""})
	if err != nil {
		t.Fatal(err)
	}
	if got["name"] != "Ada" || got["integer"] != int64(42) || got["firstLine"] != "It was a dark and stormy night." {
		t.Errorf("checked %v", got)
	}
	if _, ok := got["email"]; ok {
		t.Errorf("an unanswered optional field without default was sent: %v", got)
	}
}

func TestSchemasZeroCannotShowAreRefused(t *testing.T) {
	for _, s := range []string{
		`{"type":"array"}`,
		`{"type":"object","properties":{"a":{"type":"object"}}}`,
		`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}`,
		`{"type":"object","properties":{"a":{"type":"array"}}}`,
	} {
		if _, err := FromElicitation(json.RawMessage(s)); err == nil {
			t.Errorf("%s was accepted", s)
		}
	}
}

func FuzzElicitationSchema(f *testing.F) {
	b, _ := os.ReadFile("testdata/everything-elicitation.json")
	f.Add(string(b), "a, 2")
	f.Add(`{"type":"object","properties":{"x":{"type":"integer","minimum":1}}}`, "0")
	f.Fuzz(func(t *testing.T, schema, answer string) {
		fields, err := FromElicitation(json.RawMessage(schema))
		if err != nil {
			return
		}
		for _, fl := range fields {
			v, err := Value(fl, answer)
			if err == nil && v == nil {
				t.Fatalf("%s: nil value without error", fl.Name)
			}
		}
	})
}
