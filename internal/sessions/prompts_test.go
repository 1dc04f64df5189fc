package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

func TestPromptsKeepEveryTypedPromptOfTheWorkspace(t *testing.T) {
	st := Open(t.TempDir())
	for _, p := range []struct{ ws, text string }{
		{"/a", "first"}, {"/b", "elsewhere"}, {"/a", "/greet Ann"}, {"/a", "/greet Ann"}, {"/a", "third"},
	} {
		if err := st.AddPrompt(p.ws, p.text); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Prompts("/a", 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"first", "/greet Ann", "third"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("prompts %q, want %q", got, want)
	}
	if got, _ := st.Prompts("/a", 2); !reflect.DeepEqual(got, []string{"/greet Ann", "third"}) {
		t.Fatalf("limited %q", got)
	}
	fi, _ := os.Stat(filepath.Join(st.Dir(), historyFile))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("history mode %v", fi.Mode().Perm())
	}
	// The store lists no session for the file.
	if list, _ := st.List(); len(list) != 0 {
		t.Errorf("history listed as sessions: %v", list)
	}
}

func TestPromptHistorySkipsADamagedLineAndStaysBounded(t *testing.T) {
	keep, trim := historyKeep, historyTrimBytes
	historyKeep, historyTrimBytes = 50, 4<<10
	defer func() { historyKeep, historyTrimBytes = keep, trim }()
	st := Open(t.TempDir())
	st.AddPrompt("/a", "before")
	f, _ := os.OpenFile(filepath.Join(st.Dir(), historyFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"2026-01-01T00:00:00Z","works`) // a crash mid-line
	f.WriteString("\n")
	f.Close()
	const n = 500
	for i := range n {
		st.AddPrompt("/a", fmt.Sprint("p", i))
	}
	got, err := st.Prompts("/a", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < historyKeep || len(got) > n/2 || got[len(got)-1] != fmt.Sprint("p", n-1) {
		t.Fatalf("%d prompts kept, last %q", len(got), got[len(got)-1])
	}
	if fi, _ := os.Stat(filepath.Join(st.Dir(), historyFile)); fi.Size() > historyTrimBytes+200 {
		t.Errorf("history grew to %d bytes", fi.Size())
	}
}

// TestPromptHistoryLosesNoLineToConcurrentTrims: many writers appending
// while every append trims (a fleet sharing one ZERO_SESSION_DIR) leave
// exactly the newest historyKeep lines; each writer's kept prompts are its
// newest ones, so no trim dropped a line appended after it read the file.
func TestPromptHistoryLosesNoLineToConcurrentTrims(t *testing.T) {
	keep, trim := historyKeep, historyTrimBytes
	historyKeep, historyTrimBytes = 100, 0
	defer func() { historyKeep, historyTrimBytes = keep, trim }()
	st := Open(t.TempDir())
	const writers, each = 20, 15
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := st.AddPrompt("/ws", fmt.Sprintf("w%02d-%02d", w, i)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	lines, err := readHistory(filepath.Join(st.Dir(), historyFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != historyKeep {
		t.Fatalf("%d lines kept, want %d", len(lines), historyKeep)
	}
	first := map[int]int{} // writer → its oldest kept prompt
	count := map[int]int{}
	for _, l := range lines {
		var w, i int
		fmt.Sscanf(l.Text, "w%02d-%02d", &w, &i)
		if _, ok := first[w]; !ok {
			first[w] = i
		}
		count[w]++
	}
	for w, i := range first {
		if count[w] != each-i {
			t.Errorf("writer %d: %d prompts kept from its #%d on, want %d (a line was lost)", w, count[w], i, each-i)
		}
	}
}
