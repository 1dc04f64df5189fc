package llm

import "testing"

// TestArgumentsJSON: only a JSON object (or nothing, or null) is a call's
// arguments.
func TestArgumentsJSON(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"", "{}", true},
		{"  ", "{}", true},
		{"null", "{}", true},
		{` {"path":"a.go"} `, `{"path":"a.go"}`, true},
		{"[1,2]", "", false},
		{`"a.go"`, "", false},
		{"42", "", false},
		{`{"path":`, "", false},
	} {
		got, err := ToolCall{Arguments: tc.in}.ArgumentsJSON()
		if (err == nil) != tc.ok || string(got) != tc.want {
			t.Errorf("ArgumentsJSON(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
