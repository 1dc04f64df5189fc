package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrorKind classifies a provider failure so the agent loop reacts by kind,
// never by matching strings.
type ErrorKind string

// Error kinds.
const (
	ErrAuth            ErrorKind = "auth"             // 401/403, bad or missing key
	ErrRateLimit       ErrorKind = "rate_limit"       // 429 (RetryAfter may be set)
	ErrOverloaded      ErrorKind = "overloaded"       // 503/529, Anthropic overloaded_error
	ErrContextOverflow ErrorKind = "context_overflow" // prompt larger than the window
	ErrBadRequest      ErrorKind = "bad_request"      // 400/404/422 the request itself is wrong
	ErrConnect         ErrorKind = "connect"          // no connection could be made, after the transport's connect retry
	ErrStreamStall     ErrorKind = "stream_stall"     // no bytes within the idle timeout
	ErrStreamBroken    ErrorKind = "stream_broken"    // connection dropped mid-stream
	ErrServer          ErrorKind = "server"           // 5xx not otherwise classified
	ErrCanceled        ErrorKind = "canceled"         // the caller cancelled
	// ErrMalformedToolCall: the model tried to call a tool and produced
	// something the provider could not parse (Gemini finishReason
	// MALFORMED_FUNCTION_CALL). Not retryable as is: the same request tends
	// to fail the same way, so the agent loop tells the model what went
	// wrong and asks again (a bounded number of times).
	ErrMalformedToolCall ErrorKind = "malformed_tool_call"
	ErrUnknown           ErrorKind = "unknown"
)

// ProviderError is the one error type providers return. Message is the
// server's own message when one was parsed; Hint says what the user can do.
type ProviderError struct {
	Kind     ErrorKind
	Provider string
	Model    string
	// Status is the HTTP status, 0 when none was received.
	Status  int
	Message string
	// RetryAfter is the server's requested delay (Retry-After header or
	// body field); 0 when not given.
	RetryAfter time.Duration
	Hint       string
	Err        error
}

// PickModel is how a provider error's hint names the way to choose another
// model: in the command line's words, which every surface but the app
// shares (exec, acp, mcp serve); the app shows its /model in their place.
const PickModel = "--model (zero models lists them)"

// Compact is how a provider error's hint says to shrink the conversation,
// in the command line's words (exec compacts on its own, so what is left
// is the app's /compact on the resumed session); the app says /compact.
const Compact = "compact it (zero --resume, then /compact)"

func (e *ProviderError) Error() string {
	s := fmt.Sprintf("%s", e.Kind)
	if e.Provider != "" {
		s = e.Provider + ": " + s
	}
	if e.Model != "" {
		s += " (model " + e.Model + ")"
	}
	if e.Status != 0 {
		s += fmt.Sprintf(" [HTTP %d]", e.Status)
	}
	if e.Message != "" {
		s += ": " + e.Message
	} else if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Hint != "" {
		s += " — " + e.Hint
	}
	return s
}

func (e *ProviderError) Unwrap() error { return e.Err }

// Retryable reports whether repeating the same request may succeed.
//
// ErrConnect is not: the provider transport (internal/providers/transport)
// is the only connect retry and has already made its attempts, and a
// refused connection means no server is listening, which waiting seconds
// more does not change. Retrying it again in the agent loop is what once
// made a refused 127.0.0.1 take 16 attempts and 22 s to report.
func (e *ProviderError) Retryable() bool {
	switch e.Kind {
	case ErrRateLimit, ErrOverloaded, ErrStreamStall, ErrStreamBroken, ErrServer:
		return true
	}
	return false
}

// KindOf returns the ErrorKind of err: the kind of a wrapped
// *ProviderError, ErrCanceled for context cancellation, else ErrUnknown.
func KindOf(err error) ErrorKind {
	var pe *ProviderError
	if errors.As(err, &pe) {
		return pe.Kind
	}
	if errors.Is(err, context.Canceled) {
		return ErrCanceled
	}
	return ErrUnknown
}

// IsRetryable reports whether err is a retryable *ProviderError.
func IsRetryable(err error) bool {
	var pe *ProviderError
	return errors.As(err, &pe) && pe.Retryable()
}
