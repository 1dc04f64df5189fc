// Package streamjson writes a run's events for machines: `-o stream-json`
// (one JSON object per line, as they happen) and `-o json` (one object at
// the end). The shapes are documented in docs/stream-json.md. It consumes
// internal/event values only and owns no agent logic.
package streamjson

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
)

// Public lists the event types written by stream-json. Message events
// (full conversation messages for the session log), permission decisions
// and compactions are internal and are not part of the stream.
var Public = map[event.Type]bool{
	event.RunStart: true, event.Text: true, event.Reasoning: true, event.ToolCall: true,
	event.ToolResult: true, event.Usage: true, event.Warning: true, event.Error: true,
	event.Final: true, event.RunEnd: true, event.PermissionRequest: true, event.Hook: true, event.Plan: true,
	event.QuestionAsked: true, event.QuestionAnswered: true,
}

// Writer is an event.Sink writing one JSON line per public event. Writes
// are serialised; a write error is remembered and reported by Err.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
	// SessionID, when set, is added to run_start and run_end lines.
	SessionID string
	// pending is a run_end line held back: the last one is written by End
	// with the exec's Result; an earlier one (a run retried for
	// --output-schema) when the next run starts.
	pending *line
}

// NewWriter returns a stream-json writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// line is an event plus the session id the surface knows and, on the
// last run_end, the exec's Result.
type line struct {
	event.Event
	SessionID string `json:"sessionId,omitempty"`
	*Result
}

// Result is how a whole `zero exec` ended, on the `-o json` summary and
// stream-json's last run_end line (docs/stream-json.md).
type Result struct {
	Subtype string `json:"subtype"`
	IsError bool   `json:"isError"`
	// PermissionDenials are the calls the gate refused, in order.
	PermissionDenials []Denial `json:"permissionDenials"`
	// SessionLog is the session's events.jsonl (absent with --ephemeral).
	SessionLog string `json:"sessionLog,omitempty"`
}

// Denial is one refused tool call.
type Denial struct {
	Tool   string `json:"tool"`
	CallID string `json:"callId"`
	Reason string `json:"reason"`
}

// Emit writes e if it is public; a run_end is held for End. A
// sub-agent's events (ParentToolCallID set) are written as they come,
// its run_start and run_end with its own session: they neither release
// nor replace the parent's held run_end.
func (s *Writer) Emit(e event.Event) {
	if !Public[e.Type] {
		return
	}
	l := line{Event: e}
	child := e.ParentToolCallID != ""
	if e.Type == event.RunStart || e.Type == event.RunEnd {
		l.SessionID = s.SessionID
		if child {
			l.SessionID = e.AgentSession
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.Type == event.RunStart && s.pending != nil && !child {
		s.write(*s.pending)
		s.pending = nil
	}
	if e.Type == event.RunEnd && !child {
		s.pending = &l
		return
	}
	s.write(l)
}

// End writes the held run_end with r and totals (every run's, summed);
// with no run_end held (the run never started) it writes one.
func (s *Writer) End(r Result, totals event.Totals) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := line{Event: event.Event{SchemaVersion: event.SchemaVersion, Type: event.RunEnd, StopReason: event.StopError}, SessionID: s.SessionID}
	if s.pending != nil {
		l = *s.pending
		s.pending = nil
	}
	l.Totals, l.Result = &totals, &r
	s.write(l)
}

// write marshals one line. s.mu is held.
func (s *Writer) write(l line) {
	b, err := json.Marshal(l)
	if err != nil || s.err != nil {
		return
	}
	_, s.err = s.w.Write(append(b, '\n'))
}

// Err returns the first write error.
func (s *Writer) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Summary is the one object `-o json` prints at the end of a run.
type Summary struct {
	SchemaVersion int              `json:"schemaVersion"`
	Type          string           `json:"type"` // always "result"
	RunID         string           `json:"runId"`
	SessionID     string           `json:"sessionId,omitempty"`
	Provider      string           `json:"provider,omitempty"`
	Model         string           `json:"model,omitempty"`
	StopReason    event.StopReason `json:"stopReason"`
	Final         string           `json:"final"`
	Error         string           `json:"error,omitempty"`
	ErrorKind     llm.ErrorKind    `json:"errorKind,omitempty"`
	Warnings      []string         `json:"warnings,omitempty"`
	ToolCalls     []ToolCallInfo   `json:"toolCalls"`
	Totals        event.Totals     `json:"totals"`
	Result
}

// ToolCallInfo summarises one tool call in a Summary.
type ToolCallInfo struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	IsError   bool   `json:"isError"`
	RawBytes  int    `json:"rawBytes"`
	KeptBytes int    `json:"keptBytes"`
	ExitCode  *int   `json:"exitCode,omitempty"`
}

// Collector is an event.Sink that builds a Summary.
type Collector struct {
	mu    sync.Mutex
	S     Summary
	index map[string]int
}

// NewCollector returns an empty collector.
func NewCollector() *Collector {
	return &Collector{S: Summary{SchemaVersion: event.SchemaVersion, Type: "result", ToolCalls: []ToolCallInfo{}}, index: map[string]int{}}
}

// Emit folds e into the summary. Of a sub-agent's events only its
// warnings count, named after it: its run, calls and answer are its own
// session's (the parent's task result carries the answer).
func (c *Collector) Emit(e event.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &c.S
	if e.ParentToolCallID != "" {
		if e.Type == event.Warning {
			s.Warnings = append(s.Warnings, e.Agent+" sub-agent: "+e.Text)
		}
		return
	}
	switch e.Type {
	case event.RunStart:
		s.RunID, s.Provider, s.Model = e.RunID, e.Provider, e.Model
	case event.ToolCall:
		if e.ToolCall != nil {
			c.index[e.ToolCall.ID] = len(s.ToolCalls)
			s.ToolCalls = append(s.ToolCalls, ToolCallInfo{ID: e.ToolCall.ID, Name: e.ToolCall.Name, Arguments: e.ToolCall.Arguments})
		}
	case event.ToolResult:
		if e.Result != nil {
			if i, ok := c.index[e.Result.CallID]; ok {
				tc := &s.ToolCalls[i]
				tc.IsError, tc.RawBytes, tc.KeptBytes, tc.ExitCode = e.Result.IsError, e.Result.RawBytes, e.Result.KeptBytes, e.Result.ExitCode
			}
		}
	case event.Warning:
		s.Warnings = append(s.Warnings, e.Text)
	case event.Error:
		s.Error, s.ErrorKind = e.Text, e.ErrorKind
	case event.Final:
		s.Final = e.Text
	case event.RunEnd:
		s.StopReason = e.StopReason
		if e.Totals != nil {
			s.Totals = *e.Totals
		}
	}
}

// End sets the exec's Result and its totals (every run's, summed).
func (c *Collector) End(r Result, totals event.Totals) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.S.Result, c.S.Totals = r, totals
}

// Write prints the summary as one JSON object and a newline.
func (c *Collector) Write(w io.Writer) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, err := json.MarshalIndent(c.S, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
