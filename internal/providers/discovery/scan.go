package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/zero-agent/zero/internal/atomicfile"
)

// ScanLoopback probes 127.0.0.1 on ScanCandidates (or the given ports,
// for tests and `zero scan --ports`) in parallel and returns every server
// that listed at least one model, in candidate order.
func ScanLoopback(ctx context.Context, ports []int) []Server {
	p := &Prober{Candidates: ScanCandidates}
	if len(ports) > 0 {
		p.Candidates = nil
		for _, n := range ports {
			p.Candidates = append(p.Candidates, Candidate{Port: n, Kind: kindOfPort(n)})
		}
	}
	var out []Server
	for _, r := range p.Scan(ctx) {
		if r.Server != nil {
			out = append(out, *r.Server)
		}
	}
	return out
}

func kindOfPort(port int) ServerKind {
	for _, c := range ScanCandidates {
		if c.Port == port {
			return c.Kind
		}
	}
	return Unknown
}

// ollamaTags is Ollama's native model list, GET /api/tags
// (https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models).
type ollamaTags struct {
	Models []struct {
		Name  string `json:"name"`
		Model string `json:"model"`
	} `json:"models"`
}

// identifyByTags reads Ollama's GET /api/tags at base's root: a server
// whose /v1/models did not answer (an Ollama before 0.1.24, or one behind
// a proxy that passes only the native API) is still found.
func (p *Prober) identifyByTags(ctx context.Context, base string) (*Server, error) {
	var tags ollamaTags
	if err := getJSON(ctx, p.client(), Server{BaseURL: base}.Root()+"/api/tags", &tags); err != nil {
		return nil, err
	}
	srv := &Server{Kind: Ollama, BaseURL: base}
	for _, m := range tags.Models {
		id := m.Name
		if id == "" {
			id = m.Model
		}
		if id != "" {
			srv.Models = append(srv.Models, id)
		}
	}
	if len(srv.Models) == 0 {
		return nil, &emptyListError{}
	}
	return srv, nil
}

// refused tells an error from a port nothing listens on (or a dial that
// timed out), after which no other path is worth asking.
func refused(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" || errors.Is(err, context.DeadlineExceeded)
}

// Remembered is the servers.json file: the servers the last scan found.
type Remembered struct {
	Scanned time.Time `json:"scanned"`
	Servers []Server  `json:"servers"`
}

// ServersFile is servers.json in dir (the config directory).
func ServersFile(dir string) string { return filepath.Join(dir, "servers.json") }

// SaveServers replaces path with the servers a scan found, atomically.
func SaveServers(path string, r Remembered) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o600)
}

// LoadServers reads path; a missing file is no servers and no error, a
// broken one an error naming it.
func LoadServers(path string) (Remembered, error) {
	var r Remembered
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// Choice is one model of a scan, numbered from 1 in the order Choices
// lists them (for `/connect N`).
type Choice struct {
	N      int
	Server Server
	Model  string
}

// Choices numbers every model of servers, server by server.
func Choices(servers []Server) []Choice {
	var out []Choice
	for _, s := range servers {
		for _, m := range s.Models {
			out = append(out, Choice{N: len(out) + 1, Server: s, Model: m})
		}
	}
	return out
}

// ScanAndRemember scans loopback (ScanLoopback) and replaces servers.json
// in dir with what it found, nothing found included, so the file is
// always the last scan's.
func ScanAndRemember(ctx context.Context, dir string, ports []int) (Remembered, error) {
	r := Remembered{Scanned: time.Now().UTC(), Servers: ScanLoopback(ctx, ports)}
	if r.Servers == nil {
		r.Servers = []Server{}
	}
	return r, SaveServers(ServersFile(dir), r)
}

// ScanPorts are the ports a scan with no override probes.
func ScanPorts() []int {
	out := make([]int, len(ScanCandidates))
	for i, c := range ScanCandidates {
		out[i] = c.Port
	}
	return out
}

// WriteScan prints servers and their models, numbered as /connect takes
// them (Choices).
func WriteScan(w io.Writer, servers []Server) {
	n := 0
	for _, srv := range servers {
		fmt.Fprintf(w, "%s  %s\n", srv.Kind, srv.BaseURL)
		for _, m := range srv.Models {
			n++
			fmt.Fprintf(w, "  %d. %s\n", n, m)
		}
	}
}
