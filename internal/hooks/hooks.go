// Package hooks runs the user's and project's hook commands around tool
// calls and sessions (issue 5, acceptance 6): beforeTool, afterTool,
// sessionStart and sessionEnd, each a list of {matcher, command, timeout}.
// A hook gets a JSON payload on stdin; a beforeTool hook that exits with
// status 2 blocks the call, and its stderr becomes the reason the model
// reads. Every run is returned as a Run record for the session log.
//
// Hooks come from the `hooks` key of the config and from
// `.zero/hooks.json`; the caller loads the project file only after the
// user trusts the folder. This package runs commands but decides nothing
// else: permissions are internal/permission's.
package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"github.com/tailscale/hujson"
)

// Event names when hooks run.
type Event string

// Events.
const (
	BeforeTool   Event = "beforeTool"
	AfterTool    Event = "afterTool"
	SessionStart Event = "sessionStart"
	SessionEnd   Event = "sessionEnd"
)

// DefaultTimeout bounds a hook without its own timeout.
const DefaultTimeout = 30 * time.Second

// BlockExit is the exit status by which a beforeTool hook blocks a call.
const BlockExit = 2

// Hook is one hook command.
type Hook struct {
	// Matcher selects tools by name for the tool events: "" or "*" is
	// every tool, "bash|write_*" alternatives of globs, "/regex/" a Go
	// regular expression matched against the whole name.
	Matcher string `json:"matcher,omitempty"`
	// Command runs with /bin/sh -c in the workspace root.
	Command string `json:"command"`
	// Timeout is in seconds (fractions allowed); 0 means 30.
	Timeout float64 `json:"timeout,omitempty"`
	// Source is the file the hook came from (set by LoadFile).
	Source string `json:"-"`
}

// Config is the hooks of each event, in run order.
type Config struct {
	BeforeTool   []Hook `json:"beforeTool,omitempty"`
	AfterTool    []Hook `json:"afterTool,omitempty"`
	SessionStart []Hook `json:"sessionStart,omitempty"`
	SessionEnd   []Hook `json:"sessionEnd,omitempty"`
}

// ProjectFile is the project's hooks file relative to the workspace root.
const ProjectFile = ".zero/hooks.json"

// Parse reads a hooks file: {"hooks": {"beforeTool": [...], ...}} or the
// inner object alone. Comments and trailing commas are allowed.
func Parse(b []byte) (Config, error) {
	std, err := hujson.Standardize(b)
	if err != nil {
		return Config{}, fmt.Errorf("not valid JSON: %w", err)
	}
	var wrapped struct {
		Hooks *Config `json:"hooks"`
	}
	var c Config
	if err := json.Unmarshal(std, &wrapped); err == nil && wrapped.Hooks != nil {
		c = *wrapped.Hooks
	} else if err := json.Unmarshal(std, &c); err != nil {
		return Config{}, fmt.Errorf("not a hooks file: %w", err)
	}
	for ev, hs := range c.byEvent() {
		for i, h := range hs {
			if strings.TrimSpace(h.Command) == "" {
				return Config{}, fmt.Errorf("%s hook %d has no command", ev, i+1)
			}
			if h.Timeout < 0 {
				return Config{}, fmt.Errorf("%s hook %d has a negative timeout", ev, i+1)
			}
			if _, err := compileMatcher(h.Matcher); err != nil {
				return Config{}, fmt.Errorf("%s hook %d: %w", ev, i+1, err)
			}
		}
	}
	return c, nil
}

// LoadFile reads a hooks file; a missing file is an empty Config.
func LoadFile(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, err
	}
	c, err := Parse(b)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	for _, hs := range []*[]Hook{&c.BeforeTool, &c.AfterTool, &c.SessionStart, &c.SessionEnd} {
		for i := range *hs {
			(*hs)[i].Source = path
		}
	}
	return c, nil
}

// Merge concatenates configs: hooks of earlier configs run first.
func Merge(cs ...Config) Config {
	var out Config
	for _, c := range cs {
		out.BeforeTool = append(out.BeforeTool, c.BeforeTool...)
		out.AfterTool = append(out.AfterTool, c.AfterTool...)
		out.SessionStart = append(out.SessionStart, c.SessionStart...)
		out.SessionEnd = append(out.SessionEnd, c.SessionEnd...)
	}
	return out
}

func (c Config) byEvent() map[Event][]Hook {
	return map[Event][]Hook{BeforeTool: c.BeforeTool, AfterTool: c.AfterTool,
		SessionStart: c.SessionStart, SessionEnd: c.SessionEnd}
}

// compileMatcher turns a matcher into a full-match regexp (nil: all).
func compileMatcher(m string) (*regexp.Regexp, error) {
	m = strings.TrimSpace(m)
	if m == "" || m == "*" {
		return nil, nil
	}
	if len(m) >= 2 && m[0] == '/' && m[len(m)-1] == '/' {
		re, err := regexp.Compile(`^(?:` + m[1:len(m)-1] + `)$`)
		if err != nil {
			return nil, fmt.Errorf("bad matcher regex: %w", err)
		}
		return re, nil
	}
	var alts []string
	for _, a := range strings.Split(m, "|") {
		var b strings.Builder
		for _, r := range strings.TrimSpace(a) {
			switch r {
			case '*':
				b.WriteString(`.*`)
			case '?':
				b.WriteString(`.`)
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		alts = append(alts, b.String())
	}
	return regexp.Compile(`^(?:` + strings.Join(alts, "|") + `)$`)
}

// Payload is the JSON a hook reads on stdin.
type Payload struct {
	Event     Event  `json:"event"`
	SessionID string `json:"sessionId,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	// Tool and Arguments are set for the tool events.
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Result is set for afterTool.
	Result *ToolResult `json:"result,omitempty"`
}

// ToolResult is the afterTool view of a finished call.
type ToolResult struct {
	Content  string `json:"content"`
	IsError  bool   `json:"isError,omitempty"`
	ExitCode *int   `json:"exitCode,omitempty"`
}

// Run records one hook run for the session log.
type Run struct {
	Event    Event         `json:"event"`
	Command  string        `json:"command"`
	Source   string        `json:"source,omitempty"`
	ExitCode int           `json:"exitCode"`
	Stderr   string        `json:"stderr,omitempty"`
	Stdout   string        `json:"stdout,omitempty"`
	Elapsed  time.Duration `json:"elapsedNs"`
	TimedOut bool          `json:"timedOut,omitempty"`
	Blocked  bool          `json:"blocked,omitempty"`
	// Error says why the hook could not run or failed (not a block).
	Error string `json:"error,omitempty"`
}

// Runner runs hooks. The zero value with Config set works: it runs in the
// current directory with the inherited environment.
type Runner struct {
	Config Config
	// Dir is where hooks run (the workspace root).
	Dir string
	// Env replaces the environment when non-nil.
	Env []string
	// Wrap, when set, wraps each hook command (the shell sandbox).
	Wrap func(*exec.Cmd) error
}

// outputCap bounds the stdout/stderr kept per run, in bytes.
const outputCap = 16 << 10

// Fire runs the hooks of ev whose matcher accepts p.Tool (all hooks for
// session events), in order. For BeforeTool the first hook exiting with
// BlockExit stops the rest and blocked is true with its stderr (or a
// default sentence) as reason. runs lists every hook that ran, for the
// audit log. ctx cancels all hooks.
func (r *Runner) Fire(ctx context.Context, ev Event, p Payload) (blocked bool, reason string, runs []Run) {
	p.Event = ev
	payload, err := json.Marshal(p)
	if err != nil {
		return false, "", []Run{{Event: ev, Error: "encode payload: " + err.Error()}}
	}
	for _, h := range r.Config.byEvent()[ev] {
		if ev == BeforeTool || ev == AfterTool {
			re, err := compileMatcher(h.Matcher)
			if err != nil || re != nil && !re.MatchString(p.Tool) {
				continue
			}
		}
		run := r.runOne(ctx, ev, h, payload)
		if ev == BeforeTool && run.ExitCode == BlockExit && !run.TimedOut && run.Error == "" {
			run.Blocked = true
			runs = append(runs, run)
			reason = strings.TrimSpace(run.Stderr)
			if reason == "" {
				reason = "blocked by hook: " + h.Command
			}
			return true, reason, runs
		}
		runs = append(runs, run)
	}
	return false, "", runs
}

func (r *Runner) runOne(ctx context.Context, ev Event, h Hook, payload []byte) Run {
	timeout := DefaultTimeout
	if h.Timeout > 0 {
		timeout = time.Duration(h.Timeout * float64(time.Second))
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.Command("/bin/sh", "-c", h.Command)
	cmd.Dir = r.Dir
	if r.Env != nil {
		cmd.Env = r.Env
	}
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	setGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	run := Run{Event: ev, Command: h.Command, Source: h.Source, ExitCode: -1}
	if r.Wrap != nil {
		if err := r.Wrap(cmd); err != nil {
			run.Error = "sandbox: " + err.Error()
			return run
		}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		run.Error = err.Error()
		return run
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		killGroup(cmd)
		err = <-done
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			run.TimedOut = true
			run.Error = fmt.Sprintf("timed out after %s", timeout)
		} else {
			run.Error = ctx.Err().Error()
		}
	}
	run.Elapsed = time.Since(start)
	run.Stdout, run.Stderr = stdout.String(), stderr.String()
	if cmd.ProcessState != nil {
		run.ExitCode = cmd.ProcessState.ExitCode()
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) && run.Error == "" {
		run.Error = err.Error()
	}
	return run
}

// capped keeps the first outputCap bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := outputCap - c.Len(); room > 0 {
		if len(p) > room {
			c.Buffer.Write(p[:room])
		} else {
			c.Buffer.Write(p)
		}
	}
	return len(p), nil
}
