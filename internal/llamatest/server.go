package llamatest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Version is the node-llama-cpp release whose llama.cpp source .ci/llama-server builds.
const Version = "3.21.1"

// Binary is the llama-server that .ci/llama-server built: $ZERO_LLAMA_SERVER
// or the script's cache path for this CPU. The error says how to build it.
func Binary() (string, error) {
	if p := os.Getenv("ZERO_LLAMA_SERVER"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("ZERO_LLAMA_SERVER: %w", err)
		}
		return p, nil
	}
	p := filepath.Join(cacheDir(), "llama-server-"+Version+"-"+cpuKey(), "llama-server")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("no llama-server at %s: build it once with `bash .ci/llama-server` (about 15 minutes on 2 cores; .ci/run does it)", p)
	}
	return p, nil
}

// cacheDir mirrors .ci/llama-server's ZERO_CACHE_DIR, XDG_CACHE_HOME, ~/.cache.
func cacheDir() string {
	if d := os.Getenv("ZERO_CACHE_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "zero-ci")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "zero-ci")
}

// cpuKey mirrors the script: the first 12 hex digits of the SHA-256 of
// /proc/cpuinfo's first flags line (with its newline).
func cpuKey() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	line := regexp.MustCompile(`(?m)^flags.*$`).Find(data)
	sum := sha256.Sum256(append(line, '\n'))
	return hex.EncodeToString(sum[:])[:12]
}

// Files are the vocabulary and chat templates the build keeps beside the binary.
type Files struct{ Dir string }

// FilesFor is the models folder beside bin.
func FilesFor(bin string) Files { return Files{Dir: filepath.Join(filepath.Dir(bin), "models")} }

// Vocab is Qwen2's vocabulary file.
func (f Files) Vocab() string { return filepath.Join(f.Dir, "ggml-vocab-qwen2.gguf") }

// Template reads one of llama.cpp's models/templates/*.jinja by name.
func (f Files) Template(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join(f.Dir, "templates", name+".jinja"))
	return string(b), err
}

// Options start a server.
type Options struct {
	Model   string   // GGUF path
	Context int      // -c; 4096 when 0
	Slots   int      // -np; 1 when 0
	NoJinja bool     // --no-jinja instead of --jinja
	Port    int      // 0 picks a free one
	Alias   string   // -a: the model's id in /v1/models (else its path)
	Args    []string // more flags
}

// Server is a running llama-server.
type Server struct {
	URL  string // http://127.0.0.1:PORT
	cmd  *exec.Cmd
	logs *syncBuffer
	done chan struct{}
}

// Start runs llama-server on 127.0.0.1 and waits until /health answers
// 200. The process is killed when the test ends; its log is printed if the
// test failed.
func Start(t testing.TB, bin string, o Options) *Server {
	t.Helper()
	if o.Context == 0 {
		o.Context = 4096
	}
	if o.Slots == 0 {
		o.Slots = 1
	}
	port := o.Port
	if port == 0 {
		port = freePort(t)
	}
	jinja := "--jinja"
	if o.NoJinja {
		jinja = "--no-jinja"
	}
	args := append([]string{
		"-m", o.Model, "--host", "127.0.0.1", "--port", strconv.Itoa(port),
		"-c", strconv.Itoa(o.Context), "-np", strconv.Itoa(o.Slots), jinja,
		"-t", "2", "--no-webui", "--no-warmup",
	}, o.Args...)
	if o.Alias != "" {
		args = append(args, "-a", o.Alias)
	}
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), logs: &syncBuffer{}, done: make(chan struct{})}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting llama-server: %v", err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("llama-server log:\n%s", s.Log())
		}
	})
	if err := s.waitHealthy(90 * time.Second); err != nil {
		t.Fatalf("llama-server did not become ready: %v\n%s", err, s.Log())
	}
	return s
}

// V1 is the OpenAI-compatible base URL.
func (s *Server) V1() string { return s.URL + "/v1" }

// Log is what the server printed so far.
func (s *Server) Log() string { return s.logs.String() }

// Stop kills the server's process group and waits for it.
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	}
	<-s.done
}

func (s *Server) waitHealthy(limit time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/health", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.done:
			return errors.New("the process exited")
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
