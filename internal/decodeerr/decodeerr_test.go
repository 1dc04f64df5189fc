package decodeerr

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestKindSpeaksTheFilesWords(t *testing.T) {
	type group struct{ Matcher string }
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"", "a string"},
		{true, "true or false"},
		{int64(1), "a number"},
		{1.5, "a number"},
		{[]string{}, "a list of strings"},
		{[]group{}, "a list of objects"},
		{[][]int{}, "a list of lists of numbers"},
		{[]bool{}, "a list of true/false values"},
		{map[string]string{}, "an object"},
		{group{}, "an object"},
		{new(string), "a string"},
	} {
		if got := Kind(reflect.TypeOf(tc.v)); got != tc.want {
			t.Errorf("%T: %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestJSONNamesTheKeyWhatItTakesAndWhere(t *testing.T) {
	type hook struct {
		Command string `json:"command"`
	}
	type file struct {
		Name  string            `json:"name"`
		Args  []string          `json:"args"`
		Env   map[string]string `json:"env"`
		Hooks []hook            `json:"hooks"`
		On    bool              `json:"on"`
	}
	for _, tc := range []struct{ text, want string }{
		{`{"name": 5}`, "line 1, column 10: name must be a string, not a number"},
		{`{"args": "x y"}`, "line 1, column 10: args must be a list of strings, not a string"},
		{"{\n  \"args\": [\"a\", 1]\n}", "line 2, column 17: an item of args must be a string, not a number"},
		{`{"env": {"PORT": 8080}}`, `line 1, column 18: "PORT" in env must be a string, not a number`},
		{`{"hooks": {"command": "x"}}`, "line 1, column 11: hooks must be a list of objects, not an object"},
		{`{"hooks": [{"command": true}]}`, "line 1, column 24: hooks.command must be a string, not true or false"},
		{`{"on": "yes"}`, "line 1, column 8: on must be true or false, not a string"},
		{`[1]`, "line 1, column 1: must be an object, not a list"},
	} {
		var f file
		err := JSON(json.Unmarshal([]byte(tc.text), &f), []byte(tc.text))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.text, err, tc.want)
		}
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Errorf("%s: the decoder's error is not kept", tc.text)
		}
	}
	if err := JSON(errors.New("other"), nil); err.Error() != "other" {
		t.Errorf("another error changed: %v", err)
	}
}

func TestTOMLNamesTheKeyWhatItTakesAndTheLine(t *testing.T) {
	type entry struct {
		Command string            `toml:"command"`
		Args    []string          `toml:"args"`
		Env     map[string]string `toml:"env"`
		Enabled *bool             `toml:"enabled"`
	}
	for _, tc := range []struct{ text, want string }{
		{"[s]\ncommand = 5\n", `line 2: s.command must be a string, not a number`},
		{"[s]\nargs = \"x\"\n", `line 2: s.args must be a list of strings, not a string`},
		{"[s]\nargs = [1]\n", `line 2: an item of s.args must be a string, not a number`},
		{"[s]\nenabled = \"yes\"\n", `line 2: s.enabled must be true or false, not a string`},
	} {
		var f map[string]toml.Primitive
		md, err := toml.Decode(tc.text, &f)
		if err != nil {
			t.Fatal(err)
		}
		var e entry
		err = TOML(md.PrimitiveDecode(f["s"], &e), &e)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.text, err, tc.want)
		}
	}
}
