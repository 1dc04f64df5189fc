package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/sessions"
)

// TestContextEndsWithTheInstructionFiles: `zero context` lists the
// instruction files a session here loads, user files first, with the
// import the untrusted folder skipped noted.
func TestContextEndsWithTheInstructionFiles(t *testing.T) {
	home, dir := isolate(t)
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "CLAUDE.md"), []byte("Answer briefly.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("Run go test.\nShared: @"+filepath.Join(home, "shared.md")+"\n"), 0o644)
	os.WriteFile(filepath.Join(home, "shared.md"), []byte("shared\n"), 0o644)
	st, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Create(sessions.Metadata{Workspace: dir, Model: "some-local-model"})
	if err != nil {
		t.Fatal(err)
	}
	s.Append(event.Event{Type: event.RunStart, Prompt: "hi", ContextWindow: 8192})
	s.Close()
	r := zero("context")
	if r.code != ExitOK {
		t.Fatalf("exit %d:\n%s%s", r.code, r.out, r.errOut)
	}
	_, list, ok := strings.Cut(r.out, "instruction files (")
	if !ok {
		t.Fatalf("no instruction file list:\n%s", r.out)
	}
	user, project := strings.Index(list, "user     ~/.claude/CLAUDE.md  15 bytes"), strings.Index(list, "project  AGENTS.md")
	if user < 0 || project < user || !strings.Contains(list, "note: @"+filepath.Join(home, "shared.md")+" in AGENTS.md: outside the project") {
		t.Fatalf("list:\n%s", list)
	}
}
