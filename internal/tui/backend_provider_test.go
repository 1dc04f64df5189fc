package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/testbin"
)

// profileBackend is testBackend on server here (profile "custom", model
// m) with a user config that also defines profile "far" (an
// OpenAI-compatible server, model far-model) and "claude" (the Anthropic
// API, served by there too, with a key).
func profileBackend(t *testing.T, here, there *llmtest.Server) *RunBackend {
	t.Helper()
	testbin.Isolate(t)
	path, err := config.UserPath()
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	body := `{"providers":[
	  {"name":"far","kind":"openai-compatible","baseURL":"` + there.URL() + `/v1","model":"far-model"},
	  {"name":"claude","kind":"anthropic","baseURL":"` + there.URL() + `","apiKey":"sk-ant-test-0000","model":"claude-sonnet-4-5"},
	  {"name":"router","kind":"openai-compatible","baseURL":"` + there.URL() + `/v1","model":"openai/gpt-5.1"}]}`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return testBackendIn(t, here, run.CanonicalDir(t.TempDir()))
}

// modelRequests are the chat requests srv received (not model listings
// or probes).
func modelRequests(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") || strings.HasSuffix(r.Path, "/v1/messages") {
			out = append(out, r)
		}
	}
	return out
}

func prompt(b *RunBackend, text string) {
	b.Run(context.Background(), Turn{Prompt: text, Mode: ModeNormal}, event.SinkFunc(func(event.Event) {}))
}

// /provider NAME sends the next prompt to that profile's server with its
// model, the conversation going on (the earlier prompt rides along); the
// footer, /status and /provider follow; /model PROVIDER/MODEL switches
// back as `zero -m` would, and an OpenAI-compatible → Anthropic switch
// speaks the new API.
func TestProviderSwitchSendsTheNextPromptToTheOtherProfile(t *testing.T) {
	here, there := llmtest.NewServer(t), llmtest.NewServer(t)
	b := profileBackend(t, here, there)
	ctx := context.Background()
	here.Script(llmtest.Reply(llmtest.Text("from here")), llmtest.Reply(llmtest.Text("here again")))
	there.Script(llmtest.Reply(llmtest.Text("from there")), llmtest.Reply(llmtest.Text("from claude")))

	prompt(b, "first question")
	out, err := b.UseProvider(ctx, "far")
	if err != nil || !strings.Contains(out, "provider: far · model far-model") {
		t.Fatalf("UseProvider far = %q, %v", out, err)
	}
	if i := b.Info(); i.Model != "far-model" || i.Host != run.HostOf(there.URL()) {
		t.Errorf("footer after /provider far: %s · %s", i.Model, i.Host)
	}
	prompt(b, "second question")
	reqs := modelRequests(there)
	if len(reqs) != 1 || len(modelRequests(here)) != 1 {
		t.Fatalf("requests: here %d, there %d; want 1 and 1", len(modelRequests(here)), len(reqs))
	}
	if body := string(reqs[0].Body); !strings.Contains(body, `"model":"far-model"`) || !strings.Contains(body, "first question") || !strings.Contains(body, "from here") {
		t.Errorf("the far server's request lacks its model or the conversation so far:\n%s", body)
	}
	status, _ := b.Report(ctx, ReportStatus)
	mustContain(t, "/status", strings.Split(status, "\n"), "provider   far", "model      far-model (openai-compatible)", "endpoint   "+there.URL()+"/v1")
	list, _ := b.Providers(ctx)
	mustContain(t, "/provider", strings.Split(list, "\n"), "● far", "  custom", "switch with /provider NAME")

	// as -m reads it: provider/model of another profile
	if err := b.SetModel(ctx, "custom/m"); err != nil {
		t.Fatal(err)
	}
	prompt(b, "third question")
	if n := len(modelRequests(here)); n != 2 || b.Info().Host != run.HostOf(here.URL()) {
		t.Errorf("after /model custom/m: %d requests on here, host %s", n, b.Info().Host)
	}

	if err := b.SetModel(ctx, "claude/claude-sonnet-4-5"); err != nil {
		t.Fatal(err)
	}
	prompt(b, "fourth question")
	reqs = modelRequests(there)
	if len(reqs) != 2 || !strings.HasSuffix(reqs[1].Path, "/v1/messages") || reqs[1].Header.Get("Anthropic-Version") == "" || !strings.Contains(fmt.Sprint(reqs[1].Header), "sk-ant-test-0000") {
		t.Fatalf("the Anthropic profile's request: %d requests, last %s %v", len(reqs), reqs[len(reqs)-1].Path, reqs[len(reqs)-1].Header)
	}
	if body := string(reqs[1].Body); !strings.Contains(body, "third question") || !strings.Contains(body, "here again") {
		t.Errorf("the Anthropic request lacks the conversation so far:\n%s", body)
	}
}

// A profile that cannot be used is an error naming why, and the session
// stays where it was; a model id with a slash that names no profile is a
// model of the provider in use.
func TestProviderSwitchRefusesWhatCannotBeUsed(t *testing.T) {
	here, there := llmtest.NewServer(t), llmtest.NewServer(t)
	b := profileBackend(t, here, there)
	ctx := context.Background()
	if _, err := b.UseProvider(ctx, "nope"); err == nil || !strings.Contains(err.Error(), `provider "nope" is not configured`) {
		t.Errorf("unknown profile: %v", err)
	}
	if _, err := b.UseProvider(ctx, "anthropic"); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("keyless vendor profile: %v", err)
	}
	if i := b.Info(); i.Model != "m" || i.Host != run.HostOf(here.URL()) {
		t.Errorf("a refused switch moved the session: %s · %s", i.Model, i.Host)
	}
	list, _ := b.Providers(ctx)
	mustContain(t, "/provider", strings.Split(list, "\n"), "● custom", "no key: set ANTHROPIC_API_KEY")
	if err := b.SetModel(ctx, "qwen/qwen3-coder"); err != nil || b.Info().Model != "qwen/qwen3-coder" || b.Info().Host != run.HostOf(here.URL()) {
		t.Errorf("/model qwen/qwen3-coder: %v, now %s · %s", err, b.Info().Model, b.Info().Host)
	}
	// /model says so when the switch may not be what the user meant.
	warn := unlistedModel(ctx, b, "qwen/qwen3-coder", b.Info().Model)
	if !strings.Contains(warn, `no provider profile "qwen"`) || !strings.Contains(warn, `the server does not list "qwen/qwen3-coder"`) {
		t.Errorf("/model qwen/qwen3-coder warns %q", warn)
	}
	here.SetModels("qwen/qwen3-coder")
	if warn := unlistedModel(ctx, b, "qwen/qwen3-coder", b.Info().Model); strings.Contains(warn, "does not list") {
		t.Errorf("a listed model warns %q", warn)
	}
	if warn := unlistedModel(ctx, b, "custom/qwen/qwen3-coder", b.Info().Model); warn != "" {
		t.Errorf("a profile's listed model warns %q", warn)
	}
}

// On screen: /provider lists the profiles with the one in use marked,
// Tab completes a name, /provider far moves the footer to far's model and
// server, and the next prompt's reply comes from there.
func TestProviderCommandOnScreen(t *testing.T) {
	here, there := llmtest.NewServer(t), llmtest.NewServer(t)
	b := profileBackend(t, here, there)
	there.Script(llmtest.Reply(llmtest.Text("answer from far")))
	d := newDriver(t, b, Options{})
	d.typeText("/provider")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "● custom", "  far", "far-model", "switch with /provider NAME")

	d.typeText("/provider f")
	d.press("tab")
	d.until(func() bool { return d.m.Value() == "/provider far " })
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "provider: far · model far-model · "+run.HostOf(there.URL()))
	if foot := lastLine(d.live()); !strings.HasPrefix(foot, "far-model · "+run.HostOf(there.URL())) {
		t.Errorf("footer after /provider far = %q", foot)
	}
	d.typeText("hello far")
	d.press("enter")
	d.until(func() bool { return !d.m.turn.running })
	d.settle()
	mustContain(t, "scrollback", d.plainScrollback(), "answer from far")
}

// The edit tool follows the provider's model: a switch to a model the
// catalog says was trained on apply_patch offers apply_patch instead of
// edit_file.
func TestProviderSwitchOffersTheNewModelsEditTool(t *testing.T) {
	here, there := llmtest.NewServer(t), llmtest.NewServer(t)
	b := profileBackend(t, here, there)
	here.Script(llmtest.Reply(llmtest.Text("a")))
	there.Script(llmtest.Reply(llmtest.Text("b")))
	prompt(b, "on m")
	if _, err := b.UseProvider(context.Background(), "router"); err != nil {
		t.Fatal(err)
	}
	prompt(b, "on gpt-5.1")
	before, after := string(modelRequests(here)[0].Body), string(modelRequests(there)[0].Body)
	if !strings.Contains(before, `"name":"edit_file"`) || strings.Contains(before, `"name":"apply_patch"`) {
		t.Errorf("model m was not offered edit_file alone")
	}
	if !strings.Contains(after, `"name":"apply_patch"`) || strings.Contains(after, `"name":"edit_file"`) {
		t.Errorf("openai/gpt-5.1 was not offered apply_patch alone")
	}
}

// /provider re-reads the user config: a profile written there after the
// start (by hand or another zero) is listed and switched to, the next
// prompt going to its server; one whose apiKeyEnv is unset is listed with
// that variable named, and switching to it says to set it and changes
// nothing.
func TestProviderSeesProfilesAddedToTheConfigAfterTheStart(t *testing.T) {
	here, there := llmtest.NewServer(t), llmtest.NewServer(t)
	b := profileBackend(t, here, there)
	ctx := context.Background()
	path, _ := config.UserPath()
	body := `{"providers":[
	  {"name":"far","kind":"openai-compatible","baseURL":"` + there.URL() + `/v1","model":"far-model"},
	  {"name":"late","kind":"openai-compatible","baseURL":"` + there.URL() + `/v1","model":"late-model"},
	  {"name":"keyed","kind":"openai-compatible","baseURL":"` + there.URL() + `/v1","apiKeyEnv":"ZERO_TEST_UNSET_KEY","model":"k"}]}`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	list, _ := b.Providers(ctx)
	mustContain(t, "/provider", strings.Split(list, "\n"), "● custom", "  late", "late-model", "  keyed", "no key: set ZERO_TEST_UNSET_KEY")
	if _, err := b.UseProvider(ctx, "keyed"); err == nil || !strings.Contains(err.Error(), "set ZERO_TEST_UNSET_KEY") {
		t.Errorf("switch to a profile without its key: %v", err)
	}
	if i := b.Info(); i.Model != "m" {
		t.Errorf("a refused switch moved the session to %s", i.Model)
	}
	if out, err := b.UseProvider(ctx, "late"); err != nil || !strings.Contains(out, "provider: late · model late-model") {
		t.Fatalf("UseProvider late = %q, %v", out, err)
	}
	there.Script(llmtest.Reply(llmtest.Text("from late")))
	prompt(b, "a question")
	if reqs := modelRequests(there); len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"model":"late-model"`) {
		t.Errorf("the late profile's server got %d requests", len(reqs))
	}
}
