package llmtest

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// StepKind names what one scripted step does.
type StepKind string

// Step kinds. Content kinds are encoded by the wire format's Encoder;
// control kinds are carried out by the server itself.
const (
	KindText      StepKind = "text"      // answer text (Text), in Chunks pieces
	KindReasoning StepKind = "reasoning" // reasoning text (Text), in Chunks pieces
	KindToolCall  StepKind = "tool_call" // a tool call (ID, Name, Args), Args in Chunks pieces
	KindUsage     StepKind = "usage"     // usage to report (InputTokens, OutputTokens)
	KindFinish    StepKind = "finish"    // overrides the finish reason (Finish)
	KindError     StepKind = "error"     // HTTP error (Status, Body, Header), or a mid-stream error
	KindStall     StepKind = "stall"     // send nothing for Duration
	KindDrop      StepKind = "drop"      // close the connection mid-stream
	KindRaw       StepKind = "raw"       // write Text verbatim; the turn then gets no automatic end
	KindComment   StepKind = "comment"   // an SSE comment line ": Text" (keep-alive)
)

// Step is one scripted action of a turn. Build steps with the constructors
// (Text, ToolCall, Error, ...); the struct is exported so scripts can be
// loaded from JSON files (LoadScript).
type Step struct {
	Kind StepKind `json:"kind"`
	// Text is the content of text, reasoning, raw and comment steps.
	Text string `json:"text,omitempty"`
	// Chunks splits text, reasoning or tool-call arguments into this many
	// stream chunks (at rune boundaries); 0 or 1 means one chunk.
	Chunks int `json:"chunks,omitempty"`
	// ID, Name and Args describe a tool call. An empty ID gets
	// "call_llmtest_<n>" unless NoID is set (to script servers that send
	// empty ids, case B06).
	ID   string `json:"id,omitempty"`
	NoID bool   `json:"no_id,omitempty"`
	Name string `json:"name,omitempty"`
	Args string `json:"args,omitempty"`
	// InputTokens and OutputTokens are reported by a usage step, and
	// CachedTokens of the input as read from a prompt cache (OpenAI's
	// prompt_tokens_details.cached_tokens; 0 sends no details).
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens,omitempty"`
	CachedTokens int `json:"cached_tokens,omitempty"`
	// Finish is the wire finish reason of a finish step ("stop", "length").
	Finish string `json:"finish,omitempty"`
	// Status, Body and Header describe an error step. Body is sent as is.
	Status int               `json:"status,omitempty"`
	Body   string            `json:"body,omitempty"`
	Header map[string]string `json:"header,omitempty"`
	// Duration is how long a stall lasts.
	Duration Duration `json:"duration,omitempty"`
}

// Turn is the scripted answer to one completion request.
type Turn struct {
	Steps []Step `json:"steps"`
	// Match, when set, keeps the turn for a request whose body contains
	// it: a request gets the first unserved turn it matches, so a parent
	// agent and its sub-agents, whose requests arrive in any order, each
	// get their own answers (When).
	Match string `json:"when,omitempty"`
	// AwaitInFlight holds the answer until that many completion
	// requests are being served at once, or AwaitFor has passed (Await).
	AwaitInFlight int      `json:"awaitInFlight,omitempty"`
	AwaitFor      Duration `json:"awaitFor,omitempty"`
}

// When returns t kept for a request whose body contains substr.
func (t Turn) When(substr string) Turn { t.Match = substr; return t }

// Await returns t held until n completion requests are in flight at once
// (a proof that requests run in parallel, with Server.MaxInFlight), or at
// most max.
func (t Turn) Await(n int, max time.Duration) Turn {
	t.AwaitInFlight, t.AwaitFor = n, Duration(max)
	return t
}

// Reply returns a Turn made of steps.
func Reply(steps ...Step) Turn { return Turn{Steps: steps} }

// Text streams answer text.
func Text(s string) Step { return Step{Kind: KindText, Text: s} }

// Reasoning streams reasoning text (reasoning_content on the OpenAI wire).
func Reasoning(s string) Step { return Step{Kind: KindReasoning, Text: s} }

// ToolCall streams a tool call with the given arguments JSON text.
func ToolCall(name, argsJSON string) Step {
	return Step{Kind: KindToolCall, Name: name, Args: argsJSON}
}

// Usage reports token usage (tokens).
func Usage(input, output int) Step {
	return Step{Kind: KindUsage, InputTokens: input, OutputTokens: output}
}

// Cached returns the usage step with cached of its input tokens read from
// the server's prompt cache.
func (s Step) Cached(cached int) Step { s.CachedTokens = cached; return s }

// Finish sets the finish reason, e.g. "length".
func Finish(reason string) Step { return Step{Kind: KindFinish, Finish: reason} }

// Error answers with HTTP status and body when nothing was sent yet; after
// the stream began it sends body as the format's mid-stream error event.
func Error(status int, body string) Step {
	return Step{Kind: KindError, Status: status, Body: body}
}

// Respond answers with exactly this status and body, whatever the request
// asked for (Content-Type application/json unless WithHeader sets one): a
// server that ignores stream:true, or an error body. After the stream
// began it behaves like Error.
func Respond(status int, body string) Step {
	return Step{Kind: KindError, Status: status, Body: body}
}

// Stall sends nothing for d (ended early when the client goes away). A
// stall before any other step also delays the response headers.
func Stall(d time.Duration) Step { return Step{Kind: KindStall, Duration: Duration(d)} }

// Drop closes the connection without ending the response.
func Drop() Step { return Step{Kind: KindDrop} }

// Raw writes s verbatim (e.g. exact SSE bytes from a case file). A turn
// with a raw step gets no automatic end: script the terminator yourself.
func Raw(s string) Step { return Step{Kind: KindRaw, Text: s} }

// Comment sends an SSE comment (keep-alive) line.
func Comment(s string) Step { return Step{Kind: KindComment, Text: s} }

// Split returns the step with its text or arguments split into n chunks.
func (s Step) Split(n int) Step { s.Chunks = n; return s }

// WithID returns the tool-call step with a fixed id.
func (s Step) WithID(id string) Step { s.ID, s.NoID = id, id == ""; return s }

// WithHeader returns the error step with a response header added.
func (s Step) WithHeader(key, value string) Step {
	h := make(map[string]string, len(s.Header)+1)
	for k, v := range s.Header {
		h[k] = v
	}
	h[key] = value
	s.Header = h
	return s
}

// Pieces splits s into n pieces of about equal rune counts (fewer when s
// has fewer runes). Encoders use it to chunk text and arguments.
func Pieces(s string, n int) []string {
	runes := utf8.RuneCountInString(s)
	if n <= 1 || runes <= 1 {
		return []string{s}
	}
	size := (runes + n - 1) / n
	out := make([]string, 0, n)
	start, count := 0, 0
	for i := range s {
		if count == size {
			out = append(out, s[start:i])
			start, count = i, 0
		}
		count++
	}
	return append(out, s[start:])
}

// Duration is a time.Duration that reads from JSON as "250ms"/"2s" or a
// number of milliseconds.
type Duration time.Duration

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads "250ms" or 250 (milliseconds).
func (d *Duration) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		v, err := time.ParseDuration(str)
		if err != nil {
			return err
		}
		*d = Duration(v)
		return nil
	}
	ms, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("llmtest: duration %s: want \"2s\" or milliseconds", s)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

// LoadScript reads turns from a JSON file: either {"turns": [...]} or a
// bare array of turns, each {"steps": [{"kind": "text", "text": "hi"}, ...]}
// with the fields of Step.
func LoadScript(path string) ([]Turn, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var turns []Turn
	if t := strings.TrimSpace(string(b)); strings.HasPrefix(t, "[") {
		err = json.Unmarshal(b, &turns)
	} else {
		var doc struct {
			Turns []Turn `json:"turns"`
		}
		err = json.Unmarshal(b, &doc)
		turns = doc.Turns
	}
	if err != nil {
		return nil, fmt.Errorf("llmtest: script %s: %w", path, err)
	}
	for i, t := range turns {
		for j, s := range t.Steps {
			if s.Kind == "" {
				return nil, fmt.Errorf("llmtest: script %s: turn %d step %d has no kind", path, i, j)
			}
		}
	}
	return turns, nil
}
