package mcp

import (
	"regexp"
	"strings"
	"testing"
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func TestToolNamesFollowClaudeCodeAndFitProviders(t *testing.T) {
	var tab nameTable
	long := strings.Repeat("very_long_tool_name_", 5)
	tests := []struct{ server, tool, want string }{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"cal", "calendar.list_events", "mcp__cal__calendar_list_events"},
		{"my server", "a/b c", "mcp__my_server__a_b_c"},
		{"srv", long, ""},
	}
	for _, tt := range tests {
		got := tab.name(tt.server, tt.tool)
		if !validName.MatchString(got) {
			t.Errorf("%s/%s: %q is not a valid provider name", tt.server, tt.tool, got)
		}
		if tt.want != "" && got != tt.want {
			t.Errorf("%s/%s: got %q, want %q", tt.server, tt.tool, got, tt.want)
		}
		if ref, ok := tab.lookup(got); !ok || ref != (toolRef{tt.server, tt.tool}) {
			t.Errorf("lookup(%q) = %v %v", got, ref, ok)
		}
	}
	cut := tab.name("srv", long)
	if len(cut) != maxToolName || !strings.HasPrefix(cut, "mcp__srv__very_long") {
		t.Errorf("long name: %q", cut)
	}
	var other nameTable
	if again := other.name("srv", long); again != cut {
		t.Errorf("hash suffix not stable across tables: %q vs %q", again, cut)
	}
}

func TestToolNamesThatSanitizeAlikeStayDistinct(t *testing.T) {
	var tab nameTable
	a := tab.name("s", "a.b")
	b := tab.name("s", "a_b")
	if a == b || !validName.MatchString(b) {
		t.Fatalf("a.b -> %q, a_b -> %q", a, b)
	}
	if tab.name("s", "a.b") != a {
		t.Error("same tool got a new name")
	}
	if ref, _ := tab.lookup(b); ref.Tool != "a_b" {
		t.Errorf("lookup(%q) = %v", b, ref)
	}
}
