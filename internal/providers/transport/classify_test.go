package transport

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/sse"
)

type b10Expect struct {
	Class        string `json:"class"`
	Subclass     string `json:"subclass"`
	PromptTokens int    `json:"prompt_tokens"`
	MaxTokens    int    `json:"max_tokens"`
	Limit        int    `json:"limit"`
	FirstAction  string `json:"first_action"`
}

type b10Input struct {
	Provider   string          `json:"provider"`
	HTTPStatus int             `json:"http_status"`
	Body       json.RawMessage `json:"body"`
}

// TestClassifyEveryProvidersContextOverflowBody classifies every
// provider's context-overflow body as expected.json says, numbers included.
// Absent numbers must stay 0 (never invented).
// Case B10 (testdata/B10; openai/codex#20866, ggml-org/llama.cpp PR#15780).
func TestClassifyEveryProvidersContextOverflowBody(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "B10", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]b10Expect
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp) != 9 {
		t.Fatalf("expected.json has %d entries, want 9", len(exp))
	}
	for file, want := range exp {
		t.Run(file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "B10", file))
			if err != nil {
				t.Fatal(err)
			}
			var in b10Input
			if err := json.Unmarshal(raw, &in); err != nil {
				t.Fatal(err)
			}
			e := Classify(in.Provider, "m", in.HTTPStatus, nil, in.Body)
			if e.Kind != llm.ErrContextOverflow {
				t.Fatalf("Kind = %s, want context_overflow (%v)", e.Kind, e)
			}
			if e.Retryable() {
				t.Errorf("overflow must not be retried as-is")
			}
			o, ok := llm.AsOverflow(e)
			if !ok {
				t.Fatalf("no *llm.ContextOverflow in %v", e)
			}
			class := "context_overflow"
			if o.Suspected {
				class = "context_overflow_suspected"
			}
			if class != want.Class {
				t.Errorf("class = %s, want %s", class, want.Class)
			}
			if o.Subclass() != want.Subclass && !(o.Suspected && want.Subclass == "") {
				t.Errorf("subclass = %q, want %q", o.Subclass(), want.Subclass)
			}
			if o.PromptTokens != want.PromptTokens || o.MaxTokens != want.MaxTokens || o.Limit != want.Limit {
				t.Errorf("numbers = prompt %d max %d limit %d, want %d %d %d",
					o.PromptTokens, o.MaxTokens, o.Limit, want.PromptTokens, want.MaxTokens, want.Limit)
			}
			if want.FirstAction != "" && !strings.Contains(e.Hint, want.FirstAction) {
				t.Errorf("hint %q does not say %q", e.Hint, want.FirstAction)
			}
			if !strings.Contains(e.Hint, "compact") {
				t.Errorf("hint %q does not say to compact", e.Hint)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		provider   string
		status     int
		header     http.Header
		body       string
		kind       llm.ErrorKind
		retryAfter time.Duration // exact; -1 means "about an hour"
		hint       string
		message    string
	}{
		{"openai bad key", "openai", 401, nil,
			`{"error":{"message":"Incorrect API key provided: sk-abc. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			llm.ErrAuth, 0, "OPENAI_API_KEY", "Incorrect API key provided"},
		{"anthropic bad key", "anthropic", 401, nil,
			`{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`,
			llm.ErrAuth, 0, "ANTHROPIC_API_KEY", "invalid x-api-key"},
		{"gemini bad key is a 400", "gemini", 400, nil,
			`{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`,
			llm.ErrAuth, 0, "GEMINI_API_KEY", "API key not valid"},
		{"openai rate limit with retry-after seconds", "openai", 429, http.Header{"Retry-After": {"7"}},
			`{"error":{"message":"Rate limit reached for gpt-4.1 in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 4000. Please try again in 6.2s.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`,
			llm.ErrRateLimit, 7 * time.Second, "retries", "Rate limit reached"},
		{"rate limit retry-after-ms wins", "openai", 429, http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"2"}},
			`{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}`,
			llm.ErrRateLimit, 1500 * time.Millisecond, "retries", "slow down"},
		{"rate limit http date", "openai", 429, http.Header{"Retry-After": {future}},
			`{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`,
			llm.ErrRateLimit, -1, "retries", "slow down"},
		{"rate limit delay in message", "openai", 429, nil,
			`{"error":{"message":"Rate limit reached. Please try again in 20s.","code":"rate_limit_exceeded"}}`,
			llm.ErrRateLimit, 20 * time.Second, "retries", "Please try again in 20s"},
		{"rate limit delay in ms in message", "openai", 429, nil,
			`{"error":{"message":"Please try again in 350ms.","code":"rate_limit_exceeded"}}`,
			llm.ErrRateLimit, 350 * time.Millisecond, "retries", ""},
		{"gemini free tier quota is a rate limit", "gemini", 429, nil,
			`{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.\nPlease retry in 31.5s.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"31s"}]}}`,
			llm.ErrRateLimit, 31 * time.Second, "retries", "exceeded your current quota"},
		{"gemini rate limit", "gemini", 429, nil,
			`{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"31s"}]}}`,
			llm.ErrRateLimit, 31 * time.Second, "retries", "Resource has been exhausted"},
		{"openai insufficient quota is not retried", "openai", 429, nil,
			`{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
			llm.ErrAuth, 0, "quota", "exceeded your current quota"},
		{"anthropic overloaded 529", "anthropic", 529, nil,
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			llm.ErrOverloaded, 0, "overloaded", "Overloaded"},
		{"gemini overloaded 503", "gemini", 503, http.Header{"Retry-After": {"3"}},
			`{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`,
			llm.ErrOverloaded, 3 * time.Second, "overloaded", "The model is overloaded"},
		{"llama.cpp loading model 503", "llama.cpp", 503, nil,
			`{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`,
			llm.ErrOverloaded, 0, "overloaded", "Loading model"},
		{"ollama model not found", "ollama", 404, nil,
			`{"error":"model \"qwen3:8b\" not found, try pulling it first"}`,
			llm.ErrBadRequest, 0, "ollama pull", `model "qwen3:8b" not found`},
		{"openai model not found", "openai", 404, nil,
			`{"error":{"message":"The model gpt-9 does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`,
			llm.ErrBadRequest, 0, "pick another with " + llm.PickModel, "does not exist"},
		{"vllm bad request", "vllm", 400, nil,
			`{"object":"error","message":"[{'type': 'missing', 'loc': ('body', 'messages')}]","type":"BadRequestError","param":null,"code":400}`,
			llm.ErrBadRequest, 0, "rejected", "missing"},
		{"vllm validation detail", "vllm", 422, nil,
			`{"detail":"tools: field required"}`,
			llm.ErrBadRequest, 0, "rejected", "tools: field required"},
		{"anthropic api error 500", "anthropic", 500, nil,
			`{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
			llm.ErrServer, 0, "retries", "Internal server error"},
		{"proxy html 502", "openai", 502, nil,
			"<html><body><h1>502 Bad Gateway</h1></body></html>",
			llm.ErrServer, 0, "server", "502 Bad Gateway"},
		{"empty body", "openai", 500, nil, "", llm.ErrServer, 0, "server", "Internal Server Error"},
		{"rate limit mentioning tokens is not overflow", "openai", 429, nil,
			`{"error":{"message":"Request too large for gpt-4o: too many tokens per min (TPM). Limit 30000, Requested 50000.","type":"tokens","code":"rate_limit_exceeded"}}`,
			llm.ErrRateLimit, 0, "retries", "Request too large"},
		{"openai max_tokens too large", "openai", 400, nil,
			`{"error":{"message":"max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000.","type":"invalid_request_error","param":"max_tokens","code":null}}`,
			llm.ErrContextOverflow, 0, "lower max_tokens", "max_tokens is too large"},
		// The body llama-server sends for a request with tools when it was
		// started without --jinja: oaicompat_chat_params_parse throws
		// "tools param requires --jinja flag" (ggml-org/llama.cpp
		// tools/server/utils.hpp) and the exception handler renders it
		// with ERROR_TYPE_SERVER as HTTP 500. Permanent: never retried.
		{"llama.cpp without --jinja is permanent", "llama.cpp", 500, nil,
			`{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`,
			llm.ErrBadRequest, 0, "restart it with --jinja", "--jinja"},
		{"llama.cpp tool_choice without --jinja is permanent", "llama.cpp", 500, nil,
			`{"error":{"code":500,"message":"Unsupported param: tool_choice","type":"server_error"}}`,
			llm.ErrBadRequest, 0, "rejected", "Unsupported param"},
		// ERROR_TYPE_NOT_SUPPORTED in tools/server/utils.hpp
		// format_error_response: HTTP 501, type "not_supported_error".
		{"llama.cpp not supported is permanent", "llama.cpp", 501, nil,
			`{"error":{"code":501,"message":"This server does not support embeddings. Start it with ` + "`--embeddings`" + `","type":"not_supported_error"}}`,
			llm.ErrBadRequest, 0, "rejected", "does not support embeddings"},
		// vLLM's unknown model: vllm/entrypoints/openai/serving_engine.py
		// _check_model returns ErrorResponse with NotFoundError, 404.
		{"vllm unknown model", "vllm", 404, nil,
			`{"object":"error","message":"The model ` + "`qwen-x`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`,
			llm.ErrBadRequest, 0, "pick another with " + llm.PickModel, "does not exist"},
		{"ollama model without tools", "ollama", 400, nil,
			`{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`,
			llm.ErrBadRequest, 0, "tool-capable model", "does not support tools"},
		{"older openai overflow", "openai", 400, nil,
			`{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			llm.ErrContextOverflow, 0, "compact", "maximum context length"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Classify(tc.provider, "m", tc.status, tc.header, []byte(tc.body))
			if e.Kind != tc.kind {
				t.Fatalf("Kind = %s, want %s (%v)", e.Kind, tc.kind, e)
			}
			if e.Status != tc.status || e.Provider != tc.provider || e.Model != "m" {
				t.Errorf("status/provider/model = %d %s %s", e.Status, e.Provider, e.Model)
			}
			if tc.retryAfter == -1 {
				if e.RetryAfter < 59*time.Minute || e.RetryAfter > time.Hour {
					t.Errorf("RetryAfter = %v, want about 1h", e.RetryAfter)
				}
			} else if e.RetryAfter != tc.retryAfter {
				t.Errorf("RetryAfter = %v, want %v", e.RetryAfter, tc.retryAfter)
			}
			if !strings.Contains(e.Hint, tc.hint) {
				t.Errorf("Hint %q does not contain %q", e.Hint, tc.hint)
			}
			if strings.Contains(e.Hint, "/model") {
				t.Errorf("Hint %q names the app's /model, which exec and the editors do not have", e.Hint)
			}
			if !strings.Contains(e.Message, tc.message) {
				t.Errorf("Message %q does not contain %q", e.Message, tc.message)
			}
		})
	}
}

// TestVLLMOutputBudgetOverflow: vLLM rejects a request whose prompt plus
// max_tokens passes max_model_len with HTTP 400 and this body (the wording
// of vllm/entrypoints/openai/serving_engine.py _validate_input); the
// prompt fits, so it is the output_budget subclass with all three numbers,
// and lowering max_tokens answers it.
func TestVLLMOutputBudgetOverflow(t *testing.T) {
	body := `{"error":{"message":"'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context length is 4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778). None","type":"BadRequestError","param":null,"code":400}}`
	e := Classify("vllm", "m", 400, nil, []byte(body))
	o, ok := llm.AsOverflow(e)
	if e.Kind != llm.ErrContextOverflow || !ok {
		t.Fatalf("%v: not a context overflow", e)
	}
	if !o.OutputBudget || o.PromptTokens != 2778 || o.MaxTokens != 8000 || o.Limit != 4096 {
		t.Errorf("overflow %+v, want output budget, prompt 2778, max_tokens 8000, limit 4096", *o)
	}
}

func TestOverflowNumbersOlderWording(t *testing.T) {
	body := `{"error":{"message":"This model's maximum context length is 4096 tokens. However, you requested 4500 tokens (3500 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","code":"context_length_exceeded"}}`
	o, ok := llm.AsOverflow(Classify("vllm", "m", 400, nil, []byte(body)))
	if !ok {
		t.Fatal("not an overflow")
	}
	want := llm.ContextOverflow{PromptTokens: 3500, MaxTokens: 1000, Limit: 4096, OutputBudget: true}
	if *o != want {
		t.Errorf("got %+v, want %+v", *o, want)
	}
}

// TestStreamErrorEventOverloadedIsRetryableLikeHTTP529 reads the stream to
// its `event: error` and classifies that event's data: a typed, retryable
// overload, the same kind as HTTP 529.
// Case B09 (testdata/B09/stream_overloaded.sse; anthropics/anthropic-sdk-go#200).
func TestStreamErrorEventOverloadedIsRetryableLikeHTTP529(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "B09", "stream_overloaded.sse"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := sse.NewReader(f)
	var got *llm.ProviderError
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Event == "error" {
			got = ClassifyStreamError("anthropic", "claude-example", []byte(ev.Data))
		}
	}
	if got == nil {
		t.Fatal("no error event in stream")
	}
	http529 := Classify("anthropic", "claude-example", 529, nil, []byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
	if got.Kind != llm.ErrOverloaded || got.Kind != http529.Kind {
		t.Errorf("Kind = %s, want %s", got.Kind, llm.ErrOverloaded)
	}
	if !got.Retryable() || !llm.IsRetryable(got) {
		t.Error("overloaded mid-stream must be retryable")
	}
	if got.Message != "Overloaded" || got.Status != 0 {
		t.Errorf("Message %q Status %d", got.Message, got.Status)
	}
	var pe *llm.ProviderError
	if !errors.As(error(got), &pe) {
		t.Error("not a *llm.ProviderError")
	}
}

func TestClassifyStreamError(t *testing.T) {
	tests := []struct {
		data string
		kind llm.ErrorKind
	}{
		{`{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`, llm.ErrRateLimit},
		{`{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`, llm.ErrServer},
		{`{"error":{"code":500,"message":"context shift is disabled","type":"server_error"}}`, llm.ErrContextOverflow},
		{`{"error":{"message":"upstream failed","type":"weird"}}`, llm.ErrServer},
		{`not json at all`, llm.ErrServer},
		{`{"error":{"code":400,"message":"bad things","type":"invalid_request_error"}}`, llm.ErrBadRequest},
	}
	for _, tc := range tests {
		e := ClassifyStreamError("p", "m", []byte(tc.data))
		if e.Kind != tc.kind || e.Message == "" || e.Status != 0 {
			t.Errorf("%s: Kind %s Message %q Status %d, want kind %s", tc.data, e.Kind, e.Message, e.Status, tc.kind)
		}
	}
}

// FuzzClassify: any body gives a non-nil error with a kind and a hint.
func FuzzClassify(f *testing.F) {
	for i := 1; i <= 9; i++ {
		raw, err := os.ReadFile(filepath.Join("testdata", "B10", "error_0"+string(rune('0'+i))+".json"))
		if err != nil {
			f.Fatal(err)
		}
		var in b10Input
		if err := json.Unmarshal(raw, &in); err != nil {
			f.Fatal(err)
		}
		f.Add(in.HTTPStatus, []byte(in.Body))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := Classify("p", "m", status, nil, body)
		if e == nil || e.Kind == "" || e.Hint == "" {
			t.Fatalf("bad result %#v", e)
		}
		s := ClassifyStreamError("p", "m", body)
		if s == nil || s.Kind == "" || s.Kind == llm.ErrUnknown {
			t.Fatalf("bad stream result %#v", s)
		}
	})
}
