package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

func TestDefaultDir(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name, sessionDir, xdg, want string
	}{
		{"override", "/tmp/zs", "/x", "/tmp/zs"},
		{"xdg", "", "/x/data", "/x/data/zero/sessions"},
		{"relative xdg ignored", "", "rel", filepath.Join(home, ".local/share/zero/sessions")},
		{"home", "", "", filepath.Join(home, ".local/share/zero/sessions")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("ZERO_SESSION_DIR", tt.sessionDir)
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			got, err := DefaultDir()
			if err != nil || got != tt.want {
				t.Errorf("DefaultDir() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// clock is a settable time source for the store.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { c.t = c.t.Add(time.Second); return c.t }

func testStore(t *testing.T) (*Store, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 11, 30, 5, 12, 0, 0, time.UTC)}
	st := Open(filepath.Join(t.TempDir(), "sessions"))
	st.now = c.now
	return st, c
}

func intp(i int) *int { return &i }

// sendPrompt records a user prompt as a run does (run_start, then the user
// message), so the session is kept (see Metadata.Empty).
func sendPrompt(t testing.TB, s *Session, text string) {
	t.Helper()
	msg := llm.TextMessage(llm.RoleUser, text)
	for _, ev := range []event.Event{{Type: event.RunStart, Prompt: text}, {Type: event.Message, Message: &msg}} {
		if err := s.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
}

// conversation is a run with a tool round trip, as the agent loop emits it.
func conversation() ([]event.Event, []llm.Message) {
	call := &llm.ToolCall{ID: "call_1", Name: "bash", Arguments: `{"command":"go test ./..."}`}
	msgs := []llm.Message{
		llm.TextMessage(llm.RoleUser, "run the tests <and> tell me"),
		{Role: llm.RoleAssistant, Parts: []llm.Part{
			{Type: llm.PartReasoning, Text: "think", Signature: "sig"},
			{Type: llm.PartText, Text: "Running them."},
			{Type: llm.PartToolCall, ToolCall: call},
		}},
		llm.ToolResultMessage(llm.ToolResult{CallID: "call_1", Name: "bash", Content: "ok  \tzero\t0.4s\n\u2028line"}),
		llm.TextMessage(llm.RoleAssistant, "All tests pass."),
	}
	evs := []event.Event{
		{Type: event.RunStart, RunID: "r1", Model: "qwen3", Provider: "ollama", Prompt: msgs[0].Parts[0].Text},
		{Type: event.Message, RunID: "r1", Message: &msgs[0]},
		{Type: event.Text, RunID: "r1", Turn: 1, Text: "Running them."},
		{Type: event.Message, RunID: "r1", Turn: 1, Message: &msgs[1]},
		{Type: event.ToolCall, RunID: "r1", Turn: 1, ToolCall: call},
		{Type: event.ToolResult, RunID: "r1", Turn: 1, Result: &event.ToolOutcome{CallID: "call_1", Name: "bash", Content: "ok", RawBytes: 20, KeptBytes: 20, ExitCode: intp(0)}},
		{Type: event.Message, RunID: "r1", Turn: 1, Message: &msgs[2]},
		{Type: event.Usage, RunID: "r1", Turn: 2, Usage: &llm.Usage{InputTokens: 100, OutputTokens: 7}},
		{Type: event.Message, RunID: "r1", Turn: 2, Message: &msgs[3]},
		{Type: event.RunEnd, RunID: "r1", StopReason: event.StopCompleted, Totals: &event.Totals{Turns: 2, ToolCalls: 1}},
	}
	return evs, msgs
}

func TestSessionRoundTrip(t *testing.T) {
	st, _ := testStore(t)
	ws := t.TempDir()
	s, err := st.Create(Metadata{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	if !idPattern(s.ID()) {
		t.Errorf("id %q is not YYYYMMDD-HHMMSS-xxxxxx", s.ID())
	}
	evs, msgs := conversation()
	for _, ev := range evs {
		if err := s.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	got, err := st.Load(s.ID()[:17]) // unique prefix
	if err != nil {
		t.Fatal(err)
	}
	read, ws2, err := got.Events()
	if err != nil || ws2 != nil {
		t.Fatalf("Events: %v %v", ws2, err)
	}
	if len(read) != len(evs) {
		t.Fatalf("read %d events, want %d", len(read), len(evs))
	}
	for i := range evs {
		want := evs[i]
		want.SchemaVersion = event.SchemaVersion
		want.Time = read[i].Time
		if want.Type == event.RunStart {
			want.Workspace = got.Meta().Workspace // the log records it
		}
		if read[i].Time.IsZero() || !reflect.DeepEqual(read[i], want) {
			t.Errorf("event %d:\n got %+v\nwant %+v", i, read[i], want)
		}
	}
	hist, hw, err := got.History()
	if err != nil || hw != nil || !reflect.DeepEqual(hist, msgs) {
		t.Errorf("History = %+v %v %v\nwant %+v", hist, hw, err, msgs)
	}

	m := got.Meta()
	if m.Turns != 1 || m.FirstPrompt != "run the tests <and> tell me" || m.Model != "qwen3" || m.Provider != "ollama" || m.Workspace != ws {
		t.Errorf("meta = %+v", m)
	}
	if !m.Updated.After(m.Created) {
		t.Errorf("updated %v not after created %v", m.Updated, m.Created)
	}
	raw, _ := os.ReadFile(filepath.Join(got.Dir(), EventsFile))
	if bytes.Count(raw, []byte("\n")) != len(evs) || !bytes.Contains(raw, []byte("<and>")) {
		t.Errorf("log is not one readable line per event:\n%s", raw)
	}
	for _, p := range []string{got.Dir(), got.EventsPath(), filepath.Join(got.Dir(), MetadataFile)} {
		if fi, _ := os.Stat(p); fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is readable by others: %v", p, fi.Mode())
		}
	}
}

func idPattern(id string) bool {
	if len(id) != 22 || id[8] != '-' || id[15] != '-' {
		return false
	}
	_, err := time.Parse("20060102-150405", id[:15])
	return err == nil && strings.Trim(id[16:], "0123456789abcdef") == ""
}

func TestLoadByPrefix(t *testing.T) {
	st, _ := testStore(t)
	for _, id := range []string{"20261130-051200-aaaaaa", "20261130-051200-aaaabb", "20261130-061200-cccccc"} {
		if _, err := st.Create(Metadata{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		in, want, errHas string
		notFound         bool
	}{
		{in: "20261130-051200-aaaaaa", want: "20261130-051200-aaaaaa"},
		{in: "20261130-0612", want: "20261130-061200-cccccc"},
		{in: "20261130-051200-aaaab", want: "20261130-051200-aaaabb"},
		{in: "20261130-0512", errHas: `sessions: "20261130-0512" is ambiguous: 20261130-051200-aaaaaa, 20261130-051200-aaaabb`},
		{in: "2025", notFound: true},
		{in: "../x", errHas: "bad session id"},
		{in: "", errHas: "bad session id"},
	}
	for _, tt := range tests {
		s, err := st.Load(tt.in)
		switch {
		case tt.want != "":
			if err != nil || s.ID() != tt.want {
				t.Errorf("Load(%q) = %v, %v; want %s", tt.in, s, err, tt.want)
			}
		case tt.notFound:
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("Load(%q) err = %v, want ErrNotFound", tt.in, err)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("Load(%q) err = %v, want %q", tt.in, err, tt.errHas)
			}
			if ambiguous := strings.Contains(tt.errHas, "ambiguous"); errors.Is(err, ErrAmbiguous) != ambiguous {
				t.Errorf("Load(%q): errors.Is(err, ErrAmbiguous) = %v, want %v", tt.in, !ambiguous, ambiguous)
			}
		}
	}
}

func TestListAndLatest(t *testing.T) {
	st, _ := testStore(t)
	if l, err := st.List(); err != nil || len(l) != 0 {
		t.Fatalf("empty store: %v %v", l, err)
	}
	wsA, wsB := t.TempDir(), t.TempDir()
	a, _ := st.Create(Metadata{Workspace: wsA})
	b, _ := st.Create(Metadata{Workspace: wsB})
	c, _ := st.Create(Metadata{Workspace: wsA})
	lost, _ := st.Create(Metadata{Workspace: wsB})
	sendPrompt(t, lost, "lost")
	sendPrompt(t, b, "b")
	sendPrompt(t, c, "c")
	// a is used last: it must come first.
	if err := a.Append(event.Event{Type: event.Message, Message: &llm.Message{Role: llm.RoleUser, Parts: []llm.Part{{Type: llm.PartText, Text: "hello"}}}}); err != nil {
		t.Fatal(err)
	}
	// A session whose metadata was lost is still listed, rebuilt from its
	// log (workspace included).
	os.WriteFile(filepath.Join(lost.Dir(), MetadataFile), []byte("{torn"), 0o600)

	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range list {
		ids = append(ids, m.ID)
	}
	if want := []string{a.ID(), c.ID(), b.ID(), lost.ID()}; !slices.Equal(ids, want) {
		t.Errorf("List = %v, want %v", ids, want)
	}
	if list[0].Turns != 1 || list[0].FirstPrompt != "hello" {
		t.Errorf("List[0] = %+v", list[0])
	}
	if m := list[3]; m.Workspace != canonical(wsB) || m.FirstPrompt != "lost" {
		t.Errorf("lost metadata rebuilt as %+v", m)
	}

	for _, tt := range []struct{ ws, want string }{{wsA, a.ID()}, {wsB, b.ID()}, {"", a.ID()}} {
		s, err := st.Latest(tt.ws)
		if err != nil || s.ID() != tt.want {
			t.Errorf("Latest(%q) = %v, %v; want %s", tt.ws, s, err, tt.want)
		}
	}
	if _, err := st.Latest(t.TempDir()); !errors.Is(err, ErrNotFound) {
		t.Errorf("Latest(other) err = %v", err)
	}
}

func TestFork(t *testing.T) {
	st, _ := testStore(t)
	src, _ := st.Create(Metadata{Model: "m"})
	evs, msgs := conversation()
	for _, ev := range evs {
		src.Append(ev)
	}
	// A torn line in the source is not carried into the fork.
	src.Close()
	f, _ := os.OpenFile(src.EventsPath(), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"schemaVersion":1,"type":"mess`)
	f.Close()

	fk, err := st.Fork(src.ID())
	if err != nil {
		t.Fatal(err)
	}
	if fk.ID() == src.ID() || fk.Meta().ForkedFrom != src.ID() || fk.Meta().Model != "qwen3" {
		t.Errorf("fork meta = %+v", fk.Meta())
	}
	hist, ws, err := fk.History()
	if err != nil || ws != nil || !reflect.DeepEqual(hist, msgs) {
		t.Errorf("fork history = %v %v %v", hist, ws, err)
	}
	more := llm.TextMessage(llm.RoleUser, "and now?")
	fk.Append(event.Event{Type: event.Message, Message: &more})
	fk.Close()
	srcHist, _, _ := src.History()
	forkHist, _, _ := fk.History()
	if len(srcHist) != len(msgs) || len(forkHist) != len(msgs)+1 {
		t.Errorf("fork is not independent: src %d msgs, fork %d", len(srcHist), len(forkHist))
	}
	reloaded, _ := st.Load(fk.ID())
	if reloaded.Meta().ForkedFrom != src.ID() {
		t.Errorf("forkedFrom not persisted: %+v", reloaded.Meta())
	}
}

// TestCrashDamage damages a real events.jsonl the ways B27 lists and
// checks that resume still shows the conversation and that the next
// append lands on a fresh line.
func TestCrashDamage(t *testing.T) {
	evs, msgs := conversation()
	var clean bytes.Buffer
	for _, ev := range evs {
		ev.SchemaVersion = 1
		b, _ := json.Marshal(ev)
		clean.Write(append(b, '\n'))
	}
	lines := strings.SplitAfter(clean.String(), "\n")
	lines = lines[:len(lines)-1]
	toolLine := 6 // index of the tool-result message event
	tests := []struct {
		name     string
		damage   func() string
		wantMsgs int
		synth    bool
		warn     string
	}{
		{"torn tool result tail", func() string {
			return strings.Join(lines[:toolLine], "") + lines[toolLine][:40]
		}, 3, true, "1 truncated trailing record dropped"},
		{"NUL block", func() string {
			return strings.Join(lines[:3], "") + strings.Repeat("\x00", 512) + "\n" + strings.Join(lines[3:], "")
		}, 4, false, "1 unreadable line skipped"},
		{"NUL padding glued to a record", func() string {
			return strings.Join(lines[:3], "") + strings.Repeat("\x00", 64) + strings.Join(lines[3:], "")
		}, 4, false, "1 damaged line partly recovered"},
		{"torn write glued to next record", func() string {
			return strings.Join(lines[:toolLine], "") + lines[toolLine][:50] + strings.Join(lines[toolLine+1:], "")
		}, 4, true, "1 damaged line partly recovered"},
		{"raw newline inside a string", func() string {
			return strings.Join(lines[:8], "") + strings.Replace(lines[8], "All tests", "All\ntests", 1) + lines[9]
		}, 3, false, "2 unreadable lines skipped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, _ := testStore(t)
			s, _ := st.Create(Metadata{})
			os.WriteFile(s.EventsPath(), []byte(tt.damage()), 0o600)
			// Close keeps it: its log records a prompt, though no Append
			// told the Session so.
			s.Close()

			s, err := st.Load(s.ID())
			if err != nil {
				t.Fatal(err)
			}
			hist, ws, err := s.History()
			if err != nil {
				t.Fatal(err)
			}
			if len(hist) != tt.wantMsgs || !slices.Contains(Summarize(ws), tt.warn) {
				t.Errorf("history %d msgs (want %d), summary %q (want %q)", len(hist), tt.wantMsgs, Summarize(ws), tt.warn)
			}
			if !reflect.DeepEqual(hist[:2], msgs[:2]) {
				t.Errorf("history head = %+v", hist[:2])
			}
			synth := linesOf(ws, WarnSynthesized) != nil
			if synth != tt.synth {
				t.Errorf("synthesized result = %v, want %v (%v)", synth, tt.synth, ws)
			}

			next := llm.TextMessage(llm.RoleUser, "continue")
			if err := s.Append(event.Event{Type: event.Message, Message: &next}); err != nil {
				t.Fatal(err)
			}
			s.Close()
			hist2, ws2, _ := s.History()
			last := hist2[len(hist2)-1]
			if !reflect.DeepEqual(last, next) {
				t.Errorf("appended message not read back: %+v", last)
			}
			// The append was not glued to the torn tail.
			if linesOf(ws2, WarnTruncatedTail) != nil {
				t.Errorf("torn tail survived the append: %v", ws2)
			}
			if strings.HasPrefix(tt.name, "torn tool") {
				aside, _ := filepath.Glob(s.EventsPath() + ".corrupt-*")
				if len(aside) != 1 || len(s.Repairs()) != 1 {
					t.Errorf("fragment not saved aside: %v %v", aside, s.Repairs())
				}
			}
		})
	}
}

func TestUpdateMeta(t *testing.T) {
	st, _ := testStore(t)
	s, _ := st.Create(Metadata{})
	if err := s.UpdateMeta(func(m *Metadata) { m.Title = "fix the parser"; m.ID = "evil" }); err != nil {
		t.Fatal(err)
	}
	got, _ := st.Load(s.ID())
	if got.Meta().Title != "fix the parser" || got.ID() != s.ID() {
		t.Errorf("meta = %+v", got.Meta())
	}
	tmp, _ := filepath.Glob(filepath.Join(s.Dir(), ".*tmp*"))
	if tmp != nil {
		t.Errorf("temporary files left: %v", tmp)
	}
}

func TestEmitKeepsFirstError(t *testing.T) {
	st, _ := testStore(t)
	s, _ := st.Create(Metadata{})
	s.Close()
	os.RemoveAll(s.Dir())
	os.WriteFile(s.Dir(), nil, 0o600) // the session dir is now a file
	var sink event.Sink = s
	sink.Emit(event.Event{Type: event.Text, Text: "x"})
	if s.Err() == nil {
		t.Error("Emit on an unwritable session reported no error")
	}
}

func TestWorkspaceThroughSymlink(t *testing.T) {
	st, _ := testStore(t)
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	s, err := st.Create(Metadata{Workspace: link})
	if err != nil {
		t.Fatal(err)
	}
	sendPrompt(t, s, "hi")
	want, _ := filepath.EvalSymlinks(real)
	if s.Meta().Workspace != want {
		t.Errorf("workspace = %s, want %s", s.Meta().Workspace, want)
	}
	for _, ws := range []string{real, link} {
		if got, err := st.Latest(ws); err != nil || got.ID() != s.ID() {
			t.Errorf("Latest(%s) = %v, %v", ws, got, err)
		}
	}
}

func TestConcurrentAppend(t *testing.T) {
	st, _ := testStore(t)
	s, _ := st.Create(Metadata{})
	const writers, each = 4, 50
	done := make(chan bool)
	for w := range writers {
		go func() {
			for i := range each {
				msg := llm.TextMessage(llm.RoleUser, strings.Repeat("x", w*1000+i+1))
				s.Emit(event.Event{Type: event.Message, Message: &msg})
				s.Emit(event.Event{Type: event.Text, Text: "delta"})
			}
			done <- true
		}()
	}
	for range writers {
		<-done
	}
	s.Close()
	evs, ws, err := s.Events()
	if err != nil || ws != nil || len(evs) != 2*writers*each || s.Err() != nil {
		t.Fatalf("read %d events, warnings %v, %v %v", len(evs), ws, err, s.Err())
	}
	seen := map[string]bool{}
	for _, ev := range evs {
		if ev.Message != nil {
			seen[ev.Message.Text()] = true
		}
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct messages read back, want %d", len(seen), writers*each)
	}
}

// TestTurnsCountPrompts: a nudge the agent sends inside a run is not a
// prompt of the user's; each run's first user message is.
func TestTurnsCountPrompts(t *testing.T) {
	st, _ := testStore(t)
	s, _ := st.Create(Metadata{})
	prompt, nudge, next := llm.TextMessage(llm.RoleUser, "fix it"), llm.TextMessage(llm.RoleUser, "You said the tests pass; run them."), llm.TextMessage(llm.RoleUser, "thanks")
	for _, ev := range []event.Event{
		{Type: event.RunStart, Prompt: "fix it"},
		{Type: event.Message, Message: &prompt},
		{Type: event.Message, Message: &nudge},
		{Type: event.RunEnd, StopReason: event.StopCompleted},
		{Type: event.RunStart, Prompt: "thanks"},
		{Type: event.Message, Message: &next},
	} {
		if err := s.Append(ev); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if m := s.Meta(); m.Turns != 2 || m.FirstPrompt != "fix it" {
		t.Errorf("turns %d, first prompt %q; want 2, \"fix it\"", m.Turns, m.FirstPrompt)
	}
	back, err := st.Load(s.ID())
	if err != nil || back.Meta().Turns != 2 {
		t.Errorf("reloaded: %v", err)
	}
}
