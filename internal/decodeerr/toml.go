package decodeerr

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
)

// tomlIncompatible is BurntSushi/toml's type error (MetaData.badtype in
// its decode.go): the line, the dotted key, the TOML value's Go type and
// the destination's kind.
var tomlIncompatible = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): incompatible types: TOML value has type (\S+); destination has type (.+)$`)

// TOML rewords BurntSushi/toml's "incompatible types" error of decoding
// into dst (a struct or a pointer to one): "line N: KEY must be KIND, not
// VALUE", KIND from the field of dst the key's last part names (by its
// toml tag or name). Other errors are returned as they are.
func TOML(err error, dst any) error {
	m := tomlIncompatible.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	line, key, got, to := m[1], m[2], tomlValue(m[3]), m[4]
	want := tomlKind(to)
	if f, ok := tomlField(reflect.TypeOf(dst), key[strings.LastIndexByte(key, '.')+1:]); ok {
		t := f.Type
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		want = Kind(t)
		if (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && to != "slice" && to != "array" {
			key, want = "an item of "+key, Kind(t.Elem())
		}
	}
	want = strings.NewReplacer("an object", "a table", "objects", "tables").Replace(want)
	msg := fmt.Sprintf("%s must be %s, not %s", key, want, got)
	if line != "" {
		msg = "line " + line + ": " + msg
	}
	return &wordError{msg, errors.Unwrap(err)}
}

// tomlValue words the Go type toml decoded a value as.
func tomlValue(t string) string {
	switch {
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "float"):
		return "a number"
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map"):
		return "a table"
	case strings.HasPrefix(t, "time."):
		return "a date or time"
	}
	return t
}

// tomlKind words toml's name for the destination's kind, when dst has no
// field to read it from.
func tomlKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "integer", "float":
		return "a number"
	case "bool", "boolean":
		return "true or false"
	case "slice", "array":
		return "a list"
	case "map", "struct":
		return "a table"
	}
	return "a " + k
}

// tomlField is the field of struct t that TOML key name decodes into.
func tomlField(t reflect.Type, name string) (reflect.StructField, bool) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if tag == name || tag == "" && strings.EqualFold(f.Name, name) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
