package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParseFile checks that any config file either parses or errors
// without panicking, and that SaveFile's edit of a parsed file changes
// exactly the field edited.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte(userFile))
	f.Add([]byte(`{"providers":[{"name":"x","baseURL":"http://127.0.0.1:1/v1"}],"model":"x/m",}`))
	f.Add([]byte("// only a comment\n"))
	f.Add([]byte(`{"maxTurns": 1e400, "hooks": [1,2,/*c*/]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		before, _, err := ParseFile("f.json", data)
		if err != nil {
			return
		}
		path := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := SaveFile(path, func(f *File) { f.ActiveProvider = "edited" }); err != nil {
			t.Fatalf("SaveFile of a valid file: %v", err)
		}
		after, _, err := ReadFile(path)
		if err != nil {
			t.Fatalf("saved file does not parse: %v", err)
		}
		want := cloneFile(before)
		want.ActiveProvider = "edited"
		got := cloneFile(after)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("SaveFile changed more than activeProvider:\n got %+v\nwant %+v", got, want)
		}
	})
}
