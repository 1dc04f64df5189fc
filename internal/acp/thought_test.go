package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/run"
)

func TestThoughtLevelIsAnOptionOfAReasoningModelAndSetsTheEffort(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	// Anthropic's API (here the fake server) with a model the catalog
	// knows to reason.
	cfg := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "zero", "config.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ACP_TEST_KEY", "k")
	body := `{"providers":[{"name":"o","kind":"anthropic","baseURL":"` + srv.URL() + `","apiKeyEnv":"ACP_TEST_KEY","model":"claude-sonnet-4-5"}],"activeProvider":"o"}`
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Script(llmtest.Reply(llmtest.Text("Hi.")), llmtest.Reply(llmtest.Text("Hi again.")))
	b := startBridgeWith(t, run.Options{}, &client{})
	id := b.newSession(t, dir)
	ctx := context.Background()
	set := func(value string) []acpsdk.SessionConfigOption {
		t.Helper()
		resp, err := b.conn.SetSessionConfigOption(ctx, acpsdk.SetSessionConfigOptionRequest{ValueId: &acpsdk.SetSessionConfigOptionValueId{SessionId: id, ConfigId: "thought_level", Value: acpsdk.SessionConfigValueId(value)}})
		if err != nil {
			t.Fatalf("set thought_level %s: %v", value, err)
		}
		return resp.ConfigOptions
	}
	opts := set("high")
	if len(opts) != 3 || opts[2].Select.Category == nil || *opts[2].Select.Category != acpsdk.SessionConfigOptionCategoryThoughtLevel || opts[2].Select.CurrentValue != "high" {
		t.Fatalf("config options %s", jsonOf(opts))
	}
	for _, want := range []string{`"default"`, `"low"`, `"medium"`, `"high"`} {
		if !strings.Contains(jsonOf(opts[2].Select.Options), want) {
			t.Errorf("thought levels %s lack %s", jsonOf(opts[2].Select.Options), want)
		}
	}
	b.prompt(t, id, "hi")
	// High is Anthropic's largest thinking budget (providers/anthropic).
	if body := lastMessages(srv); !strings.Contains(body, `"thinking":{"budget_tokens":24576,"type":"enabled"}`) {
		t.Errorf("the request does not ask for high effort: %s", body)
	}
	set("default")
	b.prompt(t, id, "hi again")
	if body := lastMessages(srv); strings.Contains(body, `"thinking"`) {
		t.Errorf("the default level still sends an effort: %s", body)
	}
	if _, err := b.conn.SetSessionConfigOption(ctx, acpsdk.SetSessionConfigOptionRequest{ValueId: &acpsdk.SetSessionConfigOptionValueId{SessionId: id, ConfigId: "thought_level", Value: "extreme"}}); err == nil {
		t.Error("an unknown thought level was accepted")
	}
}

func TestThoughtLevelIsNotOfferedWhereNoEffortWorks(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := workspace(t)
	b := startBridge(t, srv, &client{}) // an OpenAI-compatible server, model "m"
	id := b.newSession(t, dir)
	_, err := b.conn.SetSessionConfigOption(context.Background(), acpsdk.SetSessionConfigOptionRequest{ValueId: &acpsdk.SetSessionConfigOptionValueId{SessionId: id, ConfigId: "thought_level", Value: "high"}})
	if err == nil || !strings.Contains(err.Error(), "no thought level") {
		t.Errorf("setting a thought level where none works: %v", err)
	}
}

// lastMessages is the body of the last Messages request srv got.
func lastMessages(srv *llmtest.Server) string {
	body := ""
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/messages") {
			body = string(r.Body)
		}
	}
	return body
}
