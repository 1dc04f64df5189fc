package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/testbin"
)

// keys feeds a Bubble Tea model one key press per name ("enter", "esc",
// "up", "down", "backspace") or per rune of any other string.
func keys(m tea.Model, presses ...string) {
	named := map[string]tea.Key{"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "up": {Code: tea.KeyUp},
		"down": {Code: tea.KeyDown}, "backspace": {Code: tea.KeyBackspace}}
	for _, p := range presses {
		if k, ok := named[p]; ok {
			m.Update(tea.KeyPressMsg(k))
			continue
		}
		for _, r := range p {
			m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
}

func viewOf(m tea.Model) []string {
	return strings.Split(ansi.Strip(m.(interface{ View() tea.View }).View().Content), "\n")
}

// The --resume picker lists this project's sessions newest first with
// their time, prompt count and first prompt; ↓ and Enter pick an older
// one, Esc picks none.
func TestResumePickerListsSessionsNewestFirst(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, _ := testBackend(t, srv)
	srv.Script(llmtest.Reply(llmtest.Text("a")), llmtest.Reply(llmtest.Text("b")))
	prompt(b, "older question")
	older := b.Session().ID()
	if _, err := b.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	prompt(b, "newer question\nsecond line")
	list, err := ProjectSessions(b.rt)
	if err != nil || len(list) != 2 || list[1].ID != older {
		t.Fatalf("ProjectSessions = %+v, %v", list, err)
	}

	m := &pickerModel{items: list, width: 100}
	view := viewOf(m)
	mustContain(t, "picker", view, "resume which session of this project? (2;", "› "+list[0].Updated+"  1 prompt  newer question second line", "  "+list[1].Updated+"  1 prompt  older question")
	keys(m, "down", "down", "enter") // the cursor stops at the last row
	if m.picked != older {
		t.Errorf("↓ ↓ Enter picked %q, want %q", m.picked, older)
	}
	m = &pickerModel{items: list, width: 100}
	keys(m, "down", "esc")
	if m.picked != "" {
		t.Errorf("Esc picked %q", m.picked)
	}
}

// The setup lists the servers a scan of 127.0.0.1 found, numbered, then
// the hosted providers; a bad number says what to type; a pick is saved
// as the active profile the config then resolves.
func TestSetupSavesALocalServerOrAMaskedKey(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetModels("local-coder")
	testbin.Isolate(t)
	scanPorts = []int{portOf(t, srv.URL())}
	t.Cleanup(func() { scanPorts = nil })
	m := newSetup(context.Background())
	mustContain(t, "setup", viewOf(m), "nothing is configured yet", " 1. local-coder", srv.URL()+"/v1", " 2. openai", " 3. anthropic", " 4. gemini", "number, then Enter (Esc quits):")
	keys(m, "9", "enter")
	mustContain(t, "setup", viewOf(m), "! type a number from 1 to 4")
	keys(m, "1", "enter")
	if !m.done {
		t.Fatal("1 Enter did not finish the setup")
	}
	if _, err := m.save(); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(config.Options{Workspace: t.TempDir()})
	if err != nil || c.Active == nil || c.Active.BaseURL != srv.URL()+"/v1" || c.Active.Model != "local-coder" {
		t.Fatalf("after picking the server: %v %+v", err, c.Active)
	}

	m = newSetup(context.Background())
	keys(m, "3", "enter", "sk-ant-secret-1234")
	view := viewOf(m)
	mustContain(t, "key entry", view, "paste your anthropic API key, then Enter (Esc quits): ••••••••••••••••••")
	if strings.Contains(strings.Join(view, "\n"), "secret") {
		t.Error("the key is shown as typed")
	}
	keys(m, "enter")
	out, err := m.save()
	if err != nil || strings.Contains(out, "secret-1234") {
		t.Fatalf("save = %q, %v", out, err)
	}
	c, err = config.Load(config.Options{Workspace: t.TempDir()})
	if err != nil || c.Active == nil || c.Active.Name != "anthropic" || c.Active.APIKey != "sk-ant-secret-1234" || c.Active.BaseURL != "https://api.anthropic.com" {
		t.Fatalf("after the key: %v %+v", err, c.Active)
	}
	path, _ := config.UserPath()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("config file mode: %v %v", fi.Mode(), err)
	}
}

// inTerm returns program options that run a Bubble Tea program in scr at
// its size, and the keyboard to type into it.
func inTerm(scr *vterm, w, h int) ([]tea.ProgramOption, io.WriteCloser) {
	inR, inW := keyboard(scr)
	return []tea.ProgramOption{tea.WithInput(inR), tea.WithWindowSize(w, h),
		tea.WithEnvironment([]string{"TERM=xterm-256color"})}, inW
}

// After a pick, the --resume picker's rows are gone from the screen and
// the scrollback: the app starts on a clean terminal.
func TestResumePickerLeavesNothingBehind(t *testing.T) {
	list := []Session{{ID: "s2", Turns: 3, Preview: "newer question", Updated: "10:02"},
		{ID: "s1", Turns: 1, Preview: "older question", Updated: "09:41"}}
	many := slices.Clone(list)
	for i := range 12 { // more than a 6-row terminal holds
		many = append(many, Session{ID: fmt.Sprint("old", i), Turns: 1, Preview: "an old question", Updated: "08:00"})
	}
	for _, tt := range []struct {
		w, h int
		list []Session
	}{{80, 12, list}, {40, 6, many}} { // 40 columns: the heading would wrap
		scr := newTerm(tt.w, tt.h)
		opts, kb := inTerm(scr, tt.w, tt.h)
		picked := make(chan string, 1)
		go func() {
			id, err := pickSession(context.Background(), tt.list, scr, opts...)
			if err != nil {
				t.Error(err)
			}
			picked <- id
		}()
		scr.waitFor(t, "the picker", func(l []string) bool { return contains(l, "older question") })
		io.WriteString(kb, "\x1b[B\r")
		if id := <-picked; id != "s1" {
			t.Errorf("%dx%d: picked %q, want s1", tt.w, tt.h, id)
		}
		kb.Close()
		for _, l := range scr.lines() {
			if strings.Contains(l, "question") || strings.Contains(l, "resume which") {
				t.Errorf("%dx%d: left on the terminal: %q\n%s", tt.w, tt.h, l, strings.Join(scr.lines(), "\n"))
			}
		}
	}
}

// After a pick, the first start's setup is gone from the screen and the
// scrollback.
func TestSetupLeavesNothingBehind(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetModels("local-coder")
	testbin.Isolate(t)
	scanPorts = []int{portOf(t, srv.URL())}
	t.Cleanup(func() { scanPorts = nil })
	scr := newTerm(80, 12)
	opts, kb := inTerm(scr, 80, 12)
	saved := make(chan string, 1)
	go func() {
		out, err := setup(context.Background(), scr, opts...)
		if err != nil {
			t.Error(err)
		}
		saved <- out
	}()
	scr.waitFor(t, "the setup", func(l []string) bool { return contains(l, "number, then Enter") })
	io.WriteString(kb, "1\r")
	if out := <-saved; out == "" {
		t.Error("nothing saved")
	}
	kb.Close()
	for _, l := range scr.lines() {
		if strings.Contains(l, "local-coder") || strings.Contains(l, "configured") || strings.Contains(l, "openai") {
			t.Errorf("left on the terminal: %q\n%s", l, strings.Join(scr.lines(), "\n"))
		}
	}
}
