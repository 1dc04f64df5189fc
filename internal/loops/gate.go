package loops

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Gate is one [[gate]] of loop.toml: a command the harness runs after
// every wake, the value it reads from it and the bar that value must
// meet. The model only cites gates; it never reports their results.
type Gate struct {
	Name string `toml:"name"`
	// Run is a shell command (sh -c) run in the loop's workdir.
	Run string `toml:"run"`
	// Parse is how the value is read: "exit" (the exit code, the
	// default), "json:.path" (a field of stdout parsed as JSON) or
	// "stdout" (stdout, trimmed).
	Parse string `toml:"parse"`
	// Pass is the bar: ">= N", "> N", "<= N", "< N", "== X", "!= X",
	// "contains S", "true" or "false" ("== 0" for exit).
	Pass    string   `toml:"pass"`
	Timeout Duration `toml:"timeout"`
}

// normalize fills defaults and checks that Parse and Pass are readable,
// so a bad gate is refused when the loop is armed, not on wake 40.
func (g *Gate) normalize() error {
	if strings.TrimSpace(g.Name) == "" {
		return errors.New("a gate needs a name")
	}
	if strings.TrimSpace(g.Run) == "" {
		return errors.New("a gate needs a run command")
	}
	if g.Parse == "" {
		g.Parse = "exit"
	}
	if _, err := parseExtractor(g.Parse); err != nil {
		return err
	}
	if g.Pass == "" {
		if g.Parse != "exit" {
			return errors.New("a gate that parses " + g.Parse + " needs a pass bar (\">= 0.99\", \"== ok\", \"contains PASS\")")
		}
		g.Pass = "== 0"
	}
	if _, err := parseBar(g.Pass); err != nil {
		return err
	}
	if g.Timeout == 0 {
		g.Timeout = Duration(DefaultGateTimeout)
	}
	return nil
}

// Value is what a gate measured: a number, a string, a boolean or null.
type Value struct {
	v any // float64, string, bool or nil
}

// String is the value as the ledger and the prompt show it.
func (v Value) String() string {
	switch x := v.v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return "null"
}

// number is the value as a number: a number, or a string that reads as one.
func (v Value) number() (float64, bool) {
	switch x := v.v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// extractor reads a value from a finished command.
type extractor func(stdout string, exitCode int) (Value, error)

func parseExtractor(spec string) (extractor, error) {
	switch {
	case spec == "exit":
		return func(_ string, code int) (Value, error) { return Value{float64(code)}, nil }, nil
	case spec == "stdout":
		return func(out string, _ int) (Value, error) { return Value{strings.TrimSpace(out)}, nil }, nil
	case strings.HasPrefix(spec, "json:"):
		path, err := parseJSONPath(strings.TrimPrefix(spec, "json:"))
		if err != nil {
			return nil, err
		}
		return func(out string, _ int) (Value, error) { return jsonValue(out, path) }, nil
	}
	return nil, fmt.Errorf("parse = %q: want \"exit\", \"stdout\" or \"json:.path\"", spec)
}

// parseJSONPath reads ".a.b[0].c" (or ".a.b.0.c") into its keys; "." is
// the whole document.
func parseJSONPath(p string) ([]string, error) {
	if !strings.HasPrefix(p, ".") {
		return nil, fmt.Errorf("json path %q must start with \".\" (json:.value, json:.results[0].ns)", p)
	}
	p = strings.ReplaceAll(strings.ReplaceAll(p[1:], "[", "."), "]", "")
	if p == "" {
		return nil, nil
	}
	keys := strings.Split(p, ".")
	for _, k := range keys {
		if k == "" {
			return nil, fmt.Errorf("json path %q has an empty step", "."+p)
		}
	}
	return keys, nil
}

func jsonValue(out string, path []string) (Value, error) {
	var doc any
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return Value{}, fmt.Errorf("stdout is not JSON: %v", err)
	}
	for i, k := range path {
		switch x := doc.(type) {
		case map[string]any:
			v, ok := x[k]
			if !ok {
				return Value{}, fmt.Errorf("no key %q at .%s", k, strings.Join(path[:i], "."))
			}
			doc = v
		case []any:
			n, err := strconv.Atoi(k)
			if err != nil || n < 0 || n >= len(x) {
				return Value{}, fmt.Errorf("no index %s in an array of %d at .%s", k, len(x), strings.Join(path[:i], "."))
			}
			doc = x[n]
		default:
			return Value{}, fmt.Errorf("cannot step into %q: .%s is not an object or array", k, strings.Join(path[:i], "."))
		}
	}
	switch x := doc.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return Value{}, err
		}
		return Value{f}, nil
	case string, bool, nil:
		return Value{x}, nil
	}
	return Value{}, errors.New("the value is an object or array, not a number, string or boolean")
}

// bar is a parsed pass expression.
type bar struct {
	op      string // ">=", ">", "<=", "<", "==", "!=", "contains", "bool"
	operand string
	num     float64
	isNum   bool
}

var ops = []string{">=", "<=", "==", "!=", ">", "<"}

func parseBar(s string) (bar, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "true", "false":
		return bar{op: "bool", operand: s}, nil
	}
	if rest, ok := strings.CutPrefix(s, "contains "); ok {
		return bar{op: "contains", operand: unquote(strings.TrimSpace(rest))}, nil
	}
	for _, op := range ops {
		rest, ok := strings.CutPrefix(s, op)
		if !ok {
			continue
		}
		raw := strings.TrimSpace(rest)
		if raw == "" {
			return bar{}, fmt.Errorf("pass = %q: %s needs a value", s, op)
		}
		b := bar{op: op, operand: unquote(raw)}
		f, err := strconv.ParseFloat(b.operand, 64)
		b.num, b.isNum = f, err == nil
		if op != "==" && op != "!=" && !b.isNum {
			return bar{}, fmt.Errorf("pass = %q: %s needs a number", s, op)
		}
		return b, nil
	}
	return bar{}, fmt.Errorf("pass = %q: want \">= N\", \"== X\", \"contains S\", \"true\" or \"false\" (also >, <, <=, !=)", s)
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// meets reports whether v passes the bar.
func (b bar) meets(v Value) (bool, error) {
	switch b.op {
	case "bool":
		got, ok := v.v.(bool)
		if !ok {
			return v.String() == b.operand, nil
		}
		return strconv.FormatBool(got) == b.operand, nil
	case "contains":
		return strings.Contains(v.String(), b.operand), nil
	case "==", "!=":
		eq := v.String() == b.operand
		if n, ok := v.number(); ok && b.isNum {
			eq = n == b.num
		}
		return eq == (b.op == "=="), nil
	}
	n, ok := v.number()
	if !ok {
		return false, fmt.Errorf("%s needs a number, the gate measured %q", b.op, v.String())
	}
	switch b.op {
	case ">=":
		return n >= b.num, nil
	case ">":
		return n > b.num, nil
	case "<=":
		return n <= b.num, nil
	}
	return n < b.num, nil
}

// GateResult is one gate's outcome after a wake, as ticks.jsonl keeps it.
type GateResult struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
	Pass  bool   `json:"pass"`
	// Bar is the pass expression the value was held to.
	Bar string `json:"bar"`
	// Error says why no value was measured (the command timed out, its
	// output did not parse).
	Error     string `json:"error,omitempty"`
	ElapsedMs int64  `json:"elapsedMs"`
}

// Judge reads a finished gate command's value and holds it to the bar.
// A value that cannot be read fails the gate, with the reason.
func (g Gate) Judge(stdout string, exitCode int, elapsed time.Duration) GateResult {
	r := GateResult{Name: g.Name, Bar: g.Pass, ElapsedMs: elapsed.Milliseconds()}
	ex, err := parseExtractor(g.Parse)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	b, err := parseBar(g.Pass)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	v, err := ex(stdout, exitCode)
	if err != nil {
		r.Error = err.Error()
		if g.Parse != "exit" && exitCode != 0 {
			r.Error += fmt.Sprintf(" (the command exited %d)", exitCode)
		}
		return r
	}
	r.Value = v.String()
	r.Pass, err = b.meets(v)
	if err != nil {
		r.Error = err.Error()
	}
	return r
}

// AllPass reports whether there is at least one gate and every one passed.
func AllPass(rs []GateResult) bool {
	for _, r := range rs {
		if !r.Pass {
			return false
		}
	}
	return len(rs) > 0
}

// Summary is one line per gate result, for the next wake's prompt and
// the run's progress.
func Summary(rs []GateResult) string {
	var sb strings.Builder
	for _, r := range rs {
		verdict := "FAIL"
		if r.Pass {
			verdict = "pass"
		}
		fmt.Fprintf(&sb, "- %s: %s (needs %s): %s", r.Name, orNone(r.Value), r.Bar, verdict)
		if r.Error != "" {
			fmt.Fprintf(&sb, " — %s", r.Error)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func orNone(s string) string {
	if s == "" {
		return "no value"
	}
	return s
}
