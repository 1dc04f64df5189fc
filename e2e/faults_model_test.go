package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm/llmtest"
)

// wire is one provider's wire format on the fake server, with the error
// body its API documents for a status:
// OpenAI https://platform.openai.com/docs/guides/error-codes,
// Anthropic https://docs.anthropic.com/en/api/errors,
// Gemini https://ai.google.dev/gemini-api/docs/troubleshooting.
type wire struct {
	name  string
	args  func(url string) []string
	env   func(url string) []string
	model string
	body  func(status int) string
}

var anthropicTypes = map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
	404: "not_found_error", 408: "timeout_error", 413: "request_too_large", 429: "rate_limit_error", 500: "api_error",
	502: "api_error", 503: "api_error", 529: "overloaded_error"}

var geminiStatuses = map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
	404: "NOT_FOUND", 408: "DEADLINE_EXCEEDED", 413: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL",
	502: "UNAVAILABLE", 503: "UNAVAILABLE", 529: "UNAVAILABLE"}

var openaiTypes = map[int]string{400: "invalid_request_error", 401: "invalid_request_error", 403: "invalid_request_error",
	404: "invalid_request_error", 408: "server_error", 413: "invalid_request_error", 429: "requests", 500: "server_error",
	502: "server_error", 503: "server_error", 529: "server_error"}

var wires = []wire{
	{"openai", func(u string) []string { return []string{"--base-url", u} }, nil, "m",
		func(s int) string {
			return fmt.Sprintf(`{"error":{"message":"injected fault %d","type":%q,"param":null,"code":null}}`, s, openaiTypes[s])
		}},
	{"anthropic", func(string) []string { return []string{"--provider", "anthropic"} },
		func(u string) []string { return []string{"ANTHROPIC_API_KEY=sk-ant-test", "ANTHROPIC_BASE_URL=" + u} }, "claude-sonnet-4-5",
		func(s int) string {
			return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":"injected fault %d"}}`, anthropicTypes[s], s)
		}},
	{"gemini", func(string) []string { return []string{"--provider", "gemini"} },
		func(u string) []string { return []string{"GEMINI_API_KEY=test-key", "GEMINI_BASE_URL=" + u} }, "gemini-2.5-flash",
		func(s int) string {
			return fmt.Sprintf(`{"error":{"code":%d,"message":"injected fault %d","status":%q}}`, s, s, geminiStatuses[s])
		}},
}

// faultStatuses are the HTTP statuses the providers document; the
// retryable ones are retried within the run, the others end it with an
// error and the session resumes.
var faultStatuses = []int{400, 401, 403, 404, 408, 413, 429, 500, 502, 503, 529}

func retryableStatus(s int) bool { return s == 408 || s == 429 || s >= 500 }

// modelFault is one misbehaving reply.
type modelFault struct {
	name    string
	turn    llmtest.Turn
	inPlace bool // the run itself must recover (a retry), not a resume
	status  int  // an HTTP error the message must name; 0 none
}

func modelFaults(w wire) []modelFault {
	var out []modelFault
	for _, s := range faultStatuses {
		out = append(out, modelFault{fmt.Sprintf("status %d", s), llmtest.Reply(llmtest.Error(s, w.body(s))), retryableStatus(s), s})
	}
	return append(out,
		modelFault{name: "drop mid-stream", turn: llmtest.Reply(llmtest.Text("Half a reply"), llmtest.Drop()), inPlace: true},
		modelFault{name: "stall mid-stream", turn: llmtest.Reply(llmtest.Text("Half a reply"), llmtest.Stall(time.Minute)), inPlace: true},
		modelFault{name: "stall before headers", turn: llmtest.Reply(llmtest.Stall(time.Minute)), inPlace: true},
		modelFault{name: "garbage stream", turn: llmtest.Reply(llmtest.Raw("data: {\"not json at all\n\ndata: \x00\x01\x02 garbage\n\n"))},
		modelFault{name: "garbage body", turn: llmtest.Reply(llmtest.Respond(200, "<html>502 Bad Gateway</html>").WithHeader("Content-Type", "text/html"))},
	)
}

// modelServerFaults runs each fault of each wire: the run retries in
// place, or exits with an error that names the cause and `--resume`
// finishes the task.
func modelServerFaults(t *testing.T, tally *faultTally) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			for _, f := range modelFaults(w) {
				t.Run(strings.ReplaceAll(f.name, " ", "_"), func(t *testing.T) {
					tally.add(recoverFromModelFault(t, w, f), 0)
				})
			}
		})
	}
}

func recoverFromModelFault(t *testing.T, w wire, f modelFault) bool {
	dir := t.TempDir()
	e := newEnv(t)
	// Stalls end in a second, not the minute scripted.
	e.vars = append(e.vars, "ZERO_IDLE_TIMEOUT=1", "ZERO_FIRST_BYTE_TIMEOUT=1")
	srv := llmtest.NewServer(t)
	if w.env != nil {
		e.vars = append(e.vars, w.env(srv.URL())...)
	}
	srv.Script(f.turn, llmtest.Reply(llmtest.Text("Recovered.")))
	base := append([]string{"exec", "-o", "stream-json", "--auto-approve", "--model", w.model}, w.args(srv.URL())...)
	r := e.run(dir, "", append(base, "say something")...)
	if strings.Contains(r.stderr, "panic:") {
		t.Fatalf("zero panicked: %s", r.stderr)
	}
	if r.code == 0 {
		if got := final(parseStream(t, r.stdout)); got != "Recovered." {
			t.Errorf("exit 0 but final %q", got)
			return false
		}
		return true
	}
	if f.inPlace {
		t.Errorf("a retryable fault ended the run: exit %d: %s", r.code, r.stderr)
	}
	if f.status != 0 && !strings.Contains(r.stderr, fmt.Sprint(f.status)) {
		t.Errorf("the error does not name HTTP %d: %s", f.status, r.stderr)
	}
	id := resumeID(r.stderr)
	if id == "" || !strings.Contains(r.stderr, "zero:") {
		t.Errorf("exit %d without an error naming the session to resume: %s", r.code, r.stderr)
		return false
	}
	again := e.run(dir, "", append(append([]string{}, base...), "--resume="+id, "continue")...)
	if got := final(parseStream(t, again.stdout)); again.code != 0 || got != "Recovered." {
		t.Errorf("--resume after %s: exit %d, final %q: %s", f.name, again.code, got, again.stderr)
		return false
	}
	return true
}

// resumeID is the session id of the "resume with: zero exec --resume=ID"
// hint in stderr.
func resumeID(stderr string) string {
	_, rest, ok := strings.Cut(stderr, "--resume=")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, " ")
	return strings.TrimSpace(id)
}
