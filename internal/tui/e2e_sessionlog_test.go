package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/sessions"
)

// TestEndToEndAppSessionLog: the real binary in tmux, through the run
// layer. The app's session log holds each permission request next to its
// decision and prices the usage of a priced model, as exec's log does
// (issue 10: the app's logs had no cost and decisions without their
// requests); on exit the app says how to resume the session.
func TestEndToEndAppSessionLog(t *testing.T) {
	bin := buildZero(t)
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("write_file", `{"path":"notes.txt","content":"hello\n"}`), llmtest.Usage(1200, 30)),
		llmtest.Reply(llmtest.Text("wrote notes.txt"), llmtest.Usage(1300, 8)),
	)
	home, work := t.TempDir(), t.TempDir()
	cfg := filepath.Join(home, ".config", "zero", "config.json")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	// A vendor profile on the fake server: the catalog prices gpt-4.1.
	body := `{"providers":[{"name":"o","kind":"openai","baseURL":"` + srv.URL() + `/v1","apiKeyEnv":"E2E_KEY","model":"gpt-4.1"}],"activeProvider":"o"}`
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	x := tmux{t: t, socket: tmuxSocket(t, "")}
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	store := filepath.Join(home, "sessions")
	cmd := fmt.Sprintf("env -i HOME=%s PATH=%s TERM=tmux-256color LANG=C.UTF-8 ZERO_SESSION_DIR=%s E2E_KEY=sk-e2e %s; echo ZERO-EXITED-$?; sleep 60",
		home, os.Getenv("PATH"), store, bin)
	x.run("new-session", "-d", "-s", "zero", "-x", "100", "-y", "30", "-c", work, cmd)

	x.waitFor("the footer", func(l []string) bool { return contains(l, "gpt-4.1") && contains(l, "· normal") })
	x.typeLine("write the notes")
	x.waitFor("the write prompt", func(l []string) bool { return contains(l, "allow write_file?") && contains(l, "[y] allow once") })
	pause() // answers typed in the same burst as the prompt are ignored
	x.run("send-keys", "-t", "zero", "y")
	x.waitFor("the final reply", func(l []string) bool { return contains(l, "wrote notes.txt") && contains(l, "ask anything") })
	x.exit()
	if !contains(x.screen(), "resume this session with: zero --resume=") {
		t.Errorf("no resume hint on exit:\n%s", strings.Join(x.screen(), "\n"))
	}

	list, err := sessions.Open(store).List()
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions: %v %v", list, err)
	}
	s, err := sessions.Open(store).Load(list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	evs, _, err := s.Events()
	if err != nil {
		t.Fatal(err)
	}
	var req, dec *event.Event
	priced, endCost := 0, 0.0
	for i, e := range evs {
		switch e.Type {
		case event.PermissionRequest:
			req = &evs[i]
		case event.PermissionDecision:
			dec = &evs[i]
		case event.Usage:
			if e.CostUSD > 0 {
				priced++
			}
		case event.RunEnd:
			if e.Totals != nil {
				endCost = e.Totals.CostUSD
			}
		}
	}
	if req == nil || dec == nil {
		t.Fatalf("the log lacks the request (%v) or the decision (%v)", req != nil, dec != nil)
	}
	if req.Permission.Tool != "write_file" || req.Permission.Path != "notes.txt" || !strings.Contains(req.Permission.Diff, "+hello") {
		t.Errorf("request %+v", req.Permission)
	}
	if dec.Permission.ID != req.Permission.ID || dec.Permission.Decision != "allow_once" || dec.RunID == "" || dec.RunID != req.RunID {
		t.Errorf("decision %+v (run %q), request run %q", dec.Permission, dec.RunID, req.RunID)
	}
	if priced != 2 || endCost <= 0 {
		t.Errorf("%d priced usage events, run_end cost %v", priced, endCost)
	}
}
