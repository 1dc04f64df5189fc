package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/decodeerr"
)

// shape is the dialect of a JSON entry: which keys mean what.
type shape int

const (
	// shapeClaude: Claude Code and Claude Desktop, and the project's
	// .mcp.json (https://docs.claude.com/en/docs/claude-code/mcp).
	shapeClaude shape = iota
	// shapeZero: Claude's keys plus Zero's (enabled, required, tool
	// lists, alwaysLoad, timeouts in seconds).
	shapeZero
	// shapeGemini: url is SSE, httpUrl streamable HTTP, timeout in ms,
	// includeTools/excludeTools
	// (https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md).
	shapeGemini
	// shapeVSCode: .vscode/mcp.json "servers"
	// (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration).
	shapeVSCode
)

// jsonEntry is every key any of the JSON shapes uses.
type jsonEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Timeout is Claude's and Gemini's request timeout in milliseconds.
	Timeout *float64 `json:"timeout,omitempty"`
	// Gemini CLI.
	HTTPURL      string   `json:"httpUrl,omitempty"`
	IncludeTools []string `json:"includeTools,omitempty"`
	ExcludeTools []string `json:"excludeTools,omitempty"`
	// Zero's own keys.
	Enabled        *bool           `json:"enabled,omitempty"`
	Required       bool            `json:"required,omitempty"`
	EnabledTools   []string        `json:"enabledTools,omitempty"`
	DisabledTools  []string        `json:"disabledTools,omitempty"`
	AlwaysLoad     json.RawMessage `json:"alwaysLoad,omitempty"` // true, or a list of tool names
	StartupTimeout *float64        `json:"startupTimeout,omitempty"`
	ToolTimeout    *float64        `json:"toolTimeout,omitempty"`
}

// zeroKeys are the keys Zero's own file knows; others are reported as
// probable typos.
var zeroKeys = func() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeOf(jsonEntry{})
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys[name] = true
	}
	for _, gemini := range []string{"httpUrl", "includeTools", "excludeTools"} {
		delete(keys, gemini)
	}
	return keys
}()

// inputVar is a VS Code input variable, which VS Code asks the user for
// when it starts the server; Zero has no such prompt.
var inputVar = regexp.MustCompile(`\$\{input:[^}]*\}`)

// entryServer turns entry m of doc into a Server (not yet expanded). An
// error says why the entry cannot be used; warns are for keys ignored.
func entryServer(doc *jsonDoc, m member, sh shape) (s Server, warns []string, err error) {
	if sh == shapeVSCode {
		if in := inputVar.Find(m.Value); in != nil {
			return s, nil, fmt.Errorf("uses %s, which VS Code prompts for and Zero cannot: add the server to Zero with `zero mcp add-json %s '{...}'`", in, m.Key)
		}
	}
	var e jsonEntry
	if err := json.Unmarshal(m.Value, &e); err != nil {
		return s, nil, entryErr(err, m.Value)
	}
	if sh == shapeZero {
		warns = unknownKeys(doc, m)
	}
	s = Server{
		Name: m.Key, Command: e.Command, Args: e.Args, Env: e.Env, Cwd: e.Cwd,
		URL: e.URL, Headers: e.Headers, Enabled: true,
	}
	s.Transport, err = transportOf(e, sh)
	if err != nil {
		return s, warns, err
	}
	if s.Transport == HTTP && sh == shapeGemini && e.HTTPURL != "" {
		s.URL = e.HTTPURL
	}
	if e.Timeout != nil {
		s.ToolTimeout = millis(*e.Timeout)
	}
	if sh == shapeGemini {
		s.EnabledTools, s.DisabledTools = e.IncludeTools, e.ExcludeTools
	}
	if sh == shapeZero {
		if err := e.zeroExtras(&s); err != nil {
			return s, warns, err
		}
	}
	return s, warns, nil
}

// zeroExtras copies Zero's own keys into s.
func (e *jsonEntry) zeroExtras(s *Server) error {
	if e.Enabled != nil {
		s.Enabled = *e.Enabled
	}
	s.Required = e.Required
	s.EnabledTools, s.DisabledTools = e.EnabledTools, e.DisabledTools
	if err := parseAlwaysLoad(e.AlwaysLoad, s); err != nil {
		return err
	}
	for _, t := range []struct {
		name string
		v    *float64
		d    *time.Duration
	}{{"startupTimeout", e.StartupTimeout, &s.StartupTimeout}, {"toolTimeout", e.ToolTimeout, &s.ToolTimeout}} {
		if t.v == nil {
			continue
		}
		if *t.v <= 0 || *t.v > 86400 {
			return fmt.Errorf("%s must be seconds between 0 and 86400, not %v", t.name, *t.v)
		}
		*t.d = time.Duration(*t.v * float64(time.Second))
	}
	return nil
}

// parseAlwaysLoad reads alwaysLoad: true (every tool of the server) or a
// list of tool names.
func parseAlwaysLoad(raw json.RawMessage, s *Server) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if json.Unmarshal(raw, &s.AlwaysLoad) == nil {
		return nil
	}
	if json.Unmarshal(raw, &s.AlwaysLoadTools) == nil {
		return nil
	}
	return fmt.Errorf("alwaysLoad must be true, false or a list of tool names, not %s", raw)
}

// transportOf is the entry's transport: its type when given, else a
// URL means HTTP (SSE for Gemini's url) and a command stdio.
func transportOf(e jsonEntry, sh shape) (Transport, error) {
	switch strings.ToLower(e.Type) {
	case "stdio":
		if e.Command == "" {
			return "", fmt.Errorf(`type "stdio" needs a "command"`)
		}
		return Stdio, nil
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		if e.URL == "" && e.HTTPURL == "" {
			return "", fmt.Errorf(`type %q needs a "url"`, e.Type)
		}
		return HTTP, nil
	case "sse":
		if e.URL == "" {
			return "", fmt.Errorf(`type "sse" needs a "url"`)
		}
		return SSE, nil
	case "":
	default:
		return "", fmt.Errorf(`type %q is not "stdio", "http" or "sse"`, e.Type)
	}
	switch {
	case sh == shapeGemini && e.HTTPURL != "":
		return HTTP, nil
	case sh == shapeGemini && e.URL != "":
		return SSE, nil
	case e.URL != "":
		return HTTP, nil
	case e.Command != "":
		return Stdio, nil
	}
	return "", fmt.Errorf(`has neither "command" nor "url"`)
}

// millis turns a millisecond count into a duration (a negative or
// absurd one into none: the default).
func millis(ms float64) time.Duration {
	if ms <= 0 || ms > math.MaxInt64/float64(time.Millisecond) {
		return 0
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// entryErr words a decoding error of one entry (its text: value), in the
// file's words ("args must be a list of strings, not a number").
func entryErr(err error, value []byte) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		if te.Field == "" { // the entry itself: te.Type is an internal struct
			return fmt.Errorf(`must be an object with "command" or "url", not %s`, decodeerr.Found(te))
		}
		msg, _ := decodeerr.JSONMessage(te, value)
		return errors.New(msg)
	}
	return err
}

// unknownKeys warns about keys of a Zero entry that Zero does not know.
func unknownKeys(doc *jsonDoc, m member) []string {
	ms, err := objectMembers(doc.text, m.Offset, m.Offset+int64(len(m.Value)))
	if err != nil {
		return nil
	}
	var warns []string
	for _, k := range ms {
		if !zeroKeys[k.Key] {
			warns = append(warns, fmt.Sprintf("%s:%s: server %q: unknown key %q ignored", doc.path, doc.position(k.Offset), m.Key, k.Key))
		}
	}
	return warns
}

// isOverride reports whether a Zero entry names no server (no command,
// no url) and only changes settings of the server of that name from
// another source, as `zero mcp disable NAME` writes it.
func isOverride(raw json.RawMessage) bool {
	var e jsonEntry
	if json.Unmarshal(raw, &e) != nil {
		return false
	}
	return e.Command == "" && e.URL == "" && e.HTTPURL == "" && e.Type == ""
}

// Entry is s as an entry of Zero's file (not expanded: write what the
// user wrote, ${VAR} and all). Claude's keys come first, so the entry
// pastes into Claude Code's files too; Zero's keys follow only when they
// differ from the defaults. Codex's bearer token variable becomes an
// Authorization header that names the variable.
func Entry(s Server) json.RawMessage {
	e := jsonEntry{Type: string(s.Transport), Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers}
	if s.BearerTokenEnv != "" && !hasHeader(s.Headers, "Authorization") {
		e.Headers = make(map[string]string, len(s.Headers)+1)
		for k, v := range s.Headers {
			e.Headers[k] = v
		}
		e.Headers["Authorization"] = "Bearer ${" + s.BearerTokenEnv + "}"
	}
	if !s.Enabled {
		off := false
		e.Enabled = &off
	}
	e.Required = s.Required
	e.EnabledTools, e.DisabledTools = s.EnabledTools, s.DisabledTools
	switch {
	case s.AlwaysLoad:
		e.AlwaysLoad = json.RawMessage("true")
	case len(s.AlwaysLoadTools) > 0:
		e.AlwaysLoad, _ = json.Marshal(s.AlwaysLoadTools)
	}
	e.StartupTimeout, e.ToolTimeout = seconds(s.StartupTimeout), seconds(s.ToolTimeout)
	out, _ := json.Marshal(e) // strings, lists and maps of strings: cannot fail
	return out
}

func seconds(d time.Duration) *float64 {
	if d <= 0 {
		return nil
	}
	v := d.Seconds()
	return &v
}

func hasHeader(h map[string]string, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// sortedKeys is m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// compact is raw without insignificant whitespace (raw is valid JSON).
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
