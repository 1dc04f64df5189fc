// Package discovery finds a model server running on this machine when no
// model is configured: it probes the loopback ports local servers use
// (Ollama 11434, llama.cpp 8080, LM Studio 1234, vLLM 8000) in parallel
// with short timeouts through the OpenAI-compatible GET /v1/models, and
// reads the context window a found server actually runs with (llama.cpp
// /props; Ollama /api/ps, /api/show and its version's default; LM Studio
// /api/v1/models or /api/v0/models; vLLM max_model_len), with the window the
// model supports and a warning when the server cuts it (Window). The hard
// lesson encoded here: Ollama and LM Studio load a model with a small
// default window (2048-4096 tokens) whatever it was trained for, and the
// OpenAI-compatible endpoint cannot raise it, so the trained window is not
// the one to plan compaction by (ollama.go, lmstudio.go).
//
// It also tells the kind of a server named by URL (Identify), picks the
// model to use when none is named (the one the server has loaded, else
// the first chat model: PickModel), and says whether Ollama accepts tools
// for a model (SupportsTools).
//
// It also scans every common loopback port for `zero scan` and `/scan`
// (ScanLoopback, with Ollama's GET /api/tags when /v1/models does not
// answer) and keeps what a scan found in servers.json (SaveServers,
// LoadServers: the one file it writes, at the path its caller gives).
//
// The app's `/scan --lan`, and only it, also probes the machine's /24
// (lan.go: LocalLAN, ScanLANAndRemember), when a person asks.
//
// It only ever dials the hosts it is given (127.0.0.1 by default) and never
// goes through a proxy. It remembers nothing else between runs (the run
// layer keeps what must last, internal/run/toolmemory.go); configuration is
// internal/config's job and the chat protocol internal/providers/openai's.
package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ServerKind names the software behind a port.
type ServerKind string

// Server kinds.
const (
	Ollama   ServerKind = "ollama"
	LlamaCpp ServerKind = "llama.cpp"
	LMStudio ServerKind = "lmstudio"
	VLLM     ServerKind = "vllm"
	// Unknown is an OpenAI-compatible server of no recognised kind.
	Unknown ServerKind = "openai-compatible"
)

// Candidate is one port to probe and the kind expected there.
type Candidate struct {
	Port int
	Kind ServerKind
}

// DefaultCandidates are probed in this priority order.
var DefaultCandidates = []Candidate{
	{Port: 11434, Kind: Ollama},
	{Port: 8080, Kind: LlamaCpp},
	{Port: 1234, Kind: LMStudio},
	{Port: 8000, Kind: VLLM},
}

// ScanCandidates are the ports `/scan` probes (SPEC §3): the defaults,
// then other common OpenAI-compatible ports (5000, 8001 text-generation
// servers, 1337 Jan, 8888), whose kind is read from the model list.
var ScanCandidates = []Candidate{
	{Port: 11434, Kind: Ollama},
	{Port: 8080, Kind: LlamaCpp},
	{Port: 1234, Kind: LMStudio},
	{Port: 8000, Kind: VLLM},
	{Port: 5000, Kind: Unknown},
	{Port: 8001, Kind: Unknown},
	{Port: 1337, Kind: Unknown},
	{Port: 8888, Kind: Unknown},
}

// DefaultTimeout bounds one probe (connect plus response).
const DefaultTimeout = 300 * time.Millisecond

// Server is a model server that answered.
type Server struct {
	Kind ServerKind `json:"kind"`
	// BaseURL is the OpenAI-compatible API root, e.g.
	// "http://127.0.0.1:11434/v1".
	BaseURL string `json:"baseURL"`
	// Models are the ids GET /v1/models listed, in the server's order.
	Models []string `json:"models"`
	// MaxModelLen holds the windows (tokens) the model list itself gave
	// (vLLM max_model_len), by model id.
	MaxModelLen map[string]int `json:"maxModelLen,omitempty"`
	// Version is the server's version when it says (Ollama GET
	// /api/version), e.g. "0.12.6".
	Version string `json:"version,omitempty"`
}

// Root returns the server's root URL (BaseURL without "/v1").
func (s Server) Root() string { return strings.TrimSuffix(s.BaseURL, "/v1") }

// Prober probes one host. The zero value probes DefaultCandidates on
// 127.0.0.1 with DefaultTimeout.
type Prober struct {
	// Host is the address to dial; "" means 127.0.0.1.
	Host string
	// Candidates default to DefaultCandidates.
	Candidates []Candidate
	// Timeout bounds each probe; 0 means DefaultTimeout.
	Timeout time.Duration
	// Client is used for every request; nil means a client that never
	// uses a proxy.
	Client *http.Client
}

// ErrNoServer is wrapped by the error Find returns when nothing answered.
var ErrNoServer = errors.New("no local model server found")

// NotFoundError says which ports were tried and what each did, and how to
// get going.
type NotFoundError struct {
	Host  string
	Tried []Probe
}

// Probe is the outcome of probing one candidate.
type Probe struct {
	Candidate
	// Server is set when the port answered with a model list.
	Server *Server
	// Err says why not: connection refused, timeout, HTTP status, an
	// empty model list.
	Err error
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v on %s (tried", ErrNoServer, e.Host)
	for i, p := range e.Tried {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d %s", p.Port, kindLabel(p.Kind))
	}
	b.WriteString(")")
	for _, p := range e.Tried {
		var empty *emptyListError
		if errors.As(p.Err, &empty) {
			fmt.Fprintf(&b, "; %s on port %d is running but lists no models", kindLabel(p.Kind), p.Port)
			if p.Kind == Ollama {
				b.WriteString(" (run `ollama pull qwen3`)")
			}
		}
	}
	b.WriteString(". Start a server: `ollama serve`, `llama-server -m model.gguf --port 8080`, " +
		"LM Studio's local server (Developer tab, Start Server on port 1234) or `vllm serve MODEL`; " +
		"or set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or pass --base-url and --model")
	return b.String()
}

func (e *NotFoundError) Unwrap() error { return ErrNoServer }

func kindLabel(k ServerKind) string {
	switch k {
	case Ollama:
		return "Ollama"
	case LlamaCpp:
		return "llama.cpp"
	case LMStudio:
		return "LM Studio"
	case VLLM:
		return "vLLM"
	}
	return string(k)
}

type emptyListError struct{}

func (*emptyListError) Error() string { return "the model list is empty" }

// Find probes 127.0.0.1 on the default ports (see Prober.Find).
func Find(ctx context.Context) (*Server, error) { return (&Prober{}).Find(ctx) }

// Find probes every candidate in parallel and returns the first, in
// priority order, that answers GET /v1/models with at least one model. It
// returns as soon as that answer is certain, without waiting for slower,
// lower-priority probes. Nothing answering is a *NotFoundError.
func (p *Prober) Find(ctx context.Context) (*Server, error) {
	cands := p.candidates()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type done struct {
		i int
		r Probe
	}
	ch := make(chan done, len(cands))
	for i, c := range cands {
		go func() { ch <- done{i, p.probe(ctx, c)} }()
	}
	results := make([]*Probe, len(cands))
	for range cands {
		d := <-ch
		results[d.i] = &d.r
		// The first candidate that answered wins once every candidate
		// before it has failed.
		for _, r := range results {
			if r == nil {
				break
			}
			if r.Server != nil {
				return r.Server, nil
			}
		}
	}
	e := &NotFoundError{Host: p.host()}
	for _, r := range results {
		e.Tried = append(e.Tried, *r)
	}
	return nil, e
}

// Scan probes every candidate in parallel and reports each outcome in
// candidate order (for `/scan` and `/servers`).
func (p *Prober) Scan(ctx context.Context) []Probe {
	cands := p.candidates()
	out := make([]Probe, len(cands))
	done := make(chan struct{})
	for i, c := range cands {
		go func() { out[i] = p.probe(ctx, c); done <- struct{}{} }()
	}
	for range cands {
		<-done
	}
	return out
}

func (p *Prober) candidates() []Candidate {
	if p.Candidates != nil {
		return p.Candidates
	}
	return DefaultCandidates
}

func (p *Prober) host() string {
	if p.Host == "" {
		return "127.0.0.1"
	}
	return p.Host
}

func (p *Prober) timeout() time.Duration {
	if p.Timeout <= 0 {
		return DefaultTimeout
	}
	return p.Timeout
}

// noProxy is the default client: loopback servers must be dialed directly.
var noProxy = &http.Client{Transport: &http.Transport{
	Proxy:                 nil,
	DialContext:           (&net.Dialer{Timeout: DefaultTimeout}).DialContext,
	MaxIdleConnsPerHost:   1,
	ResponseHeaderTimeout: 5 * time.Second,
}}

func (p *Prober) client() *http.Client {
	if p.Client != nil {
		return p.Client
	}
	return noProxy
}

// probe asks one candidate for its model list.
func (p *Prober) probe(ctx context.Context, c Candidate) Probe {
	base := "http://" + net.JoinHostPort(p.host(), strconv.Itoa(c.Port)) + "/v1"
	srv, err := p.identify(ctx, base, c.Kind)
	return Probe{Candidate: c, Server: srv, Err: err}
}

// Identify asks the server at baseURL (a --base-url or a profile's, with
// or without "/v1") for its model list and tells its kind as Find does,
// from the list's owners and Ollama's GET /api/version, so the model a
// user left unnamed is picked the same way (PickModel) wherever the
// server was named.
func (p *Prober) Identify(ctx context.Context, baseURL string) (*Server, error) {
	base := strings.TrimRight(baseURL, "/")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	return p.identify(ctx, base, "")
}

// identify reads base's model list; byPort is the kind its port suggests
// ("" when none).
func (p *Prober) identify(ctx context.Context, base string, byPort ServerKind) (*Server, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	var list modelList
	if err := getJSON(ctx, p.client(), base+"/models", &list); err != nil {
		if refused(err) {
			return nil, err
		}
		if srv, terr := p.identifyByTags(ctx, base); terr == nil {
			return srv, nil
		}
		return nil, err
	}
	srv := &Server{Kind: byPort, BaseURL: base}
	owners := map[string]int{}
	for _, m := range list.Data {
		if m.ID == "" {
			continue
		}
		srv.Models = append(srv.Models, m.ID)
		owners[m.OwnedBy]++
		if m.MaxModelLen > 0 {
			if srv.MaxModelLen == nil {
				srv.MaxModelLen = map[string]int{}
			}
			srv.MaxModelLen[m.ID] = m.MaxModelLen
		}
	}
	if len(srv.Models) == 0 {
		return nil, &emptyListError{}
	}
	var sure bool
	srv.Kind, sure = recognise(byPort, owners, srv.MaxModelLen != nil)
	if !sure || srv.Kind == Ollama {
		// Ollama lists a user's own models under their namespace, not
		// "library": GET /api/version tells it apart.
		if v := p.ollamaVersion(ctx, *srv); v != "" {
			srv.Kind, srv.Version = Ollama, v
		}
	}
	return srv, nil
}

// recognise refines the kind a port suggests by what the model list says
// about its owner: "llamacpp" (llama.cpp), "vllm" (vLLM), "library"
// (Ollama), "organization_owner" (LM Studio). sure is false when only the
// port suggested the kind.
func recognise(byPort ServerKind, owners map[string]int, hasMaxLen bool) (kind ServerKind, sure bool) {
	switch {
	case owners["llamacpp"] > 0:
		return LlamaCpp, true
	case owners["vllm"] > 0 || hasMaxLen:
		return VLLM, true
	case owners["library"] > 0:
		return Ollama, true
	case owners["organization_owner"] > 0:
		return LMStudio, true
	}
	if byPort == "" {
		return Unknown, false
	}
	return byPort, false
}

// modelList is the OpenAI GET /v1/models response, with vLLM's extra
// max_model_len.
type modelList struct {
	Data []struct {
		ID          string `json:"id"`
		OwnedBy     string `json:"owned_by"`
		MaxModelLen int    `json:"max_model_len"`
	} `json:"data"`
}

// maxBody caps what is read from a probe response (bytes).
const maxBody = 4 << 20

func getJSON(ctx context.Context, c *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	return doJSON(c, req, v)
}

func doJSON(c *http.Client, req *http.Request, v any) error {
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d", req.Method, req.URL.Path, resp.StatusCode)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s %s: not the expected JSON: %w", req.Method, req.URL.Path, err)
	}
	return nil
}
