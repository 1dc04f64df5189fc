// Package config resolves Zero's configuration: built-in defaults, then the
// user file (~/.config/zero/config.json), then the project file
// (./.zero/config.json), then the environment, then command-line flags.
//
// The hard lesson it encodes: a project file arrives with a cloned
// repository and is not trusted. It can never send a user's API key to a
// host the user did not name, and it can never widen permissions
// (autoApprove, permissionMode); both are dropped with a warning, never
// silently. Files are JSON with comments and trailing commas (HuJSON) and
// errors name the file and line.
//
// It owns no I/O beyond reading and writing config files and never opens a
// network connection; choosing a server when nothing is configured is
// internal/providers/discovery's job.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/zero-agent/zero/internal/permission"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/decodeerr"
	"github.com/zero-agent/zero/internal/jsonc"
)

// Kind is the wire protocol a provider profile speaks.
type Kind string

// Provider kinds.
const (
	KindOpenAI           Kind = "openai"            // api.openai.com Chat Completions
	KindOpenAICompatible Kind = "openai-compatible" // llama.cpp, Ollama, vLLM, LM Studio, OpenRouter…
	KindAnthropic        Kind = "anthropic"         // Anthropic Messages
	KindGemini           Kind = "gemini"            // Google Gemini
)

func (k Kind) valid() bool {
	switch k {
	case KindOpenAI, KindOpenAICompatible, KindAnthropic, KindGemini:
		return true
	}
	return false
}

// Vendor is the name the vendor of a hosted API's kind gives it
// ("OpenAI"), for what a user is shown; "" for a compatible server.
func (k Kind) Vendor() string {
	switch k {
	case KindOpenAI:
		return "OpenAI"
	case KindAnthropic:
		return "Anthropic"
	case KindGemini:
		return "Gemini"
	}
	return ""
}

// Provider is one provider profile as written in a config file.
type Provider struct {
	// Name identifies the profile ("openai", "ollama", "work-vllm").
	Name string `json:"name"`
	// Kind defaults to the name when the name is a kind, else
	// openai-compatible.
	Kind Kind `json:"kind,omitempty"`
	// BaseURL is the API root, e.g. "http://127.0.0.1:11434/v1".
	BaseURL string `json:"baseURL,omitempty"`
	// APIKeyEnv names the environment variable holding the key.
	APIKeyEnv string `json:"apiKeyEnv,omitempty"`
	// APIKey is a literal key (user file only; prefer APIKeyEnv).
	APIKey string `json:"apiKey,omitempty"`
	// Model is the profile's default model.
	Model string `json:"model,omitempty"`
	// Headers are extra HTTP headers sent with every request.
	Headers map[string]string `json:"headers,omitempty"`
	// TextToolCalls enables recovery of tool calls the model writes as
	// text (Hermes <tool_call>, [TOOL_CALLS], …). Default true.
	TextToolCalls *bool `json:"textToolCalls,omitempty"`
}

// File is the content of one config file. Every field is optional; a nil
// pointer means "not set here".
type File struct {
	Providers      []Provider `json:"providers,omitempty"`
	ActiveProvider string     `json:"activeProvider,omitempty"`
	// Model is "model" or "provider/model".
	Model string `json:"model,omitempty"`
	// MaxTurns is a backstop on model requests per run (default 200).
	MaxTurns       *int   `json:"maxTurns,omitempty"`
	AutoApprove    *bool  `json:"autoApprove,omitempty"`
	PermissionMode string `json:"permissionMode,omitempty"`
	// ToolProtocol is how tools reach the model: "native" (the request's
	// tools field), "prompted" (listed in the system prompt, for servers
	// that refuse tools) or "auto" (native until the server refuses
	// tools); unset means auto (internal/agent/toolprotocol.go).
	ToolProtocol string `json:"toolProtocol,omitempty"`
	// EditTool is which tool edits files: "edit_file" (search and
	// replace), "apply_patch" (Codex's patch format), "both", or "auto"
	// (unset: apply_patch for models the catalog says were trained on it,
	// else edit_file).
	EditTool string `json:"editTool,omitempty"`
	// Sandbox configures the OS sandbox of shell commands (user file
	// only: a project file may narrow it, never widen it).
	Sandbox *Sandbox `json:"sandbox,omitempty"`
	// ACP configures `zero acp`, the editor bridge (user file only).
	ACP *ACP `json:"acp,omitempty"`
	// ContextWindow overrides the model's window, in tokens.
	ContextWindow *int `json:"contextWindow,omitempty"`
	// MaxToolOutput caps one tool result sent to the model, in bytes;
	// unset, the cap scales with the context window
	// (contextmgr.ToolOutputCap).
	MaxToolOutput *int `json:"maxToolOutput,omitempty"`
	// MaxTurnOutput caps all tool results of one turn, in bytes.
	MaxTurnOutput *int `json:"maxTurnOutput,omitempty"`
	// MaxOutputTokens caps one model reply, in tokens (sent as max_tokens,
	// max_completion_tokens or maxOutputTokens); unset, 8192
	// (agent.DefaultMaxOutputTokens). A request never asks for more than
	// the window leaves after its prompt.
	MaxOutputTokens *int `json:"maxOutputTokens,omitempty"`
	// Hooks is passed through to internal/hooks unparsed.
	Hooks json.RawMessage `json:"hooks,omitempty"`
	// AgentModels maps a model name a sub-agent definition gives
	// (Claude's aliases sonnet, opus, haiku, or any other) to the model
	// to run it with: "model" or "provider/model".
	AgentModels map[string]string `json:"agentModels,omitempty"`
	// MaxParallelAgents caps the sub-agents one turn runs at once
	// (default 3; a llama.cpp server with fewer slots gets that many).
	MaxParallelAgents *int `json:"maxParallelAgents,omitempty"`
	// PermissionTimeout is how long `zero exec -i stream-json` waits for
	// a permission_decision before it denies ("5m", "90s"; "0" waits
	// until interrupted). User file only; --permission-timeout beats it.
	PermissionTimeout string `json:"permissionTimeout,omitempty"`
	// Checkpoints bound what checkpoints keep (user file only).
	Checkpoints *Checkpoints `json:"checkpoints,omitempty"`
}

// Checkpoints are the "checkpoints" keys: unset ones keep the defaults
// (internal/checkpoint: 30 days, 2048 MiB, 8 MiB).
type Checkpoints struct {
	// MaxAgeDays: stored contents unused for longer are collected.
	MaxAgeDays *int `json:"maxAgeDays,omitempty"`
	// MaxTotalMB: past this total (MiB) the least recently used go.
	MaxTotalMB *int `json:"maxTotalMB,omitempty"`
	// MaxFileMB: larger files are skipped (and reported), not stored.
	MaxFileMB *int `json:"maxFileMB,omitempty"`
}

// UserPath returns the user config file: $XDG_CONFIG_HOME/zero/config.json
// or ~/.config/zero/config.json.
func UserPath() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "zero", "config.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("config: no home directory; set XDG_CONFIG_HOME: %w", err)
	}
	return filepath.Join(home, ".config", "zero", "config.json"), nil
}

// Dir is Zero's user configuration directory: $XDG_CONFIG_HOME/zero, or
// ~/.config/zero. It holds config.json, grants.json, the trust file and
// credentials.
func Dir() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "zero")
	}
	h, _ := os.UserHomeDir()
	return filepath.Join(h, ".config", "zero")
}

// ProjectPath returns the project config file of workspace dir.
func ProjectPath(dir string) string { return filepath.Join(dir, ".zero", "config.json") }

// ReadFile reads and parses a config file. A missing file is (nil, nil,
// nil). Warnings name unknown fields (typos) with file and line.
func ReadFile(path string) (*File, []string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("config: %w", err)
	}
	return ParseFile(path, data)
}

// ParseFile parses data (HuJSON: JSON with comments and trailing commas)
// as a config file named name. Errors read "name:line:col: problem".
func ParseFile(name string, data []byte) (*File, []string, error) {
	std, err := jsonc.Standardize(data)
	if err != nil {
		return nil, nil, fmt.Errorf("config: %s: %s", name, strings.TrimPrefix(err.Error(), "hujson: "))
	}
	if len(bytes.TrimSpace(std)) == 0 {
		return &File{}, nil, nil
	}
	var f File
	if err := json.Unmarshal(std, &f); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te):
			msg, start := decodeerr.JSONMessage(te, std)
			return nil, nil, fmt.Errorf("config: %s:%s: %s%s", name, position(std, start), msg, typeHints[te.Field])
		case errors.As(err, &se):
			return nil, nil, fmt.Errorf("config: %s:%s: %v", name, position(std, se.Offset), se)
		}
		return nil, nil, fmt.Errorf("config: %s: %w", name, err)
	}
	warns := unknownFields(name, std)
	if err := f.validate(); err != nil {
		return nil, warns, fmt.Errorf("config: %s: %w", name, err)
	}
	return &f, warns, nil
}

// position turns a byte offset into "line:col" (1-based).
func position(data []byte, off int64) string {
	if off < 0 || off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// unknownFields warns about keys File and Provider do not know (typos),
// with the line they are written on.
func unknownFields(name string, std []byte) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(std, &top) != nil {
		return nil
	}
	var warns []string
	check := func(obj map[string]json.RawMessage, known map[string]bool, where string) {
		var keys []string
		for k := range obj {
			if !known[k] {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			off := int64(bytes.Index(std, []byte(`"`+k+`"`)))
			warns = append(warns, fmt.Sprintf("%s:%s: unknown field %s%q ignored", name, position(std, off), where, k))
		}
	}
	check(top, jsonKeys(File{}), "")
	var provs []map[string]json.RawMessage
	if json.Unmarshal(top["providers"], &provs) == nil {
		for i, p := range provs {
			check(p, jsonKeys(Provider{}), fmt.Sprintf("providers[%d].", i))
		}
	}
	return warns
}

// jsonKeys lists the JSON names of a struct's fields.
func jsonKeys(v any) map[string]bool {
	t := reflect.TypeOf(v)
	keys := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys[name] = true
	}
	return keys
}

func (f *File) validate() error {
	seen := map[string]bool{}
	for i := range f.Providers {
		p := &f.Providers[i]
		if p.Name == "" {
			return fmt.Errorf("providers[%d]: name is required", i)
		}
		if seen[p.Name] {
			return fmt.Errorf("providers[%d]: provider %q is defined twice", i, p.Name)
		}
		seen[p.Name] = true
		if p.Kind != "" && !p.Kind.valid() {
			return fmt.Errorf("provider %q: kind %q is not one of openai, openai-compatible, anthropic, gemini", p.Name, p.Kind)
		}
		if p.BaseURL != "" {
			if _, err := hostOf(p.BaseURL); err != nil {
				return fmt.Errorf("provider %q: %w", p.Name, err)
			}
		}
	}
	switch f.ToolProtocol {
	case "", "auto", "native", "prompted":
	default:
		return fmt.Errorf("toolProtocol must be \"native\", \"prompted\" or \"auto\", not %q", f.ToolProtocol)
	}
	if f.Sandbox != nil {
		switch f.Sandbox.Network {
		case "", NetworkOff, NetworkAsk, NetworkOn:
		default:
			return fmt.Errorf("sandbox.network must be \"off\", \"ask\" or \"on\", not %q", f.Sandbox.Network)
		}
	}
	switch f.EditTool {
	case "", "auto", "edit_file", "apply_patch", "both":
	default:
		return fmt.Errorf("editTool must be \"edit_file\", \"apply_patch\", \"both\" or \"auto\", not %q", f.EditTool)
	}
	if _, err := permission.ParseMode(f.PermissionMode); err != nil {
		return fmt.Errorf("permissionMode: %w", err)
	}
	if f.PermissionTimeout != "" {
		if d, err := time.ParseDuration(f.PermissionTimeout); err != nil || d < 0 {
			return fmt.Errorf("permissionTimeout must be a duration such as \"5m\" or \"90s\" (\"0\" waits for every decision), not %q", f.PermissionTimeout)
		}
	}
	if c := f.Checkpoints; c != nil {
		for name, v := range map[string]*int{"checkpoints.maxAgeDays": c.MaxAgeDays, "checkpoints.maxTotalMB": c.MaxTotalMB, "checkpoints.maxFileMB": c.MaxFileMB} {
			if v != nil && *v <= 0 {
				return fmt.Errorf("%s must be positive, not %d", name, *v)
			}
		}
	}
	for name, v := range map[string]*int{"maxTurns": f.MaxTurns, "contextWindow": f.ContextWindow, "maxToolOutput": f.MaxToolOutput, "maxTurnOutput": f.MaxTurnOutput, "maxOutputTokens": f.MaxOutputTokens, "maxParallelAgents": f.MaxParallelAgents} {
		if v != nil && *v <= 0 {
			return fmt.Errorf("%s must be positive, not %d", name, *v)
		}
	}
	return nil
}

// hostOf returns the scheme://host:port a base URL sends requests to; it
// is what key confinement compares.
func hostOf(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("baseURL %q is not an http(s) URL", base)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Sandbox is the "sandbox" object of a config file.
type Sandbox struct {
	// Network is "off" (the default: shell commands reach no network),
	// "ask" (a command the shell guard's table knows to need the network,
	// such as npm install or go mod download, asks to run with it; the
	// rest run offline) or "on" (they reach it, confined otherwise as
	// usual).
	Network string `json:"network,omitempty"`
	// Enabled false runs shell commands without the OS sandbox (the guard
	// and the permission mode still decide what runs).
	Enabled *bool `json:"enabled,omitempty"`
}

// ACP is the "acp" object of a config file.
type ACP struct {
	// Terminal true runs bash's commands in the editor's terminal when
	// the editor offers one (ACP terminal/*): outside Zero's OS sandbox.
	Terminal *bool `json:"terminal,omitempty"`
}

// typeHints follow a type error of the keys whose values are easy to
// write in the wrong type ("network": true).
var typeHints = map[string]string{
	"sandbox.network": ` ("off", "ask" or "on")`,
}

// Sandbox network settings.
const (
	NetworkOff = "off"
	NetworkAsk = "ask"
	NetworkOn  = "on"
)
