package run

// Remembered tool protocols. A server that refuses native tool calls
// (llama-server without --jinja answers HTTP 500 "tools param requires
// --jinja flag"; Ollama answers 400 "<model> does not support tools")
// refuses them on every request, so once a session has switched to the
// prompted protocol (internal/agent/toolprotocol.go) the server and model
// are written down in tool-protocols.json in the config directory, and
// later runs start prompted instead of sending a first request only to
// have it refused. The config's toolProtocol overrides what is
// remembered; "native" forgets it.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/atomicfile"
	"github.com/zero-agent/zero/internal/config"
)

// toolMemory is tool-protocols.json: the servers and models that refused
// native tool calls.
type toolMemory struct {
	Prompted []promptedModel `json:"prompted"`
}

// promptedModel is one model a server refused native tool calls for.
type promptedModel struct {
	// BaseURL is the server's API root without "/v1", so that
	// --base-url with and without it name the same server.
	BaseURL string    `json:"baseURL"`
	Model   string    `json:"model"`
	Since   time.Time `json:"since"`
}

func toolMemoryPath() string { return filepath.Join(config.Dir(), "tool-protocols.json") }

// serverRoot is base without a trailing "/" or "/v1".
func serverRoot(base string) string {
	return strings.TrimSuffix(strings.TrimRight(base, "/"), "/v1")
}

// readToolMemory reads path; a missing file is an empty memory.
func readToolMemory(path string) (toolMemory, error) {
	var m toolMemory
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return toolMemory{}, fmt.Errorf("%s is not valid JSON: %w", path, err)
	}
	return m, nil
}

// find is the index of base's model in m, or -1.
func (m toolMemory) find(base, model string) int {
	for i, p := range m.Prompted {
		if p.BaseURL == serverRoot(base) && p.Model == model {
			return i
		}
	}
	return -1
}

// rememberPrompted records that base refused native tool calls for model
// (a damaged file is replaced).
func rememberPrompted(path, base, model string, now time.Time) error {
	m, _ := readToolMemory(path)
	if m.find(base, model) >= 0 {
		return nil
	}
	m.Prompted = append(m.Prompted, promptedModel{BaseURL: serverRoot(base), Model: model, Since: now.UTC().Truncate(time.Second)})
	return writeToolMemory(path, m)
}

// forgetPrompted removes base's model from the memory, if it is there.
func forgetPrompted(path, base, model string) error {
	m, err := readToolMemory(path)
	i := m.find(base, model)
	if err != nil || i < 0 {
		return nil
	}
	m.Prompted = append(m.Prompted[:i], m.Prompted[i+1:]...)
	return writeToolMemory(path, m)
}

func writeToolMemory(path string, m toolMemory) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o600)
}
