package acp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/run"
)

// authRequired fails t unless err is ACP's auth_required (-32000) whose
// data names want.
func authRequired(t *testing.T, what string, err error, want string) {
	t.Helper()
	var re *acpsdk.RequestError
	if !errors.As(err, &re) || re.Code != -32000 {
		t.Fatalf("%s: %v, want auth_required (-32000)", what, err)
	}
	if !strings.Contains(fmt.Sprint(re.Data), want) {
		t.Errorf("%s: %v does not say to set %s", what, re.Data, want)
	}
}

// userConfig writes the isolated user config.
func userConfig(t *testing.T, body string) {
	t.Helper()
	cfg := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "zero", "config.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAPIKeyAuthMethodsNameTheirVariableAndChooseTheProvider(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	// The config picks Anthropic, whose key is missing; OpenAI's key is
	// set, its base URL at the fake server.
	userConfig(t, `{"activeProvider":"anthropic"}`)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	srv.Script(llmtest.Reply(llmtest.Text("Hello from the key's provider.")))
	b := startBridgeWith(t, run.Options{Workdir: dir}, &client{})
	ctx := context.Background()
	init, err := b.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]string{}
	for _, m := range init.AuthMethods {
		if m.Agent == nil || m.Agent.Description == nil {
			t.Fatalf("auth method %+v is not an agent method with a description", m)
		}
		methods[m.Agent.Id] = *m.Agent.Description
	}
	for id, env := range map[string]string{"zero-config": "", "openai-api-key": "OPENAI_API_KEY", "anthropic-api-key": "ANTHROPIC_API_KEY", "gemini-api-key": "GEMINI_API_KEY"} {
		if d, ok := methods[id]; !ok || !strings.Contains(d, env) {
			t.Errorf("auth method %s: %q (want one naming %q)", id, d, env)
		}
	}
	newSession := func() (acpsdk.NewSessionResponse, error) {
		return b.conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
	}
	_, err = newSession()
	authRequired(t, "session/new with Anthropic's key missing", err, "ANTHROPIC_API_KEY")
	_, err = b.conn.Authenticate(ctx, acpsdk.AuthenticateRequest{MethodId: "anthropic-api-key"})
	authRequired(t, "authenticate anthropic-api-key", err, "ANTHROPIC_API_KEY")

	if _, err := b.conn.Authenticate(ctx, acpsdk.AuthenticateRequest{MethodId: "openai-api-key"}); err != nil {
		t.Fatalf("authenticate openai-api-key with OPENAI_API_KEY set: %v", err)
	}
	s, err := newSession()
	if err != nil {
		t.Fatalf("session/new after openai-api-key: %v", err)
	}
	if got := b.prompt(t, s.SessionId, "hi"); got != acpsdk.StopReasonEndTurn {
		t.Errorf("stop reason %q", got)
	}
	if srv.Remaining() != 0 {
		t.Error("the prompt did not reach OpenAI's (fake) server")
	}

	// zero-config gives the choice back to the config.
	if _, err := b.conn.Authenticate(ctx, acpsdk.AuthenticateRequest{MethodId: "zero-config"}); err != nil {
		t.Fatal(err)
	}
	_, err = newSession()
	authRequired(t, "session/new after zero-config", err, "ANTHROPIC_API_KEY")

	// So does logout, which initialize advertises.
	if init.AgentCapabilities.Auth.Logout == nil {
		t.Error("initialize does not advertise logout")
	}
	if _, err := b.conn.Authenticate(ctx, acpsdk.AuthenticateRequest{MethodId: "openai-api-key"}); err != nil {
		t.Fatal(err)
	}
	if _, err := newSession(); err != nil {
		t.Fatalf("session/new after openai-api-key again: %v", err)
	}
	if _, err := b.conn.Logout(ctx, acpsdk.LogoutRequest{}); err != nil {
		t.Fatalf("logout: %v", err)
	}
	_, err = newSession()
	authRequired(t, "session/new after logout", err, "ANTHROPIC_API_KEY")
}

func TestResumeAndLoadWithoutTheKeyAreAuthRequired(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	srv.Script(llmtest.Reply(llmtest.Text("Hi.")))
	b := startBridge(t, srv, &client{})
	id := b.newSession(t, dir)
	b.prompt(t, id, "hi")
	b.close()

	userConfig(t, `{"activeProvider":"gemini"}`)
	b2 := startBridgeWith(t, run.Options{Workdir: dir}, &client{})
	ctx := context.Background()
	if _, err := b2.conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	_, err := b2.conn.LoadSession(ctx, acpsdk.LoadSessionRequest{SessionId: id, Cwd: dir, McpServers: []acpsdk.McpServer{}})
	authRequired(t, "session/load", err, "GEMINI_API_KEY")
	_, err = b2.conn.ResumeSession(ctx, acpsdk.ResumeSessionRequest{SessionId: id, Cwd: dir, McpServers: []acpsdk.McpServer{}})
	authRequired(t, "session/resume", err, "GEMINI_API_KEY")
}

// With nothing configured and no local server found, opening a session
// is auth_required too: the editor offers the API-key methods instead of
// showing an error the user cannot act on there; a config the user must
// fix is still invalid params.
func TestNoProviderAtAllIsAuthRequired(t *testing.T) {
	none := &run.UnconfiguredError{ConfigError: &run.ConfigError{Msg: "no model configured and no local server found: set OPENAI_API_KEY"}}
	authRequired(t, "nothing configured", openError(fmt.Errorf("open: %w", none)), "OPENAI_API_KEY")
	var re *acpsdk.RequestError
	if err := openError(&run.ConfigError{Msg: "config.json: bad"}); !errors.As(err, &re) || re.Code != -32602 {
		t.Errorf("a broken config: %v, want invalid params", err)
	}
}
