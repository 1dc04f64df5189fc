// Package llmtest is an in-process fake model server for tests: an
// httptest.Server on 127.0.0.1 that answers completion requests byte for
// byte in a real wire format, following a script of turns (text,
// reasoning, tool calls split across chunks, usage, HTTP and mid-stream
// errors, stalls, dropped connections, raw bytes), and records every
// request for assertions.
//
// The script is format-neutral; each wire format is an Encoder chosen by
// the request path (OpenAI Chat Completions in openai.go; other formats
// register theirs the same way). It is usable from any package's tests and
// from end-to-end tests that point the real binary at URL(); scripts can be
// loaded from JSON files (LoadScript).
//
// It must not import providers: tests that use it check that our clients
// understand the wire, so the wire has to come from here.
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"
)

// Request is one request the server received.
type Request struct {
	Method string
	Path   string
	// Query is the raw query string, e.g. "alt=sse".
	Query  string
	Header http.Header
	// Body is the raw request body.
	Body []byte
	// JSON is Body decoded (map[string]any for an object), nil when the
	// body is empty or not JSON.
	JSON any
}

// Map returns JSON as an object, or nil.
func (r Request) Map() map[string]any {
	m, _ := r.JSON.(map[string]any)
	return m
}

// Server is a scripted fake model server. Its methods are safe for
// concurrent use.
type Server struct {
	ts       *httptest.Server
	encoders []Encoder

	mu     sync.Mutex
	turns  []Turn
	served int
	// taken marks the turns served (a When turn may be served before
	// earlier ones); inFlight counts completion requests being served,
	// maxInFlight the most at once.
	taken                 []bool
	inFlight, maxInFlight int
	// peaks are the most requests in flight each request being served
	// has seen (Await), changed signals a change.
	peaks   map[*int]bool
	changed *sync.Cond
	reqs    []Request
	models  []string
	// cache, when set (LlamaServerCache), counts chat prompts against the
	// previous one as llama-server's prompt cache does.
	cache *promptCache
}

// registered holds constructors of the wire formats compiled into the
// package (each format's file adds itself in init).
var registered []func() Encoder

func registerEncoder(f func() Encoder) { registered = append(registered, f) }

// NewServer starts a server on 127.0.0.1. When t is not nil the server is
// closed at the end of the test; otherwise call Close.
func NewServer(t testing.TB) *Server { return NewServerOn(t, "127.0.0.1") }

// NewServerOn starts a server on addr, which must be a loopback address:
// 127.0.0.7 stands for another host of a LAN in a test that must never
// dial one (Linux routes all of 127.0.0.0/8 to the loopback interface).
func NewServerOn(t testing.TB, addr string) *Server {
	ip, err := netip.ParseAddr(addr)
	if err != nil || !ip.IsLoopback() {
		panic(fmt.Sprintf("llmtest: %q is not a loopback address; tests dial nothing else", addr))
	}
	s := &Server{models: []string{"llmtest-model"}}
	for _, f := range registered {
		s.encoders = append(s.encoders, f())
	}
	s.ts = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	if addr != "127.0.0.1" {
		ln, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
		if err != nil {
			panic(fmt.Sprintf("llmtest: listening on %s: %v", addr, err))
		}
		s.ts.Listener.Close()
		s.ts.Listener = ln
	}
	s.ts.Start()
	if t != nil {
		t.Cleanup(s.Close)
	}
	return s
}

// URL returns the server root, e.g. "http://127.0.0.1:38211" (no "/v1").
func (s *Server) URL() string { return s.ts.URL }

// Close shuts the server down, ending stalled handlers.
func (s *Server) Close() {
	s.ts.CloseClientConnections()
	s.ts.Close()
}

// Env returns environment entries that point an OpenAI-compatible client
// (the zero binary in an end-to-end test) at this server:
// OPENAI_BASE_URL=<URL>/v1 and a dummy OPENAI_API_KEY.
func (s *Server) Env() []string {
	return []string{"OPENAI_BASE_URL=" + s.URL() + "/v1", "OPENAI_API_KEY=llmtest-key"}
}

// Script appends turns; each completion request consumes the next one.
func (s *Server) Script(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// SetModels sets the ids GET /v1/models returns (default "llmtest-model").
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), ids...)
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Remaining returns how many scripted turns have not been served.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.served
}

// MaxInFlight is the most completion requests served at once so far.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight
}

// next takes the first unserved turn body matches (a turn without Match
// matches any), and counts the request in flight until done is called.
func (s *Server) next(body []byte) (turn Turn, index int, peak *int, done func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.taken) < len(s.turns) {
		s.taken = append(s.taken, false)
	}
	index = -1
	for i, t := range s.turns {
		if !s.taken[i] && (t.Match == "" || bytes.Contains(body, []byte(t.Match))) {
			index = i
			break
		}
	}
	if index < 0 {
		return Turn{}, -1, nil, nil, false
	}
	s.taken[index] = true
	s.served++
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	if s.peaks == nil {
		s.peaks, s.changed = map[*int]bool{}, sync.NewCond(&s.mu)
	}
	peak = new(int)
	s.peaks[peak] = true
	for p := range s.peaks {
		*p = max(*p, s.inFlight)
	}
	s.changed.Broadcast()
	return s.turns[index], index, peak, func() {
		s.mu.Lock()
		s.inFlight--
		delete(s.peaks, peak)
		s.mu.Unlock()
	}, true
}

// await holds a request until it has seen n requests in flight at once,
// or d has passed.
func (s *Server) await(peak *int, n int, d time.Duration) {
	timer := time.AfterFunc(d, func() {
		s.mu.Lock()
		*peak = max(*peak, n) // give up waiting
		s.changed.Broadcast()
		s.mu.Unlock()
	})
	defer timer.Stop()
	s.mu.Lock()
	for *peak < n {
		s.changed.Wait()
	}
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var body bytes.Buffer
	body.ReadFrom(r.Body)
	rec := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body.Bytes()}
	if body.Len() > 0 {
		var v any
		if json.Unmarshal(body.Bytes(), &v) == nil {
			rec.JSON = v
		}
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, rec)
	n := len(s.reqs)
	s.mu.Unlock()

	if r.Method == http.MethodGet {
		for _, e := range s.encoders {
			if ml, ok := e.(ModelLister); ok && ml.MatchModels(r) {
				w.Header().Set("Content-Type", "application/json")
				w.Write(ml.Models(s.modelIDs()))
				return
			}
		}
		if r.URL.Path == "/v1/models" || r.URL.Path == "/models" {
			s.serveModels(w)
			return
		}
	}
	var enc Encoder
	for _, e := range s.encoders {
		if e.Match(r) {
			enc = e
			break
		}
	}
	if enc == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("llmtest: no wire format serves %s %s", r.Method, r.URL.Path), "llmtest_no_route")
		return
	}
	turn, index, peak, done, ok := s.next(rec.Body)
	if !ok {
		writeError(w, http.StatusInternalServerError,
			fmt.Sprintf("llmtest: script exhausted: request %d (%s %s) has no scripted turn; add one with Script", n, r.Method, r.URL.Path),
			"llmtest_script_exhausted")
		return
	}
	defer done()
	if turn.AwaitInFlight > 0 {
		s.await(peak, turn.AwaitInFlight, time.Duration(turn.AwaitFor))
	}
	st := &State{Request: rec, Turn: index, Model: modelOf(rec)}
	s.countPrompt(st, enc, turn)
	for _, step := range turn.Steps {
		switch step.Kind {
		case KindToolCall:
			st.HasToolCalls = true
		case KindUsage:
			st.Usage = &step
		case KindFinish:
			st.Finish = step.Finish
		}
	}
	if enc.Streaming(rec) {
		s.stream(w, r, enc, st, turn)
	} else {
		s.whole(w, r, enc, st, turn)
	}
}

func modelOf(r Request) string {
	if m, ok := r.Map()["model"].(string); ok {
		return m
	}
	return "llmtest-model"
}

func (s *Server) modelIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.models...)
}

// serveModels answers GET /v1/models in the OpenAI list shape.
func (s *Server) serveModels(w http.ResponseWriter) {
	ids := s.modelIDs()
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, id := range ids {
		list.Data = append(list.Data, model{ID: id, Object: "model", Created: created, OwnedBy: "llmtest"})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(list)
}

// writeError answers with an OpenAI-shaped error body.
func writeError(w http.ResponseWriter, status int, msg, typ string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": typ}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

func writeHTTPError(w http.ResponseWriter, step Step) {
	for k, v := range step.Header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	status := step.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	w.WriteHeader(status)
	w.Write([]byte(step.Body))
}

// stream plays a turn as a streamed response.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, enc Encoder, st *State, turn Turn) {
	flusher, _ := w.(http.Flusher)
	started := false
	begin := func() {
		if started {
			return
		}
		started = true
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		w.Write(enc.Begin(st))
		if flusher != nil {
			flusher.Flush()
		}
	}
	send := func(b []byte) {
		if len(b) == 0 {
			return
		}
		w.Write(b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	raw := false
	for i, step := range turn.Steps {
		switch step.Kind {
		case KindError:
			if !started {
				writeHTTPError(w, step)
				return
			}
			send(enc.StreamError(st, []byte(step.Body)))
			return
		case KindStall:
			if i > 0 {
				begin()
			}
			select {
			case <-time.After(time.Duration(step.Duration)):
			case <-r.Context().Done():
				return
			}
			continue
		}
		begin()
		switch step.Kind {
		case KindDrop:
			if flusher != nil {
				flusher.Flush()
			}
			panic(http.ErrAbortHandler) // closes the connection without ending the body
		case KindRaw:
			raw = true
			send([]byte(step.Text))
		case KindComment:
			send([]byte(": " + step.Text + "\n\n"))
		default:
			send(enc.Step(st, step))
		}
	}
	begin()
	if !raw {
		send(enc.End(st))
	}
}

// whole plays a turn as one non-streamed response body.
func (s *Server) whole(w http.ResponseWriter, r *http.Request, enc Encoder, st *State, turn Turn) {
	var content []Step
	for _, step := range turn.Steps {
		switch step.Kind {
		case KindError:
			writeHTTPError(w, step)
			return
		case KindStall:
			select {
			case <-time.After(time.Duration(step.Duration)):
			case <-r.Context().Done():
				return
			}
		case KindDrop:
			panic(http.ErrAbortHandler)
		case KindRaw:
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(step.Text))
			return
		default:
			content = append(content, step)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(enc.Whole(st, content))
}
