package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/providers/openai"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/sessions"
)

// doctorUsage is `zero doctor -h`.
const doctorUsage = `Usage: zero doctor [--provider NAME]

Prints what Zero would use and whether it works: the config files, one
provider, the shell sandbox, the session store, bash and git.

The provider checked is the active one, or NAME (a profile as
` + "`zero providers`" + ` lists it). An OpenAI-compatible server is asked for its
model list (GET /models); for Anthropic and Gemini only the key is checked
(` + "`zero providers check NAME`" + ` sends a real request). With nothing
configured, doctor looks for a local server on 127.0.0.1. It contacts no
host but the provider it checks and 127.0.0.1.

An unknown NAME exits 2 and lists the known ones.

Flags:`

// runDoctor prints what Zero would use and whether it works: config
// files, the active provider (or --provider NAME), the shell sandbox
// backend, the session store. It contacts only the provider checked (for
// OpenAI-compatible servers, GET /models) and loopback.
func runDoctor(s stdio, args []string) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(s.err)
	name := fs.String("provider", "", "check provider profile `NAME` instead of the active one")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), doctorUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("doctor takes no arguments (to check a provider: zero doctor --provider %s)", fs.Arg(0))
	}
	cfg, err := loadConfig("", config.Overrides{})
	if err != nil && *name != "" {
		return err
	}
	if err == nil && *name != "" && !slices.ContainsFunc(cfg.Providers, func(p config.Provider) bool { return p.Name == *name }) {
		var known []string
		for _, p := range cfg.Providers {
			known = append(known, p.Name)
		}
		return usagef("doctor: no provider named %q; known: %s (zero providers lists them)", *name, strings.Join(known, ", "))
	}
	if err != nil {
		fmt.Fprintf(s.out, "✗ config: %v\n", err)
	} else {
		if len(cfg.Files) == 0 {
			fmt.Fprintln(s.out, "· config: no config files (defaults and environment only)")
		}
		for _, f := range cfg.Files {
			fmt.Fprintf(s.out, "✓ config file %s\n", f)
		}
		for _, w := range cfg.Warnings {
			fmt.Fprintf(s.out, "! %s\n", w)
		}
		switch {
		case *name != "":
			if r, err := cfg.Resolve(*name, ""); err != nil {
				fmt.Fprintf(s.out, "✗ provider %s: %v\n", *name, err)
			} else {
				doctorProvider(s, r)
			}
		case cfg.Active != nil:
			doctorProvider(s, cfg.Active)
		default:
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			srv, err := discovery.Find(ctx)
			cancel()
			if err != nil {
				fmt.Fprintf(s.out, "✗ no provider configured and no local server found: %v\n", err)
			} else {
				fmt.Fprintf(s.out, "✓ local server %s at %s (%d models)\n", srv.Kind, srv.BaseURL, len(srv.Models))
			}
		}
	}
	backend, detail := sandbox.BackendInfo()
	fmt.Fprintf(s.out, "%s shell sandbox: %s — %s\n", mark(backend != "none" && backend != ""), backend, detail)
	dir, err := sessions.DefaultDir()
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	fmt.Fprintf(s.out, "%s sessions: %s %v\n", mark(err == nil), dir, errText(err))
	for _, tool := range []string{"bash", "git"} {
		_, err := exec.LookPath(tool)
		fmt.Fprintf(s.out, "%s %s on PATH %v\n", mark(err == nil), tool, errText(err))
	}
	return nil
}

// doctorProvider prints one line for provider r: for OpenAI-compatible
// servers whether GET /models answers (3 s), for vendor APIs whether a key
// is set.
func doctorProvider(s stdio, r *config.Resolved) {
	line := fmt.Sprintf("provider %s (%s) %s model %q", r.Name, r.Kind, r.BaseURL, r.Model)
	if r.Kind != config.KindOpenAICompatible && r.Kind != config.KindOpenAI {
		fmt.Fprintf(s.out, "%s %s (key from %s; `zero providers check %s` sends a real request)\n", mark(r.APIKey != ""), line, keySource(r), r.Name)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	ids, err := openai.ListModels(ctx, r.BaseURL, r.APIKey)
	cancel()
	if err != nil {
		fmt.Fprintf(s.out, "✗ %s: %v\n", line, err)
		return
	}
	fmt.Fprintf(s.out, "✓ %s: %d models\n", line, len(ids))
}

// keySource says where r's key came from, or that there is none.
func keySource(r *config.Resolved) string {
	if r.KeySource == "" {
		return "nowhere: no key set"
	}
	return r.KeySource
}

// mark is ✓ for good, ✗ otherwise.
func mark(good bool) string {
	if good {
		return "✓"
	}
	return "✗"
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "(" + err.Error() + ")"
}
