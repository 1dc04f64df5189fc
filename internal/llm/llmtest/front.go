package llmtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// front is an httptest.Server for a local model server's own API (Ollama,
// LM Studio): own answers the paths that API serves, returning false for
// the others, which the scripted Server underneath answers (chat
// completions). Every request, answered by either, is recorded in the
// Server's Requests.
type front struct {
	*Server
	ts *httptest.Server
}

func newFront(t testing.TB, own func(w http.ResponseWriter, r *http.Request, body []byte) bool) front {
	inner := NewServer(t)
	f := front{Server: inner}
	f.ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body bytes.Buffer
		body.ReadFrom(r.Body)
		r.Body.Close()
		r.Body = readCloser{bytes.NewReader(body.Bytes())}
		// Chat requests are recorded by the scripted server itself.
		probe := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body.Bytes()}
		if json.Unmarshal(body.Bytes(), &probe.JSON) != nil {
			probe.JSON = nil
		}
		if own(w, r, body.Bytes()) {
			inner.mu.Lock()
			inner.reqs = append(inner.reqs, probe)
			inner.mu.Unlock()
			return
		}
		inner.serve(w, r)
	}))
	if t != nil {
		t.Cleanup(f.Close)
	}
	return f
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// URL returns the server root, e.g. "http://127.0.0.1:38211" (no "/v1").
func (f front) URL() string { return f.ts.URL }

// Env points an OpenAI-compatible client at this server (see Server.Env).
func (f front) Env() []string {
	return []string{"OPENAI_BASE_URL=" + f.URL() + "/v1", "OPENAI_API_KEY=llmtest-key"}
}

// Close shuts the server and the scripted server underneath down.
func (f front) Close() {
	f.ts.CloseClientConnections()
	f.ts.Close()
	f.Server.Close()
}

// writeJSON answers v as Go's encoding/json writes it, which is how Ollama
// (gin's c.JSON) writes its bodies.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b)
}
