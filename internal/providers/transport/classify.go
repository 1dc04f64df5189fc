// Classification: a model server's error response becomes Zero's typed
// *llm.ProviderError, so the agent loop reacts by kind (retry, compact, ask
// for a key) and never by matching strings itself.
//
// It knows the real error bodies of OpenAI, Anthropic, Gemini, llama.cpp,
// ik_llama.cpp, Ollama and vLLM, including the hard cases: llama.cpp
// reports a full context window with HTTP 500 (not a transient server
// error), every server words "context overflow" differently (case B10,
// testdata/B10), and Anthropic sends overloaded_error inside a 200 stream
// (case B09, testdata/B09). Structured fields (type, code, status) are read
// first, message patterns second. Nothing here performs I/O or decides what
// to do about an error; it only names it and says what the user can do.

package transport

import (
	"encoding/json"
	"fmt"
	"github.com/zero-agent/zero/internal/lazyregexp"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// details is what Classify reads out of an error body, whatever its shape.
type details struct {
	Type    string // error.type, e.g. "invalid_request_error", "overloaded_error"
	Code    string // error.code as text, e.g. "context_length_exceeded", "400"
	Status  string // Gemini error.status, e.g. "RESOURCE_EXHAUSTED"
	Message string
	Reason  string // Gemini details[].reason, e.g. "API_KEY_INVALID"
	// NPrompt and NCtx are llama.cpp's n_prompt_tokens and n_ctx.
	NPrompt, NCtx int
	// RetryDelay is Gemini's RetryInfo.retryDelay, e.g. "31s".
	RetryDelay string
}

// wireError covers the error objects of all known servers: OpenAI and
// vLLM {"error":{message,type,param,code}}, Anthropic
// {"type":"error","error":{type,message}}, Gemini
// {"error":{code,message,status,details}}, llama.cpp
// {"error":{code,message,type,n_prompt_tokens,n_ctx}}, Ollama
// {"error":"text"}.
type wireError struct {
	Message       string          `json:"message"`
	Type          string          `json:"type"`
	Code          json.RawMessage `json:"code"`
	Status        string          `json:"status"`
	NPromptTokens int             `json:"n_prompt_tokens"`
	NCtx          int             `json:"n_ctx"`
	Details       []struct {
		Type       string `json:"@type"`
		Reason     string `json:"reason"`
		RetryDelay string `json:"retryDelay"`
	} `json:"details"`
}

type wireBody struct {
	Error   json.RawMessage `json:"error"`
	Type    string          `json:"type"`
	Message string          `json:"message"`
	Detail  json.RawMessage `json:"detail"`
}

// parse reads an error body. Unknown shapes keep their text as Message.
func parse(body []byte) details {
	var d details
	b := strings.TrimSpace(string(body))
	if strings.HasPrefix(b, "[") {
		// Gemini sometimes wraps the error in a one-element array.
		var arr []json.RawMessage
		if json.Unmarshal([]byte(b), &arr) == nil && len(arr) > 0 {
			b = string(arr[0])
		}
	}
	var wb wireBody
	if json.Unmarshal([]byte(b), &wb) != nil {
		d.Message = truncate(b, 500)
		return d
	}
	if len(wb.Error) > 0 {
		var s string
		if json.Unmarshal(wb.Error, &s) == nil {
			d.Message = s // Ollama: {"error":"..."}
			return d
		}
		var we wireError
		if json.Unmarshal(wb.Error, &we) == nil {
			d.Type, d.Status, d.Message = we.Type, we.Status, we.Message
			d.NPrompt, d.NCtx = we.NPromptTokens, we.NCtx
			d.Code = codeText(we.Code)
			for _, det := range we.Details {
				if det.Reason != "" {
					d.Reason = det.Reason
				}
				if det.RetryDelay != "" {
					d.RetryDelay = det.RetryDelay
				}
			}
			return d
		}
	}
	d.Message = wb.Message
	if d.Message == "" && len(wb.Detail) > 0 {
		// FastAPI-style servers: {"detail": "..."}.
		var s string
		if json.Unmarshal(wb.Detail, &s) == nil {
			d.Message = s
		} else {
			d.Message = truncate(string(wb.Detail), 500)
		}
	}
	if wb.Type != "error" {
		d.Type = wb.Type
	}
	return d
}

func codeText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Classify maps an HTTP error response to a *llm.ProviderError. provider
// is the profile name ("openai", "anthropic", "gemini", "ollama", ...),
// used for hints; status is the HTTP status; header may be nil; body is the
// raw response body (JSON or text). It never returns nil.
//
// Context overflow (case B10) is recognised in every known shape, including
// llama.cpp's HTTP 500; the parsed numbers are attached as a
// *llm.ContextOverflow in the error's Err field (llm.AsOverflow).
func Classify(provider, model string, status int, header http.Header, body []byte) *llm.ProviderError {
	d := parse(body)
	e := &llm.ProviderError{Provider: provider, Model: model, Status: status, Message: d.Message}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	if ov := overflow(d); ov != nil {
		return withOverflow(e, ov)
	}
	e.Kind = kindOf(status, d)
	switch e.Kind {
	case llm.ErrAuth:
		e.Hint = authHint(provider, d)
	case llm.ErrRateLimit:
		e.RetryAfter = retryAfter(header, d)
		e.Hint = "rate limited: Zero waits and retries; if it persists, lower request rate or check your plan's limits"
		if quota(d) {
			e.Kind = llm.ErrAuth
			e.RetryAfter = 0
			e.Hint = "the account has no quota left: add credit, or switch to another model with " + llm.PickModel + " or another provider (zero providers)"
		}
	case llm.ErrOverloaded:
		e.RetryAfter = retryAfter(header, d)
		e.Hint = "the provider is overloaded: Zero retries with backoff; switch model if it persists"
	case llm.ErrBadRequest:
		e.Hint = badRequestHint(provider, status, d)
	case llm.ErrMalformedToolCall:
		e.Hint = "the server could not parse the tool call the model wrote; Zero asks the model to write it again"
	case llm.ErrServer:
		e.RetryAfter = retryAfter(header, d)
		e.Hint = "the server failed: Zero retries; check the server's log if it persists"
		if h := knownHint(strings.ToLower(d.Message)); h != "" {
			e.Hint = h
		}
	default:
		e.Hint = "unexpected reply from the server; check its log"
	}
	return e
}

// kindOf classifies by structured fields first, then by status.
func kindOf(status int, d details) llm.ErrorKind {
	t := strings.ToLower(d.Type)
	code := strings.ToLower(d.Code)
	switch {
	case t == "overloaded_error" || d.Status == "UNAVAILABLE" && strings.Contains(strings.ToLower(d.Message), "overload"):
		return llm.ErrOverloaded
	case t == "authentication_error" || t == "permission_error" || code == "invalid_api_key" ||
		d.Status == "UNAUTHENTICATED" || d.Status == "PERMISSION_DENIED" || d.Reason == "API_KEY_INVALID":
		return llm.ErrAuth
	case t == "rate_limit_error" || code == "rate_limit_exceeded" || d.Status == "RESOURCE_EXHAUSTED" || quota(d):
		return llm.ErrRateLimit
	}
	if status >= 500 && serverToolParseFailure(d.Message) {
		return llm.ErrMalformedToolCall
	}
	if (status >= 500 || status == 0) && permanentServerError(d) {
		return llm.ErrBadRequest
	}
	switch {
	case status == 401 || status == 403:
		return llm.ErrAuth
	case status == 429:
		return llm.ErrRateLimit
	case status == 503 || status == 529:
		return llm.ErrOverloaded
	case status == 400 || status == 404 || status == 405 || status == 409 || status == 413 || status == 415 || status == 422:
		return llm.ErrBadRequest
	case status == 408 || status >= 500:
		return llm.ErrServer
	case status == 0 && (t == "api_error" || t == "server_error"):
		return llm.ErrServer
	case status == 0 && (t == "invalid_request_error" || t == "not_found_error" || t == "request_too_large"):
		return llm.ErrBadRequest
	}
	return llm.ErrUnknown
}

// serverToolParseFailure reports a local server (llama.cpp, vLLM) that
// failed to parse the tool call the model wrote ("Failed to parse input at
// pos 12: <tool_call>…"): retrying the same request repeats the failure, a
// nudge to the model fixes it.
func serverToolParseFailure(msg string) bool {
	m := strings.ToLower(msg)
	if !strings.Contains(m, "failed to parse") && !strings.Contains(m, "could not parse") {
		return false
	}
	return strings.Contains(m, "tool") || strings.Contains(m, "function")
}

// permanentServerError reports a 5xx that repeating the request cannot
// fix, because the server refuses what was asked rather than failing at
// it. llama.cpp answers a request it will not serve with HTTP 500 and
// type "server_error": "tools param requires --jinja flag" and
// "Unsupported param: tool_choice" are thrown by oaicompat_chat_params_parse
// (ggml-org/llama.cpp tools/server/utils.hpp) and rendered by the server's
// exception handler with ERROR_TYPE_SERVER; its ERROR_TYPE_NOT_SUPPORTED
// ("not_supported_error", HTTP 501) names a feature the build lacks.
// Retrying these 4 times only delays the one message the user needs.
func permanentServerError(d details) bool {
	if strings.ToLower(d.Type) == "not_supported_error" {
		return true
	}
	m := strings.ToLower(d.Message)
	return strings.Contains(m, "--jinja") || strings.Contains(m, "unsupported param") ||
		strings.Contains(m, "does not support tools")
}

// quota reports an exhausted account (OpenAI insufficient_quota), which
// waiting does not fix. Gemini words its per-minute limits "exceeded your
// current quota" too, but sends RESOURCE_EXHAUSTED with a retry delay: that
// stays a rate limit.
func quota(d details) bool {
	if d.Status == "RESOURCE_EXHAUSTED" || d.RetryDelay != "" {
		return false
	}
	return d.Code == "insufficient_quota" || d.Type == "insufficient_quota" ||
		strings.Contains(strings.ToLower(d.Message), "exceeded your current quota")
}

// authHint names the variable that holds the provider's key.
func authHint(provider string, d details) string {
	env := map[string]string{
		"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY",
		"gemini": "GEMINI_API_KEY", "google": "GEMINI_API_KEY",
	}[strings.ToLower(provider)]
	if env == "" {
		return fmt.Sprintf("the server rejected the API key: set the key for provider %q in the config (or OPENAI_API_KEY for an OpenAI-compatible server)", provider)
	}
	return "the API key is missing or invalid: set " + env + " (or the key in the config) and retry"
}

func badRequestHint(provider string, status int, d details) string {
	msg := strings.ToLower(d.Message)
	if h := knownHint(msg); h != "" {
		return h
	}
	switch {
	case status == 404 || strings.Contains(msg, "not found") || strings.Contains(msg, "does not exist"):
		if strings.Contains(strings.ToLower(provider), "ollama") {
			return "the model is not available: run `ollama pull <model>` or pick another with " + llm.PickModel
		}
		return "the model or endpoint was not found: check the model name, or pick another with " + llm.PickModel + ", and the base URL (zero providers shows it)"
	case status == 413:
		return "the request is too large: " + llm.Compact + " or send less"
	}
	return "the server rejected the request; the message above says which part"
}

// knownHint recognises server messages whose fix is known (llama.cpp,
// Ollama), whatever status they came with.
func knownHint(msg string) string {
	switch {
	case strings.Contains(msg, "--jinja"):
		return "llama-server needs --jinja to accept tools: restart it with --jinja"
	case strings.Contains(msg, "does not support tools"):
		return "this model's template has no tool support: pick a tool-capable model with " + llm.PickModel
	case strings.Contains(msg, "failed to parse tool call arguments"):
		return "the server could not parse a tool call's arguments in the history as JSON; check the session log for the call and report it"
	}
	return ""
}

// Retry-After forms: seconds, an HTTP date, OpenAI's retry-after-ms, Gemini's
// RetryInfo delay, and "try again in 20s" / "in 350ms" in a message. The
// pattern is compiled on first use: start-up time counts.
var retryInRe = lazyregexp.New(`(?i)(?:try again|retry) in ([0-9]+(?:\.[0-9]+)?)\s*(ms|s|sec|seconds?|m|minutes?)\b`)

func retryAfter(h http.Header, d details) time.Duration {
	if h != nil {
		if v := h.Get("retry-after-ms"); v != "" {
			if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
				return time.Duration(ms * float64(time.Millisecond))
			}
		}
		if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
			if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
				return time.Duration(s * float64(time.Second))
			}
			if t, err := http.ParseTime(v); err == nil {
				if dur := time.Until(t); dur > 0 {
					return dur
				}
				return 0
			}
		}
	}
	if d.RetryDelay != "" {
		if dur, err := time.ParseDuration(d.RetryDelay); err == nil && dur >= 0 {
			return dur
		}
	}
	if m := retryInRe.FindStringSubmatch(d.Message); m != nil {
		n, _ := strconv.ParseFloat(m[1], 64)
		unit := time.Second
		switch strings.ToLower(m[2]) {
		case "ms":
			unit = time.Millisecond
		case "m", "minute", "minutes":
			unit = time.Minute
		}
		return time.Duration(n * float64(unit))
	}
	return 0
}

// ClassifyStreamError classifies an error that arrives inside a stream
// after HTTP 200: Anthropic's `event: error` data
// {"type":"error","error":{"type":"overloaded_error",...}} (case B09) and the
// {"error":{...}} objects OpenAI-compatible servers put in a data: line.
// Kinds come from the error's type or code (overloaded_error → overloaded,
// rate_limit_error → rate limit, api_error → server, ...); Status stays 0
// because no HTTP status belongs to the error itself. It never returns nil.
func ClassifyStreamError(provider, model string, data []byte) *llm.ProviderError {
	d := parse(data)
	status := 0
	if n, err := strconv.Atoi(d.Code); err == nil && n >= 400 && n < 600 {
		status = n // llama.cpp and Gemini put the would-be status in code
	}
	e := Classify(provider, model, status, nil, data)
	e.Status = 0
	if e.Kind == llm.ErrUnknown {
		e.Kind = llm.ErrServer
		e.Hint = "the server reported an error mid-stream: Zero retries the turn; check the server's log if it persists"
	}
	if e.Message == "" || e.Message == http.StatusText(0) {
		e.Message = truncate(strings.TrimSpace(string(data)), 500)
	}
	return e
}
