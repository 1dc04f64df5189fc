package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFlexibleArgs(t *testing.T) {
	dir := writeTree(t, map[string]string{"f": "a\nb\na\n"})
	_, reg := newWS(t, dir)
	tests := []struct {
		tool, args string
		want       string
		isError    bool
	}{
		{tool: "read_file", args: `{"path":"f","offset":"2","limit":"1"}`, want: "    2\tb\n"},
		{tool: "read_file", args: `{"path":"f","offset":2.0,"limit":null}`, want: "    2\tb\n    3\ta\n"},
		{tool: "read_file", args: `{"path":"f","offset":"two"}`, want: "invalid arguments", isError: true},
		{tool: "grep", args: `{"pattern":"B","ignore_case":"true"}`, want: "f:2: b\n"},
		{tool: "bash", args: `{"command":"echo ok","timeout_ms":"5000"}`, want: "ok\n[exit code 0]\n"},
		{tool: "edit_file", args: `{"path":"f","old_string":"a","new_string":"c","replace_all":"true"}`, want: "edited f: 2 replacement(s)"},
		{tool: "edit_file", args: `{"path":"f","old_string":"c","new_string":"d","replace_all":"maybe"}`, want: "invalid arguments", isError: true},
	}
	for _, tt := range tests {
		res := call(t, reg, tt.tool, json.RawMessage(tt.args))
		if res.IsError != tt.isError || !strings.HasPrefix(res.Content, tt.want) {
			t.Errorf("%s %s = %+v, want prefix %q", tt.tool, tt.args, res, tt.want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "c\nb\nc\n" {
		t.Fatalf("f = %q", b)
	}
}
