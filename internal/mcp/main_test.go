package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/mcp/mcpconfig"
	"github.com/zero-agent/zero/internal/mcp/mcptest"
	"github.com/zero-agent/zero/internal/tools"
)

func TestMain(m *testing.M) {
	if _, err := mcptest.Binary(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	mcptest.Cleanup()
	os.Exit(code)
}

// testServer is the mcptestserver command as a stdio server config.
func testServer(t *testing.T, name string, args ...string) mcpconfig.Server {
	t.Helper()
	bin, err := mcptest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	return mcpconfig.Server{Name: name, Transport: mcpconfig.Stdio, Command: bin, Args: args, Enabled: true}
}

// scriptServer is one of the case scripts under testdata as a server.
func scriptServer(name, script string) mcpconfig.Server {
	return mcpconfig.Server{Name: name, Transport: mcpconfig.Stdio, Command: "/bin/sh", Args: []string{script}, Enabled: true}
}

// recorder collects a manager's callbacks.
type recorder struct {
	mu       sync.Mutex
	statuses []Status
	log      []string
	changed  chan Status
	warnings chan string
}

func (r *recorder) options(t *testing.T) Options {
	r.changed = make(chan Status, 100)
	r.warnings = make(chan string, 100)
	return Options{
		LogDir: t.TempDir(),
		OnChange: func(s Status) {
			r.mu.Lock()
			r.statuses = append(r.statuses, s)
			r.mu.Unlock()
			select {
			case r.changed <- s:
			default:
			}
		},
		Warn: func(server, msg string) {
			r.mu.Lock()
			r.log = append(r.log, server+": "+msg)
			r.mu.Unlock()
			select {
			case r.warnings <- server + ": " + msg:
			default:
			}
		},
	}
}

func (r *recorder) warned() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.log...)
}

// waitState waits for a status change of server to state.
func (r *recorder) waitState(t *testing.T, server string, state State) Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		select {
		case s := <-r.changed:
			if s.Name == server && s.State == state {
				return s
			}
		case <-ctx.Done():
			t.Fatalf("server %s never became %s", server, state)
		}
	}
}

// nextWarning waits for the next warning.
func (r *recorder) nextWarning(t *testing.T) string {
	t.Helper()
	select {
	case w := <-r.warnings:
		return w
	case <-time.After(20 * time.Second):
		t.Fatal("no warning came")
		return ""
	}
}

func startManager(t *testing.T, opts Options, servers ...mcpconfig.Server) *Manager {
	t.Helper()
	m := &Manager{}
	m.Start(context.Background(), servers, opts)
	t.Cleanup(func() { m.Close() })
	return m
}

func waitNoFailures(t *testing.T, m *Manager) {
	t.Helper()
	if failed := m.Wait(context.Background()); len(failed) > 0 {
		t.Fatalf("servers failed: %+v", failed)
	}
}

func toolNamed(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %s among %d", name, len(m.Tools()))
	return nil
}

func call(t *testing.T, tl tools.Tool, args string) tools.Result {
	t.Helper()
	res, err := tl.Run(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s: %v", tl.Name(), err)
	}
	return res
}

func logText(t *testing.T, st Status) string {
	t.Helper()
	b, err := os.ReadFile(st.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func statusOf(m *Manager, name string) Status {
	for _, s := range m.Status() {
		if s.Name == name {
			return s
		}
	}
	return Status{}
}

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s does not contain %q:\n%s", what, w, got)
		}
	}
}
