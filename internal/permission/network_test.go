package permission

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/workspace"
)

// networkGate is a gate whose engine has sandbox.network "ask" on; it
// answers every request with the next of answers and records it.
func networkGate(t *testing.T, mode Mode, answers ...Decision) (*Gate, *[]Request) {
	t.Helper()
	ws, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	dir := t.TempDir()
	e, err := New(Config{Workspace: ws, Home: dir, ConfigDir: dir, Mode: mode, NetworkAsk: true})
	if err != nil {
		t.Fatal(err)
	}
	var asked []Request
	ask := func(_ context.Context, r Request) Decision {
		asked = append(asked, r)
		if len(answers) == 0 {
			t.Fatalf("asked once too often: %+v", r)
		}
		d := answers[0]
		answers = answers[1:]
		return d
	}
	return &Gate{Engine: e, Workspace: ws, Ask: ask}, &asked
}

func shellCall(cmd string) llm.ToolCall {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return llm.ToolCall{ID: "c1", Name: "bash", Arguments: string(b)}
}

// In auto-accept mode a command the table knows to need the network
// asks, naming it and its prefix; allowing the prefix for the session
// gives later commands of that prefix the network without asking, and
// not those of another prefix; commands the table does not know run
// offline without a question.
func TestNetworkAskGrantsPerPrefix(t *testing.T) {
	g, asked := networkGate(t, ModeAutoAccept, Decision{Choice: AllowSession, Prefix: "npm install"}, Decision{Choice: AllowOnce}, Decision{Choice: Reject})
	ctx := context.Background()
	o := g.Decide(ctx, shellCall("npm install lodash"), bashTool)
	if !o.Allow || !o.Network || len(*asked) != 1 {
		t.Fatalf("first npm install: %+v, asked %d", o, len(*asked))
	}
	r := (*asked)[0]
	if !r.Network || r.Prefix != "npm install" || r.Command != "npm install lodash" || !strings.Contains(r.Why, "needs the network (npm install)") {
		t.Errorf("request %+v", r)
	}
	if o := g.Decide(ctx, shellCall("npm install react --save"), bashTool); !o.Allow || !o.Network || len(*asked) != 1 {
		t.Errorf("the prefix grant did not cover npm install react: %+v, asked %d", o, len(*asked))
	}
	if o := g.Decide(ctx, shellCall("go test ./..."), bashTool); !o.Allow || o.Network || len(*asked) != 1 {
		t.Errorf("an unknown command must run offline without asking: %+v", o)
	}
	if o := g.Decide(ctx, shellCall("curl -s https://example.com"), bashTool); !o.Allow || !o.Network || len(*asked) != 2 {
		t.Errorf("curl is another prefix and must ask: %+v, asked %d", o, len(*asked))
	}
	if o := g.Decide(ctx, shellCall("curl -s https://example.com"), bashTool); len(*asked) != 3 || o.Allow {
		t.Errorf("allow once granted curl for later: %+v, asked %d", o, len(*asked))
	}
}

// A prefix grant for curl covers /usr/bin/curl (the same program, named
// by its path) but not ./curl, a program of the workspace's.
func TestNetworkGrantCoversTheSystemProgramsPath(t *testing.T) {
	g, asked := networkGate(t, ModeAutoAccept, Decision{Choice: AllowSession, Prefix: "curl"}, Decision{Choice: Reject})
	ctx := context.Background()
	if o := g.Decide(ctx, shellCall("curl -s https://example.com"), bashTool); !o.Allow || !o.Network || len(*asked) != 1 {
		t.Fatalf("first curl: %+v, asked %d", o, len(*asked))
	}
	if o := g.Decide(ctx, shellCall("/usr/bin/curl -s https://example.com/f"), bashTool); !o.Allow || !o.Network || len(*asked) != 1 {
		t.Errorf("the curl grant did not cover /usr/bin/curl: %+v, asked %d", o, len(*asked))
	}
	if o := g.Decide(ctx, shellCall("./curl https://example.com"), bashTool); o.Network || len(*asked) != 2 {
		t.Errorf("the curl grant covered ./curl: %+v, asked %d", o, len(*asked))
	}
}

// A denied network ask is refused (the command does not run) and the
// model is told why; deny_always saves a denial that refuses the same
// command without asking again.
func TestNetworkAskDenialRefuses(t *testing.T) {
	g, asked := networkGate(t, ModeAutoAccept, Decision{Choice: Reject, Reason: "not now"}, Decision{Choice: RejectAlways})
	ctx := context.Background()
	o := g.Decide(ctx, shellCall("go mod download"), bashTool)
	if o.Allow || o.Network || !strings.Contains(o.Reason, "asked to run with the network (go mod download); it did not run: not now") {
		t.Errorf("denied: %+v", o)
	}
	g.Decide(ctx, shellCall("git fetch origin"), bashTool)
	if o := g.Decide(ctx, shellCall("git fetch origin"), bashTool); o.Allow || len(*asked) != 2 || !strings.Contains(o.Reason, "rejected this always") {
		t.Errorf("a saved denial must refuse without asking: %+v, asked %d", o, len(*asked))
	}
}

// In normal mode the one question covers running the command and its
// network; a plain run grant of the prefix (given without the network)
// spares the run question but not the network's.
func TestNetworkAskInNormalModeIsOneQuestion(t *testing.T) {
	g, asked := networkGate(t, ModeNormal, Decision{Choice: AllowOnce}, Decision{Choice: AllowOnce})
	ctx := context.Background()
	o := g.Decide(ctx, shellCall("pip install requests"), bashTool)
	if !o.Allow || !o.Network || len(*asked) != 1 || (*asked)[0].Prefix != "pip install" || !strings.Contains((*asked)[0].Why, "shell commands ask in normal mode") {
		t.Fatalf("%+v %+v", o, *asked)
	}
	if err := g.Engine.Grant(Grant{Scope: ScopeSession, Tool: "bash", Command: "cargo build", Prefix: true}); err != nil {
		t.Fatal(err)
	}
	o = g.Decide(ctx, shellCall("cargo build --release"), bashTool)
	if !o.Allow || !o.Network || len(*asked) != 2 || (*asked)[1].Why == "" || !strings.Contains((*asked)[1].Why, "needs the network") {
		t.Errorf("a run grant must not give the network: %+v %+v", o, *asked)
	}
}

// With no one to ask (headless exec without -i stream-json) a command
// that needs the network runs offline, as with "off"; a sub-agent gate
// capped at plan mode never runs it.
func TestNetworkAskWithoutAPersonRunsOffline(t *testing.T) {
	g, _ := networkGate(t, ModeAutoAccept)
	g.Ask = nil
	if o := g.Decide(context.Background(), shellCall("npm ci"), bashTool); !o.Allow || o.Network {
		t.Errorf("headless: %+v", o)
	}
	g.Cap = ModePlan
	if o := g.Decide(context.Background(), shellCall("npm ci"), bashTool); o.Allow || o.Network {
		t.Errorf("plan-capped sub-agent: %+v", o)
	}
}

// "off" and "on" never ask about the network.
func TestNetworkOffEngineNeverAsks(t *testing.T) {
	ws, _ := workspace.New(t.TempDir())
	defer ws.Close()
	dir, _ := os.MkdirTemp("", "zero-net-")
	defer os.RemoveAll(dir)
	e, _ := New(Config{Workspace: ws, Home: dir, ConfigDir: dir, Mode: ModeAutoAccept})
	g := &Gate{Engine: e, Workspace: ws, Ask: func(context.Context, Request) Decision { t.Fatal("asked"); return Decision{} }}
	if o := g.Decide(context.Background(), shellCall("npm install"), bashTool); !o.Allow || o.Network {
		t.Errorf("%+v", o)
	}
}
