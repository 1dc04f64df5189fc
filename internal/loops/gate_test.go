package loops

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestGateJudgesMeasuredValueAgainstBar(t *testing.T) {
	tests := []struct {
		name        string
		parse, pass string
		stdout      string
		code        int
		want        bool
		value, err  string
	}{
		{"exit zero passes == 0", "exit", "== 0", "", 0, true, "0", ""},
		{"exit one fails == 0", "exit", "== 0", "", 1, false, "1", ""},
		{"default bar of exit is == 0", "exit", "", "", 0, true, "0", ""},
		{"json number meets >=", "json:.value", ">= 0.99", `{"value": 0.995}`, 0, true, "0.995", ""},
		{"json number under >= fails", "json:.value", ">= 0.99", `{"value": 0.97}`, 0, false, "0.97", ""},
		{"json nested path with index", "json:.results[1].ns", "<= 100", `{"results":[{"ns":500},{"ns":90}]}`, 0, true, "90", ""},
		{"json dotted index", "json:.results.0.ns", "< 600", `{"results":[{"ns":500}]}`, 0, true, "500", ""},
		{"json string ==", "json:.status", "== ok", `{"status":"ok"}`, 0, true, "ok", ""},
		{"json string == quoted", "json:.status", `== "all good"`, `{"status":"all good"}`, 0, true, "all good", ""},
		{"json bool true", "json:.ok", "true", `{"ok":true}`, 0, true, "true", ""},
		{"json bool false bar", "json:.ok", "false", `{"ok":true}`, 0, false, "true", ""},
		{"== compares numbers numerically", "json:.n", "== 1", `{"n":1.0}`, 0, true, "1", ""},
		{"!= differs", "json:.n", "!= 1", `{"n":2}`, 0, true, "2", ""},
		{"stdout contains", "stdout", "contains PASS", "ok 12 tests\nPASS\n", 0, true, "ok 12 tests\nPASS", ""},
		{"stdout lacks", "stdout", "contains PASS", "FAIL\n", 0, false, "FAIL", ""},
		{"stdout number >", "stdout", "> 3", " 4\n", 0, true, "4", ""},
		{"missing key fails with reason", "json:.value", ">= 1", `{"other": 2}`, 0, false, "", `no key "value"`},
		{"not JSON fails with exit code", "json:.value", ">= 1", `panic: boom`, 2, false, "", "exited 2"},
		{"string against >= fails with reason", "json:.v", ">= 1", `{"v":"fast"}`, 0, false, "fast", "needs a number"},
		{"object value fails", "json:.v", "== 1", `{"v":{"a":1}}`, 0, false, "", "object or array"},
		{"index out of range", "json:.a[3]", "== 1", `{"a":[1]}`, 0, false, "", "no index 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Gate{Name: "g", Run: "x", Parse: tt.parse, Pass: tt.pass}
			if err := g.normalize(); err != nil {
				t.Fatalf("normalize: %v", err)
			}
			r := g.Judge(tt.stdout, tt.code, time.Second)
			if r.Pass != tt.want || r.Value != tt.value {
				t.Fatalf("got pass=%v value=%q err=%q, want pass=%v value=%q", r.Pass, r.Value, r.Error, tt.want, tt.value)
			}
			if (tt.err == "") != (r.Error == "") || !strings.Contains(r.Error, tt.err) {
				t.Fatalf("error %q, want one containing %q", r.Error, tt.err)
			}
		})
	}
}

func TestGateDefinitionErrorsAreRefused(t *testing.T) {
	tests := []struct {
		g    Gate
		want string
	}{
		{Gate{Run: "x"}, "needs a name"},
		{Gate{Name: "a"}, "needs a run command"},
		{Gate{Name: "a", Run: "x", Parse: "yaml:.v"}, `want "exit", "stdout" or "json:.path"`},
		{Gate{Name: "a", Run: "x", Parse: "json:value", Pass: "== 1"}, `must start with "."`},
		{Gate{Name: "a", Run: "x", Parse: "json:.a..b", Pass: "== 1"}, "empty step"},
		{Gate{Name: "a", Run: "x", Parse: "json:.v"}, "needs a pass bar"},
		{Gate{Name: "a", Run: "x", Pass: ">= fast"}, ">= needs a number"},
		{Gate{Name: "a", Run: "x", Pass: "=="}, "needs a value"},
		{Gate{Name: "a", Run: "x", Pass: "about 3"}, `want ">= N"`},
	}
	for _, tt := range tests {
		err := tt.g.normalize()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want %q", tt.g, err, tt.want)
		}
	}
}

func TestRunGateRunsTheCommandInWorkdir(t *testing.T) {
	dir := t.TempDir()
	g := Gate{Name: "pwd", Run: `printf '{"dir":"%s"}' "$(pwd)"; exit 3`, Parse: "json:.dir", Pass: "contains " + dir}
	if err := g.normalize(); err != nil {
		t.Fatal(err)
	}
	if r := RunGate(context.Background(), g, dir); !r.Pass || r.Value != dir {
		t.Fatalf("result %+v", r)
	}
	code := Gate{Name: "code", Run: "exit 3"}
	code.normalize()
	if r := RunGate(context.Background(), code, dir); r.Pass || r.Value != "3" {
		t.Fatalf("exit 3 against == 0: %+v", r)
	}
}

func TestRunGateTimesOut(t *testing.T) {
	g := Gate{Name: "slow", Run: "sleep 30", Timeout: Duration(50 * time.Millisecond)}
	g.normalize()
	r := RunGate(context.Background(), g, t.TempDir())
	if r.Pass || !strings.Contains(r.Error, "timed out after 50ms") {
		t.Fatalf("result %+v", r)
	}
}
