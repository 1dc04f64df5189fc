package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// fakeRunner is a ShellRunner that prints out and exits with code, or,
// with block, runs until its context ends.
type fakeRunner struct {
	out          string
	code         int
	block        bool
	dir, command string
}

func (f *fakeRunner) RunShell(ctx context.Context, command, dir string) (ShellOutput, error) {
	f.command, f.dir = command, dir
	if f.block {
		<-ctx.Done()
		return ShellOutput{Output: "partial\n", ExitCode: 137}, ctx.Err()
	}
	return ShellOutput{Output: f.out, ExitCode: f.code}, nil
}

func TestBashRunsItsCommandWithTheContextsShellRunner(t *testing.T) {
	ws, _ := newWS(t, t.TempDir())
	run := func(ctx context.Context, o Options, args string) (Result, error) {
		return (&Bash{ws: ws, opts: o.withDefaults()}).Run(ctx, json.RawMessage(args))
	}
	r := &fakeRunner{out: strings.Repeat("x", 100) + "\n", code: 3}
	res, err := run(WithShellRunner(context.Background(), r), Options{BashOutputCap: 20}, `{"command":"make it"}`)
	if err != nil || r.command != "make it" || r.dir != ws.Root() {
		t.Fatalf("ran %q in %q: %v", r.command, r.dir, err)
	}
	if !res.IsError || *res.ExitCode != 3 || res.RawBytes != 101 || !strings.Contains(res.Content, "bytes omitted") || !strings.HasSuffix(res.Content, "[exit code 3]\n") {
		t.Errorf("result %+v", res)
	}
	// The timeout and the cancel run on synctest's clock.
	synctest.Test(t, func(t *testing.T) {
		block := &fakeRunner{block: true}
		res, err := run(WithShellRunner(context.Background(), block), Options{}, `{"command":"sleep","timeout_ms":50}`)
		if err != nil || !res.IsError || !strings.Contains(res.Content, "partial\n[timed out after 50ms") {
			t.Errorf("timeout: %+v, %v", res, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		res, err = run(WithShellRunner(ctx, block), Options{}, `{"command":"sleep"}`)
		if err == nil || !strings.Contains(res.Content, "[interrupted; the command was killed]") {
			t.Errorf("cancel: %+v, %v", res, err)
		}
	})
}
