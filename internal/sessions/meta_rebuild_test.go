package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// TestLostMetadataRebuiltFromLog: a metadata.json deleted or damaged by
// hand is rebuilt from the log on load and list, workspace and first
// prompt included, and the next append writes it back whole.
func TestLostMetadataRebuiltFromLog(t *testing.T) {
	tests := []struct {
		name   string
		damage func(path string) error
	}{
		{"deleted", os.Remove},
		{"truncated", func(p string) error { return os.WriteFile(p, []byte(`{"id":"x","workspace":"/el`), 0o600) }},
		{"emptied", func(p string) error { return os.WriteFile(p, nil, 0o600) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, _ := testStore(t)
			ws := canonical(t.TempDir())
			s, err := st.Create(Metadata{Workspace: ws, Provider: "ollama", Model: "qwen3"})
			if err != nil {
				t.Fatal(err)
			}
			evs, _ := conversation()
			// A second run with another model and prompt: the first prompt
			// and workspace stay, the model follows the last run.
			second := llm.TextMessage(llm.RoleUser, "now the linter")
			evs = append(evs,
				event.Event{Type: event.RunStart, RunID: "r2", Model: "gpt-5", Provider: "openai", Prompt: "now the linter"},
				event.Event{Type: event.Message, RunID: "r2", Message: &second})
			for _, ev := range evs {
				if err := s.Append(ev); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
			want := s.Meta()
			if want.Workspace != ws || want.Turns != 2 || want.Model != "gpt-5" {
				t.Fatalf("meta before the loss = %+v", want)
			}
			metaPath := filepath.Join(s.Dir(), MetadataFile)
			if err := tt.damage(metaPath); err != nil {
				t.Fatal(err)
			}

			check := func(what string, m Metadata) {
				t.Helper()
				if m.ID != want.ID || m.Workspace != ws || m.FirstPrompt != "run the tests <and> tell me" ||
					m.Provider != "openai" || m.Model != "gpt-5" || m.Turns != 2 ||
					!m.Updated.Equal(want.Updated) {
					t.Errorf("%s: %+v\nwant %+v", what, m, want)
				}
				if !m.Created.Equal(want.Created.Truncate(time.Second)) {
					t.Errorf("%s: created %v, want %v (from the id)", what, m.Created, want.Created)
				}
			}
			loaded, err := st.Load(want.ID)
			if err != nil {
				t.Fatal(err)
			}
			check("Load", loaded.Meta())
			list, err := st.List()
			if err != nil || len(list) != 1 {
				t.Fatalf("List = %v %v", list, err)
			}
			check("List", list[0])
			latest, err := st.Latest(ws)
			if err != nil || latest.ID() != want.ID {
				t.Fatalf("Latest(%s) = %v %v", ws, latest, err)
			}

			// Resuming appends; the file comes back with what was rebuilt.
			if err := loaded.Append(event.Event{Type: event.RunStart, RunID: "r3", Prompt: "go on"}); err != nil {
				t.Fatal(err)
			}
			loaded.Close()
			back, err := st.readMeta(want.ID)
			if err != nil {
				t.Fatalf("metadata.json not rewritten: %v", err)
			}
			if back.Workspace != ws || back.FirstPrompt != "run the tests <and> tell me" || back.Turns != 2 {
				t.Errorf("rewritten metadata = %+v", back)
			}
		})
	}
}

// TestRunStartRecordsWorkspace: the log's run_start lines carry the
// session's workspace unless the event already names one.
func TestRunStartRecordsWorkspace(t *testing.T) {
	st, _ := testStore(t)
	ws := canonical(t.TempDir())
	s, err := st.Create(Metadata{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	s.Append(event.Event{Type: event.RunStart, Prompt: "a"})
	s.Append(event.Event{Type: event.RunStart, Prompt: "b", Workspace: "/elsewhere"})
	s.Append(event.Event{Type: event.Warning, Text: "w"})
	s.Close()
	evs, _, err := s.Events()
	if err != nil || len(evs) != 3 {
		t.Fatalf("events %v %v", evs, err)
	}
	for i, want := range []string{ws, "/elsewhere", ""} {
		if evs[i].Workspace != want {
			t.Errorf("event %d workspace %q, want %q", i, evs[i].Workspace, want)
		}
	}
	data, _ := os.ReadFile(s.EventsPath())
	if !strings.Contains(strings.SplitN(string(data), "\n", 2)[0], `"workspace":"`+ws+`"`) {
		t.Errorf("first line lacks the workspace: %s", data)
	}
}

// TestMetaFromOldLog: a log written before run_start carried the
// workspace still gives the first prompt, model and turns; a missing log
// gives nothing but the id and times.
func TestMetaFromOldLog(t *testing.T) {
	dir := t.TempDir()
	old := `{"schemaVersion":1,"type":"run_start","runId":"r","time":"2026-11-30T07:10:20Z","provider":"custom","model":"m","prompt":"go"}
{"schemaVersion":1,"type":"message","runId":"r","time":"2026-11-30T07:10:21Z","message":{"role":"user","parts":[{"type":"text","text":"go"}]}}
{"schemaVersion":1,"type":"run_end","runId":"r","time":"2026-11-30T07:10:25Z","stopReason":"completed"}
`
	path := filepath.Join(dir, EventsFile)
	os.WriteFile(path, []byte(old), 0o600)
	m := metaFromLog(path)
	if m.Workspace != "" || m.FirstPrompt != "go" || m.Model != "m" || m.Provider != "custom" || m.Turns != 1 ||
		m.Created.Format("15:04:05") != "07:10:20" || m.Updated.Format("15:04:05") != "07:10:25" {
		t.Errorf("meta = %+v", m)
	}
	if m := metaFromLog(filepath.Join(dir, "none.jsonl")); m != (Metadata{}) {
		t.Errorf("missing log gave %+v", m)
	}
}

// TestMovedSessionIsListedInItsNewWorkspaceAlsoAfterARebuild: a session
// moved to another folder (resumed there) is that folder's latest, and a
// lost metadata.json rebuilt from the log still says the new folder (the
// run_start lines after the move carry it).
func TestMovedSessionIsListedInItsNewWorkspaceAlsoAfterARebuild(t *testing.T) {
	st, _ := testStore(t)
	old, moved := canonical(t.TempDir()), canonical(t.TempDir())
	s, err := st.Create(Metadata{Workspace: old})
	if err != nil {
		t.Fatal(err)
	}
	s.Append(event.Event{Type: event.RunStart, Prompt: "first"})
	if err := s.MoveTo(moved); err != nil {
		t.Fatal(err)
	}
	s.Append(event.Event{Type: event.RunStart, Prompt: "second"})
	s.Close()
	for _, what := range []string{"metadata.json", "rebuilt"} {
		if what == "rebuilt" {
			os.Remove(filepath.Join(s.Dir(), MetadataFile))
		}
		got, err := st.Latest(moved)
		if err != nil || got.ID() != s.ID() {
			t.Fatalf("%s: latest in the new folder: %v", what, err)
		}
		got.Close()
		if _, err := st.Latest(old); err == nil {
			t.Errorf("%s: the old folder still lists the session", what)
		}
	}
}
