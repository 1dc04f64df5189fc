package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/zero-agent/zero/internal/config"
)

// overrides are the flags every model-using command shares.
type overrides struct {
	baseURL, model, apiKey, provider string
	autoApprove                      bool
	workdir                          string
	addDirs                          multiFlag
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// config returns the flags as configuration overrides.
func (o *overrides) config() config.Overrides {
	return config.Overrides{BaseURL: o.baseURL, Model: o.model, APIKey: o.apiKey, Provider: o.provider}
}

func (o *overrides) register(fs *flag.FlagSet) {
	fs.StringVar(&o.baseURL, "base-url", "", "API root of an OpenAI-compatible server (with or without /v1)")
	fs.StringVar(&o.model, "model", "", "model id, or provider/model")
	fs.StringVar(&o.model, "m", "", "shorthand for --model")
	fs.StringVar(&o.apiKey, "api-key", "", "API key (prefer the provider's environment variable)")
	fs.StringVar(&o.provider, "provider", "", "provider profile name")
	fs.BoolVar(&o.autoApprove, "auto-approve", false, "run write and shell tools without asking (the shell guard still refuses catastrophic commands)")
	fs.StringVar(&o.workdir, "C", "", "workspace directory (default: the current directory)")
	fs.Var(&o.addDirs, "add-dir", "extra directory the tools may write (repeatable)")
}

// resumeFlag is --resume: bare for the latest session of the workspace,
// --resume=ID (or --resume ID before the prompt) for a given one.
type resumeFlag struct {
	set bool
	id  string
}

func (r *resumeFlag) String() string   { return r.id }
func (r *resumeFlag) IsBoolFlag() bool { return true }
func (r *resumeFlag) Set(v string) error {
	r.set = true
	if v != "true" {
		r.id = v
	}
	if v == "false" {
		r.set, r.id = false, ""
	}
	return nil
}

// sessionIDPattern matches a session id or a prefix of one long enough to
// be meant as an id ("20261130-0512…").
var sessionIDPattern = regexp.MustCompile(`^\d{8}(-\d{0,6}(-[0-9a-f]{0,6})?)?$`)

// execOptions are the parsed flags of zero exec.
type execOptions struct {
	prompt     string
	output     string
	input      string
	resume     resumeFlag
	fork       string
	over       overrides
	maxTurns   int
	quiet      bool
	permission string
}

func parseExec(s stdio, args []string) (*execOptions, error) {
	o := &execOptions{}
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(s.err)
	fs.StringVar(&o.prompt, "p", "", "the task (instead of a positional argument)")
	fs.StringVar(&o.output, "o", "text", "output: text (answer on stdout, progress on stderr), json, stream-json")
	fs.StringVar(&o.input, "i", "", "input format: stream-json to answer permission requests on stdin")
	fs.Var(&o.resume, "resume", "continue the latest session of this workspace (or --resume=ID)")
	fs.StringVar(&o.fork, "fork", "", "branch a new session from session `ID` and continue it")
	fs.IntVar(&o.maxTurns, "max-turns", 0, "backstop on model requests (default from config, 200)")
	fs.BoolVar(&o.quiet, "q", false, "text mode: no progress on stderr (so no replies the loop answered with a nudge either)")
	fs.StringVar(&o.permission, "permission-mode", "", "normal | auto-accept | plan")
	o.over.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usagef("%v", err)
	}
	switch o.output {
	case "text", "json", "stream-json":
	default:
		return nil, usagef("-o must be text, json or stream-json, not %q", o.output)
	}
	if o.input != "" && o.input != "stream-json" {
		return nil, usagef("-i must be stream-json, not %q", o.input)
	}
	if o.resume.set && o.resume.id == "" && len(pos) > 0 && sessionIDPattern.MatchString(pos[0]) && (len(pos) > 1 || o.prompt != "" || !s.inIsTTY) {
		o.resume.id, pos = pos[0], pos[1:]
	}
	if o.fork != "" && strings.HasPrefix(o.fork, "-") {
		return nil, usagef("--fork needs a session id (zero sessions lists them), got %q", o.fork)
	}
	if len(pos) > 1 {
		return nil, usagef("exec takes one prompt; quote it (got %d arguments)", len(pos))
	}
	if len(pos) == 1 {
		if o.prompt != "" {
			return nil, usagef("give the prompt either as an argument or with -p, not both")
		}
		o.prompt = pos[0]
	}
	if o.prompt == "-" || (o.prompt == "" && !s.inIsTTY && s.in != nil) {
		b, err := io.ReadAll(s.in)
		if err != nil {
			return nil, fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		o.prompt = string(b)
	}
	if strings.TrimSpace(o.prompt) == "" {
		return nil, usagef("no prompt: zero exec \"what to do\" (or -p, or - to read stdin)")
	}
	return o, nil
}
