package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/testbin"
)

// numbered returns n lines "row 1\n" … "row n\n".
func numbered(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		sb.WriteString("row " + strconv.Itoa(i) + "\n")
	}
	return sb.String()
}

// testBackend builds a RunBackend over a real runtime pointed at a fake
// OpenAI-compatible server, in a fresh workspace, home and session store.
func testBackend(t *testing.T, srv *llmtest.Server) (*RunBackend, string) {
	t.Helper()
	testbin.Isolate(t)
	dir := run.CanonicalDir(t.TempDir())
	return testBackendIn(t, srv, dir), dir
}

// testBackendIn is testBackend in a workspace dir the test set up, in a
// home it already isolated.
func testBackendIn(t *testing.T, srv *llmtest.Server, dir string) *RunBackend {
	t.Helper()
	var stderr bytes.Buffer
	rt, err := run.Open(run.Options{Workdir: dir, Overrides: config.Overrides{BaseURL: srv.URL() + "/v1", Model: "m"}, Stderr: &stderr})
	if err != nil {
		t.Fatalf("runtime: %v (%s)", err, stderr.String())
	}
	t.Cleanup(rt.Close)
	sess, err := rt.OpenSession(run.Which{})
	if err != nil {
		t.Fatal(err)
	}
	b := NewRunBackend(rt, sess)
	t.Cleanup(b.Close)
	return b
}

// TestPermissionPromptCarriesThePreview: through Run, the prompt for an
// edit shows the file's line numbers, and the note rides on Why when the
// edit would not apply.
func TestPermissionPromptCarriesThePreview(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, dir := testBackend(t, srv)
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(numbered(60)), 0o644)
	srv.Script(
		llmtest.Reply(llmtest.ToolCall("edit_file", `{"path":"f.txt","old_string":"row 50","new_string":"ROW FIFTY"}`)),
		llmtest.Reply(llmtest.ToolCall("edit_file", `{"path":"f.txt","old_string":"no such row","new_string":"x"}`)),
		llmtest.Reply(llmtest.Text("done")),
	)
	var reqs []PermissionRequest
	approve := func(ctx context.Context, r PermissionRequest) Decision {
		reqs = append(reqs, r)
		return Decision{Choice: AllowOnce}
	}
	b.Run(context.Background(), Turn{Prompt: "edit", Mode: ModeNormal, Approve: approve}, event.SinkFunc(func(event.Event) {}))
	if len(reqs) != 2 {
		t.Fatalf("%d permission requests, want 2", len(reqs))
	}
	if !strings.Contains(reqs[0].Diff, "@@ -47,7 +47,7 @@") || !strings.Contains(reqs[0].Diff, "-row 50\n+ROW FIFTY\n") {
		t.Errorf("first prompt diff:\n%s", reqs[0].Diff)
	}
	if strings.Contains(reqs[0].Why, "preview:") {
		t.Errorf("first prompt why %q carries a note", reqs[0].Why)
	}
	if !strings.Contains(reqs[1].Why, "old_string not found") || !strings.Contains(reqs[1].Diff, "-no such row\n") || !strings.Contains(reqs[1].Diff, "+x\n") {
		t.Errorf("second prompt why %q diff %q", reqs[1].Why, reqs[1].Diff)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
	if !strings.Contains(string(got), "\nROW FIFTY\n") {
		t.Errorf("the approved edit did not land")
	}
}

// TestFooterTokensFollowTheEstimate: when the server sends no usage for
// the latest request, the footer's count after a run (and after /compact,
// /resume, /clear) is the estimate /context reports, marked Estimated;
// a server report for the latest request wins.
func TestFooterTokensFollowTheEstimate(t *testing.T) {
	long := strings.Repeat("a long answer line that fills the history. ", 200)
	for _, tc := range []struct {
		name      string
		turns     []llmtest.Turn
		wantUsed  int // 0: the /context estimate
		wantExact bool
	}{
		{name: "no usage at all", turns: []llmtest.Turn{llmtest.Reply(llmtest.Text(long))}},
		{name: "usage on the only request", turns: []llmtest.Turn{llmtest.Reply(llmtest.Text(long), llmtest.Usage(4000, 700))}, wantUsed: 4700, wantExact: true},
		{
			name: "usage on the tool request, none on the last",
			turns: []llmtest.Turn{
				llmtest.Reply(llmtest.ToolCall("list_dir", `{"path":"."}`), llmtest.Usage(900, 20)),
				llmtest.Reply(llmtest.Text(long)),
			},
		},
		{
			name: "no usage on the tool request, usage on the last",
			turns: []llmtest.Turn{
				llmtest.Reply(llmtest.ToolCall("list_dir", `{"path":"."}`)),
				llmtest.Reply(llmtest.Text(long), llmtest.Usage(5100, 640)),
			},
			wantUsed: 5740, wantExact: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			b, _ := testBackend(t, srv)
			before := b.Info()
			if !before.Estimated || before.UsedTokens <= 0 {
				t.Fatalf("start info %+v, want a positive estimate", before)
			}
			srv.Script(tc.turns...)
			stop := b.Run(context.Background(), Turn{Prompt: "go", Mode: ModeAutoAccept}, event.SinkFunc(func(event.Event) {}))
			if stop != event.StopCompleted {
				t.Fatalf("stop %q", stop)
			}
			got := b.Info()
			want := tc.wantUsed
			if !tc.wantExact {
				want = b.Session().ContextReport().UsedTokens
				if want <= before.UsedTokens {
					t.Fatalf("estimate %d did not grow from %d: the test reply is too short", want, before.UsedTokens)
				}
			}
			if got.UsedTokens != want || got.Estimated == tc.wantExact {
				t.Errorf("info after the run: %d estimated=%v, want %d estimated=%v", got.UsedTokens, got.Estimated, want, !tc.wantExact)
			}
		})
	}
}

// TestFooterTokensAfterSessionChanges: /compact, /resume and /clear leave
// the footer at the estimate of the history they leave in place.
func TestFooterTokensAfterSessionChanges(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, _ := testBackend(t, srv)
	long := strings.Repeat("words that make the history long enough to count. ", 40)
	var turns []llmtest.Turn
	for i := range 4 {
		turns = append(turns, llmtest.Reply(llmtest.Text(long), llmtest.Usage(1000*(i+1), 300)))
	}
	srv.Script(turns...)
	for range 4 {
		if stop := b.Run(context.Background(), Turn{Prompt: "go on", Mode: ModeNormal}, event.SinkFunc(func(event.Event) {})); stop != event.StopCompleted {
			t.Fatalf("stop %q", stop)
		}
	}
	first := b.Info().SessionID
	check := func(step string) {
		t.Helper()
		got, want := b.Info(), b.Session().ContextReport().UsedTokens
		if got.UsedTokens != want || !got.Estimated {
			t.Errorf("after %s: %d estimated=%v, want the estimate %d", step, got.UsedTokens, got.Estimated, want)
		}
	}
	if got := b.Info(); got.Estimated || got.UsedTokens != 4300 {
		t.Fatalf("after runs with usage: %+v, want the server's 4300", got)
	}
	srv.Script(llmtest.Reply(llmtest.Text("summary of the work so far"), llmtest.Usage(8000, 10)))
	if _, err := b.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("/compact")
	if _, err := b.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("/clear")
	cleared := b.Info().UsedTokens
	if _, err := b.Resume(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	check("/resume")
	if b.Info().UsedTokens <= cleared {
		t.Errorf("resumed estimate %d not above the empty session's %d", b.Info().UsedTokens, cleared)
	}
}

// TestResumeUnknownPointsToSessions: inside the app a missing session
// points to /sessions, not to the zero sessions command.
func TestResumeUnknownPointsToSessions(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, _ := testBackend(t, srv)
	held := b.Info().SessionID
	// A prompt makes the session one worth keeping (one with no prompt
	// is not kept when the app leaves it).
	srv.Script(llmtest.Reply(llmtest.Text("hi")))
	if stop := b.Run(context.Background(), Turn{Prompt: "hello", Mode: ModeNormal}, event.SinkFunc(func(event.Event) {})); stop != event.StopCompleted {
		t.Fatalf("stop %q", stop)
	}
	if _, err := b.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	other, err := b.rt.Store.Load(held)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Lock(); err != nil { // as another zero would
		t.Fatal(err)
	}
	defer other.Close()
	id := b.Info().SessionID
	for _, tc := range []struct {
		arg     string
		want    string // the whole error, or for a success the resumed id
		wantErr bool
	}{
		{arg: "nope", want: `no session "nope" (/sessions lists them)`, wantErr: true},
		{arg: held, want: "session " + held + " is in use by another zero process (pid " + strconv.Itoa(os.Getpid()) + "): session is in use; quit that zero first, or pick another with /sessions", wantErr: true},
		{arg: id, want: id}, // the open session: no clash with its own lock
	} {
		r, err := b.Resume(context.Background(), tc.arg)
		if (err != nil) != tc.wantErr {
			t.Fatalf("Resume(%q) err = %v", tc.arg, err)
		}
		if err != nil {
			if err.Error() != tc.want || strings.Contains(err.Error(), "zero sessions") || strings.Contains(err.Error(), "--fork") {
				t.Errorf("Resume(%q) = %q, want %q", tc.arg, err, tc.want)
			}
		} else if r.ID != tc.want {
			t.Errorf("Resume(%q) resumed %q", tc.arg, r.ID)
		}
		if b.Info().SessionID != id {
			t.Errorf("Resume(%q) left the app in session %q, want %q", tc.arg, b.Info().SessionID, id)
		}
	}
}

// TestShellInterruptReadsAsAnInterruption: a !command cut short by the
// user is a result with its output so far, the interruption line and the
// killed status, not an error reading "context canceled".
func TestShellInterruptReadsAsAnInterruption(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, dir := testBackend(t, srv)
	for _, tc := range []struct {
		name    string
		command string
		ready   string // a file the command creates once its output is written
		want    []string
	}{
		{name: "cancelled before it ran", command: "sleep 30", want: []string{"[interrupted; process group killed]"}},
		{name: "cancelled while running", command: "echo started; touch ready; sleep 30", ready: "ready", want: []string{"started\n", "[interrupted; process group killed]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			if tc.ready == "" {
				cancel()
			} else {
				go func() {
					defer cancel()
					for {
						if _, err := os.Stat(filepath.Join(dir, tc.ready)); err == nil {
							return
						}
						select {
						case <-ctx.Done():
							return
						case <-time.After(time.Millisecond): // poll, no timing asserted
						}
					}
				}()
			}
			res := b.Shell(ctx, tc.command, ModeNormal)
			cancel()
			if res.Err != nil || !res.Interrupted {
				t.Fatalf("Err = %v, Interrupted = %v, want an interrupted result", res.Err, res.Interrupted)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Output, w) {
					t.Errorf("output %q lacks %q", res.Output, w)
				}
			}
			if res.ExitCode != 128+9 {
				t.Errorf("exit %d, want %d (killed)", res.ExitCode, 128+9)
			}
			if strings.Contains(res.Output, "context canceled") {
				t.Errorf("output %q", res.Output)
			}
		})
	}
	// A command that ends on its own is unchanged.
	res := b.Shell(context.Background(), "echo hi; exit 3", ModeNormal)
	if res.Err != nil || res.ExitCode != 3 || !strings.Contains(res.Output, "hi\n") || strings.Contains(res.Output, "interrupted") {
		t.Errorf("plain command: %+v", res)
	}
}

// TestShiftTabShowsInContextAtOnce: a mode switch between turns reaches
// the session before the next prompt, so /context counts plan mode's
// tools right away (QA: it showed the previous mode until a prompt).
func TestShiftTabShowsInContextAtOnce(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, _ := testBackend(t, srv)
	before := b.Session().ContextReport().Tools
	b.SetMode(ModePlan)
	after := b.Session().ContextReport().Tools
	if after >= before || after == 0 {
		t.Fatalf("tool schemas %d in normal mode, %d after switching to plan", before, after)
	}
	b.SetMode(ModeNormal)
	if got := b.Session().ContextReport().Tools; got != before {
		t.Fatalf("back in normal mode: %d tools, want %d", got, before)
	}
}

// TestResumeOfAnotherWorkspaceWarnsInTheApp: /resume of a session from
// another workspace carries the warning into the transcript's text (the
// app sends the runtime's own warnings nowhere: RunApp's SetWarnings(nil),
// so none lands on its screen).
func TestResumeOfAnotherWorkspaceWarnsInTheApp(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, _ := testBackend(t, srv)
	other := run.CanonicalDir(t.TempDir())
	var stderr bytes.Buffer
	rt2, err := run.Open(run.Options{Workdir: other, Overrides: config.Overrides{BaseURL: srv.URL() + "/v1", Model: "m"}, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer rt2.Close()
	s2, err := rt2.OpenSession(run.Which{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Script(llmtest.Reply(llmtest.Text("ok")))
	s2.Prompt(context.Background(), run.Turn{Prompt: "elsewhere"})
	s2.Close()
	b.rt.SetWarnings(nil) // as RunApp does
	r, err := b.Resume(context.Background(), s2.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "was in "+other) {
		t.Fatalf("warnings %q", r.Warnings)
	}
	if text := strings.Join(resumedLines(r, 1000), "\n"); !strings.Contains(text, "! session "+s2.ID()+" was in") {
		t.Errorf("the transcript text lacks the warning:\n%s", text)
	}
}

// Every line the user enters, in every session, is recalled by later
// sessions of the workspace as typed (a command as /name args, not its
// expansion), and a queued message as it was finally sent.
func TestPromptHistoryKeepsEveryTypedLineAcrossSessions(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, dir := testBackend(t, srv)
	d := newDriver(t, b, Options{})
	for _, line := range []string{"/greet Ann", "second prompt"} {
		d.m.remember(line)
	}
	next := testBackendIn(t, srv, dir)
	if got := next.PromptHistory(); !reflect.DeepEqual(got, []string{"/greet Ann", "second prompt"}) {
		t.Fatalf("history %q", got)
	}
}

// /status names the model, endpoint, window, mode, session and MCP
// servers; /cost sums the usage the server reported.
func TestStatusAndCostReports(t *testing.T) {
	srv := llmtest.NewServer(t)
	b, _ := testBackend(t, srv)
	srv.Script(llmtest.Reply(llmtest.Text("hi"), llmtest.Usage(900, 20)))
	b.Run(context.Background(), Turn{Prompt: "hello"}, event.SinkFunc(func(event.Event) {}))
	status, err := b.Report(context.Background(), ReportStatus)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"model      m (", "endpoint   " + srv.URL(), "mode       normal", "session    " + b.Session().ID(), "events.jsonl", "mcp        none configured"} {
		if !strings.Contains(status, want) {
			t.Errorf("/status lacks %q:\n%s", want, status)
		}
	}
	cost, _ := b.Report(context.Background(), ReportCost)
	for _, want := range []string{"1 request this session", "input   900 tokens", "output  20 tokens", "cost    unknown"} {
		if !strings.Contains(cost, want) {
			t.Errorf("/cost lacks %q:\n%s", want, cost)
		}
	}
}
