package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

// inMemory starts a Manager whose one server, "mem", is srv over the
// SDK's in-memory transport (usable inside a synctest bubble).
func inMemory(t *testing.T, srv *mcp.Server, cfg mcpconfig.Server, opts Options) *Manager {
	t.Helper()
	opts.dial = func(mcpconfig.Server) mcp.Transport {
		client, server := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(context.Background(), server, nil); err != nil {
			t.Error(err)
		}
		return client
	}
	cfg.Name, cfg.Enabled = "mem", true
	m := &Manager{}
	m.Start(context.Background(), []mcpconfig.Server{cfg}, opts)
	if failed := m.Wait(context.Background()); len(failed) > 0 {
		t.Fatalf("in-memory server failed: %+v", failed)
	}
	return m
}

func TestToolCallWithoutProgressTimesOutAfterTenMinutes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := inMemory(t, mcptest.NewServer(mcptest.Options{}), mcpconfig.Server{}, Options{})
		defer m.Close()
		start := time.Now()
		got := call(t, toolNamed(t, m, "mcp__mem__slow"), `{}`)
		if !got.IsError || !strings.Contains(got.Content, "timed out") || !strings.Contains(got.Content, "10m0s") {
			t.Errorf("slow call: %+v", got)
		}
		if d := time.Since(start); d != DefaultToolTimeout {
			t.Errorf("timed out after %v, want %v", d, DefaultToolTimeout)
		}
	})
}

func TestProgressNotificationsKeepACallAlive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := inMemory(t, mcptest.NewServer(mcptest.Options{}), mcpconfig.Server{ToolTimeout: 2 * time.Minute}, Options{})
		defer m.Close()
		start := time.Now()
		// Progress every minute for 30 minutes, against a 2-minute timeout.
		got := call(t, toolNamed(t, m, "mcp__mem__slow"), `{"progress_ms":60000,"finish_ms":1800000}`)
		if got.IsError || got.Content != "finished" {
			t.Errorf("slow call with progress: %+v", got)
		}
		if d := time.Since(start); d != 30*time.Minute {
			t.Errorf("finished after %v", d)
		}
	})
}

func TestCancelledTurnCancelsTheCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := inMemory(t, mcptest.NewServer(mcptest.Options{}), mcpconfig.Server{}, Options{})
		defer m.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := toolNamed(t, m, "mcp__mem__slow").Run(ctx, json.RawMessage(`{}`))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("cancelled call returned %v", err)
		}
	})
}

// notifications/tools/list_changed refreshes the list; when the refresh
// fails the last good list stays.
func TestToolListChangedRefreshesAndAFailedRefreshKeepsTheLastList(t *testing.T) {
	for _, fail := range []bool{false, true} {
		var r recorder
		opts := r.options(t)
		m := inMemory(t, mcptest.NewServer(mcptest.Options{}), mcpconfig.Server{}, opts)
		before := len(m.Tools())
		args := `{"fail":false}`
		if fail {
			args = `{"fail":true}`
		}
		if got := call(t, toolNamed(t, m, "mcp__mem__change"), args); got.Content != "changed" {
			t.Fatalf("change: %+v", got)
		}
		if fail {
			if w := r.nextWarning(t); !strings.Contains(w, "keeping the last good list") {
				t.Errorf("warning: %q", w)
			}
			if n := len(m.Tools()); n != before {
				t.Errorf("after a failed refresh: %d tools, want the %d before", n, before)
			}
		} else {
			for st := r.waitState(t, "mem", StateConnected); st.Tools != before+1; st = r.waitState(t, "mem", StateConnected) {
			}
			toolNamed(t, m, "mcp__mem__added")
		}
		m.Close()
	}
}

func TestCloseEndsACallInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := inMemory(t, mcptest.NewServer(mcptest.Options{}), mcpconfig.Server{}, Options{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			res, err := toolNamed(t, m, "mcp__mem__slow").Run(context.Background(), json.RawMessage(`{}`))
			if err == nil && !res.IsError {
				t.Errorf("call ended by Close: %+v", res)
			}
		}()
		time.Sleep(time.Minute)
		m.Close()
		<-done
		if st := statusOf(m, "mem"); st.State == StateConnected {
			t.Errorf("status after Close: %+v", st)
		}
	})
}

func TestElicitationBecomesAQuestionAndTheAnswerReturns(t *testing.T) {
	var got event.Question
	m := inMemory(t, mcptest.NewServer(mcptest.Options{}), mcpconfig.Server{}, Options{
		Elicit: func(_ context.Context, q event.Question) event.QuestionAnswer {
			got = q
			return event.QuestionAnswer{Action: ask.Accept, Values: map[string]any{"name": "Ada", "count": int64(3), "agree": true, "color": "green"}}
		},
	})
	defer m.Close()
	res := call(t, toolNamed(t, m, "mcp__mem__elicit"), `{}`)
	if res.IsError || res.Content != "accept agree=true color=green count=3 name=Ada" {
		t.Fatalf("result %+v", res)
	}
	if got.From != "mcp:mem" || got.Message != "Who is there?" || len(got.Fields) != 4 {
		t.Fatalf("question %+v", got)
	}
	kinds := map[string]string{}
	for _, f := range got.Fields {
		kinds[f.Name] = f.Kind
	}
	want := map[string]string{"agree": "boolean", "color": "choice", "count": "integer", "name": "text"}
	for k, v := range want {
		if kinds[k] != v {
			t.Errorf("field %s is %q, want %q", k, kinds[k], v)
		}
	}
}

func TestElicitationWithoutAnAskerIsNotAdvertised(t *testing.T) {
	m := inMemory(t, mcptest.NewServer(mcptest.Options{}), mcpconfig.Server{}, Options{})
	defer m.Close()
	res := call(t, toolNamed(t, m, "mcp__mem__elicit"), `{}`)
	// The SDK's server refuses to elicit from a client without the
	// capability; the call fails instead of hanging.
	if !res.IsError {
		t.Fatalf("result %+v", res)
	}
}

func TestDeclinedElicitationReachesTheServer(t *testing.T) {
	m := inMemory(t, mcptest.NewServer(mcptest.Options{}), mcpconfig.Server{}, Options{
		Elicit: func(context.Context, event.Question) event.QuestionAnswer { return ask.Declined() },
	})
	defer m.Close()
	if res := call(t, toolNamed(t, m, "mcp__mem__elicit"), `{}`); res.Content != "decline" {
		t.Fatalf("result %+v", res)
	}
}
