package loops

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is loop.toml: the half of a loop the harness enforces and never
// delegates to the model. The TOML format is https://toml.io/en/v1.0.0,
// read with github.com/BurntSushi/toml.
type Config struct {
	Schedule Schedule `toml:"schedule"`
	Contract Contract `toml:"contract"`
	Gates    []Gate   `toml:"gate"`
	Budget   Budget   `toml:"budget"`
	Stop     Stop     `toml:"stop"`
	Run      RunSpec  `toml:"run"`
}

// Schedule is when a loop wakes: every Heartbeat after the last wake
// ended, never past Deadline (zero: none).
type Schedule struct {
	Heartbeat Duration `toml:"heartbeat"`
	Deadline  Deadline `toml:"deadline"`
}

// Contract is what every wake must leave in state.md.
type Contract struct {
	// RequireStateAppend: a wake that appends no state row pauses the loop.
	RequireStateAppend bool `toml:"require_state_append"`
	// RequireNextAction: the row must end with a "NEXT ACTION:" line.
	RequireNextAction bool `toml:"require_next_action"`
}

// Budget caps a loop's wakes and tokens (0: no cap). Exhausting one
// pauses the loop with a message; OnExhaust must be "pause".
type Budget struct {
	MaxWakes  int    `toml:"max_wakes"`
	MaxTokens int    `toml:"max_tokens"`
	OnExhaust string `toml:"on_exhaust"`
}

// Stop says when a loop is done by itself.
type Stop struct {
	// WhenGatesPass stops the loop (goal met) after a wake whose gates all
	// pass.
	WhenGatesPass bool `toml:"when_gates_pass"`
}

// RunSpec is where a wake runs.
type RunSpec struct {
	// Workdir is the workspace the agent works in (zero loop new records
	// the folder it ran in).
	Workdir string `toml:"workdir"`
}

// Duration is a Go duration written as a TOML string ("30m", "1h30m").
type Duration time.Duration

// UnmarshalTOML implements toml.Unmarshaler.
func (d *Duration) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("want a duration string like \"30m\", got %T", v)
	}
	p, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if p < 0 {
		return fmt.Errorf("duration %q is negative", s)
	}
	*d = Duration(p)
	return nil
}

// Deadline is an absolute time: a TOML offset date-time, bare or quoted
// as RFC 3339 ("2026-06-13T11:00:00-05:00").
type Deadline struct{ time.Time }

// UnmarshalTOML implements toml.Unmarshaler.
func (d *Deadline) UnmarshalTOML(v any) error {
	switch t := v.(type) {
	case time.Time:
		d.Time = t
		return nil
	case string:
		p, err := time.Parse(time.RFC3339, t)
		if err != nil {
			return fmt.Errorf("deadline %q is not an RFC 3339 time with a zone (2026-06-13T11:00:00-05:00)", t)
		}
		d.Time = p
		return nil
	}
	return fmt.Errorf("deadline: want an RFC 3339 time, got %T", v)
}

// Defaults of a loop.toml that leaves them out.
const (
	DefaultHeartbeat   = 30 * time.Minute
	DefaultGateTimeout = 10 * time.Minute
)

// ParseConfig reads loop.toml. Unknown keys, bad gates and budgets that
// would stop silently are errors that name the key.
func ParseConfig(data []byte) (*Config, error) {
	c := &Config{
		Schedule: Schedule{Heartbeat: Duration(DefaultHeartbeat)},
		Contract: Contract{RequireStateAppend: true, RequireNextAction: true},
		Budget:   Budget{OnExhaust: "pause"},
	}
	md, err := toml.Decode(string(data), c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("loop.toml: %s", parseErrorText(pe, data))
		}
		return nil, fmt.Errorf("loop.toml: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("loop.toml: unknown key %s", strings.Join(keys, ", "))
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("loop.toml: %w", err)
	}
	return c, nil
}

// parseErrorText is the TOML error with the lines around it when its
// position lies inside the file. toml v1.6.0's ErrorWithPosition indexes
// lines[Line-1] unchecked and panics on a position of line 0, which it
// reports for an unterminated string before a CRLF (the input `"\r\n`,
// testdata/fuzz/FuzzParseConfig/2bf3c038869e8a9d).
func parseErrorText(pe toml.ParseError, data []byte) string {
	if n := pe.Position.Line; n >= 1 && n <= bytes.Count(data, []byte("\n"))+1 {
		return pe.ErrorWithPosition()
	}
	return pe.Error()
}

func (c *Config) validate() error {
	if c.Schedule.Heartbeat == 0 {
		return errors.New("[schedule] heartbeat must be more than 0s")
	}
	if c.Budget.OnExhaust != "pause" {
		return fmt.Errorf("[budget] on_exhaust = %q: only \"pause\" is supported (a loop never stops silently)", c.Budget.OnExhaust)
	}
	if c.Budget.MaxWakes < 0 || c.Budget.MaxTokens < 0 {
		return errors.New("[budget] max_wakes and max_tokens must not be negative (0: no cap)")
	}
	seen := map[string]bool{}
	for i := range c.Gates {
		g := &c.Gates[i]
		if err := g.normalize(); err != nil {
			return fmt.Errorf("[[gate]] %d (%q): %w", i+1, g.Name, err)
		}
		if seen[g.Name] {
			return fmt.Errorf("[[gate]] %d: name %q is used twice", i+1, g.Name)
		}
		seen[g.Name] = true
	}
	return nil
}

// GatesHash is the fingerprint of the gates' definitions (after defaults)
// that zero loop arm records: a run refuses gates whose hash differs.
func (c *Config) GatesHash() string {
	type def struct{ Name, Run, Parse, Pass, Timeout string }
	defs := make([]def, len(c.Gates))
	for i, g := range c.Gates {
		defs[i] = def{g.Name, g.Run, g.Parse, g.Pass, time.Duration(g.Timeout).String()}
	}
	b, _ := json.Marshal(defs)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
