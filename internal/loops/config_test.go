package loops

import (
	"strings"
	"testing"
	"time"
)

const fullConfig = `
[schedule]
heartbeat = "45m"
deadline  = "2026-06-13T11:00:00-05:00"

[contract]
require_state_append = true
require_next_action  = false

[[gate]]
name  = "quality"
run   = "measure"
parse = "json:.value"
pass  = ">= 0.99"

[[gate]]
name = "tests"
run  = "go test ./..."

[budget]
max_wakes  = 200
max_tokens = 5000
on_exhaust = "pause"

[stop]
when_gates_pass = true

[run]
workdir = "/src/app"
`

func TestParseConfigReadsEverySection(t *testing.T) {
	c, err := ParseConfig([]byte(fullConfig))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Date(2026, 6, 13, 16, 0, 0, 0, time.UTC)
	if time.Duration(c.Schedule.Heartbeat) != 45*time.Minute || !c.Schedule.Deadline.Equal(deadline) {
		t.Fatalf("schedule %+v", c.Schedule)
	}
	if !c.Contract.RequireStateAppend || c.Contract.RequireNextAction {
		t.Fatalf("contract %+v", c.Contract)
	}
	if len(c.Gates) != 2 || c.Gates[0].Parse != "json:.value" || c.Gates[1].Parse != "exit" || c.Gates[1].Pass != "== 0" ||
		time.Duration(c.Gates[1].Timeout) != DefaultGateTimeout {
		t.Fatalf("gates %+v", c.Gates)
	}
	if c.Budget != (Budget{MaxWakes: 200, MaxTokens: 5000, OnExhaust: "pause"}) || !c.Stop.WhenGatesPass || c.Run.Workdir != "/src/app" {
		t.Fatalf("budget %+v stop %+v run %+v", c.Budget, c.Stop, c.Run)
	}
}

func TestParseConfigDefaults(t *testing.T) {
	c, err := ParseConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	if time.Duration(c.Schedule.Heartbeat) != DefaultHeartbeat || !c.Contract.RequireStateAppend || !c.Contract.RequireNextAction ||
		c.Budget.OnExhaust != "pause" || !c.Schedule.Deadline.IsZero() {
		t.Fatalf("defaults %+v", c)
	}
	bare, err := ParseConfig([]byte("[schedule]\ndeadline = 2026-06-13T11:00:00Z\n"))
	if err != nil || !bare.Schedule.Deadline.Equal(time.Date(2026, 6, 13, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("bare TOML date-time: %v %+v", err, bare)
	}
}

func TestParseConfigRefusesBadInput(t *testing.T) {
	tests := []struct{ toml, want string }{
		{"[schedule]\nhartbeat = \"30m\"\n", "unknown key schedule.hartbeat"},
		{"[schedule]\nheartbeat = \"soon\"\n", "invalid duration"},
		{"[schedule]\nheartbeat = \"0s\"\n", "more than 0s"},
		{"[schedule]\nheartbeat = 30\n", "duration string"},
		{"[schedule]\ndeadline = \"tomorrow\"\n", "RFC 3339"},
		{"[budget]\non_exhaust = \"stop\"\n", `only "pause" is supported`},
		{"[budget]\nmax_wakes = -1\n", "must not be negative"},
		{"[[gate]]\nname = \"a\"\nrun = \"x\"\n[[gate]]\nname = \"a\"\nrun = \"y\"\n", `name "a" is used twice`},
		{"[[gate]]\nname = \"a\"\nrun = \"x\"\npass = \"~ 3\"\n", `[[gate]] 1 ("a")`},
		{"[schedule\n", "At line 2"},
		// toml reports this at line 0 (testdata/fuzz/FuzzParseConfig/2bf3c038869e8a9d)
		{"\"\r\n", "loop.toml: toml: "},
	}
	for _, tt := range tests {
		_, err := ParseConfig([]byte(tt.toml))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.toml, err, tt.want)
		}
	}
}

func TestGatesHashChangesOnlyWithTheGates(t *testing.T) {
	a, _ := ParseConfig([]byte(fullConfig))
	b, _ := ParseConfig([]byte(strings.Replace(fullConfig, "max_wakes  = 200", "max_wakes = 300", 1)))
	c, _ := ParseConfig([]byte(strings.Replace(fullConfig, ">= 0.99", ">= 0.5", 1)))
	d, _ := ParseConfig([]byte(strings.Replace(fullConfig, `run  = "go test ./..."`, "run = \"go test ./...\"\npass = \"== 0\"", 1)))
	if a.GatesHash() != b.GatesHash() {
		t.Error("a budget edit changed the gates hash")
	}
	if a.GatesHash() == c.GatesHash() {
		t.Error("lowering a bar kept the gates hash")
	}
	if a.GatesHash() != d.GatesHash() {
		t.Error("spelling out a default changed the gates hash")
	}
}

func TestTemplatesParseAndArm(t *testing.T) {
	for name, tpl := range templates {
		c, err := ParseConfig([]byte(tpl.config + "\n[run]\nworkdir = \"/w\"\n"))
		if err != nil {
			t.Errorf("template %s: %v", name, err)
			continue
		}
		if len(c.Gates) == 0 || c.Budget.MaxWakes == 0 {
			t.Errorf("template %s has no gates or no wake budget: %+v", name, c)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(fullConfig))
	for _, tpl := range templates {
		f.Add([]byte(tpl.config))
	}
	f.Add([]byte("[[gate]]\nname=\"x\"\nrun=\"y\"\nparse=\"json:.a[0]\"\npass=\"contains z\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			return
		}
		// what parses is usable: defaults filled, bars readable, hash stable
		if c.Schedule.Heartbeat <= 0 || c.Budget.OnExhaust != "pause" {
			t.Fatalf("accepted %+v", c)
		}
		for _, g := range c.Gates {
			if _, err := parseBar(g.Pass); err != nil {
				t.Fatalf("accepted gate %+v: %v", g, err)
			}
			g.Judge("{}", 0, 0)
		}
		if c.GatesHash() != c.GatesHash() {
			t.Fatal("unstable hash")
		}
	})
}
