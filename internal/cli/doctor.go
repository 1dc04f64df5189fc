package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/providers/openai"
	"github.com/zero-agent/zero/internal/sandbox"
	"github.com/zero-agent/zero/internal/sessions"
)

// runDoctor prints what Zero would use and whether it works: config
// files, the active provider, the shell sandbox backend, the session store.
// It contacts only the configured provider (for OpenAI-compatible servers,
// GET /models) and loopback.
func runDoctor(s stdio, args []string) error {
	ok := func(good bool) string {
		if good {
			return "✓"
		}
		return "✗"
	}
	cfg, err := loadConfig("", config.Overrides{})
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
		if r := cfg.Active; r != nil {
			line := fmt.Sprintf("provider %s (%s) %s model %q", r.Name, r.Kind, r.BaseURL, r.Model)
			if r.Kind == config.KindOpenAICompatible || r.Kind == config.KindOpenAI {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				ids, err := openai.ListModels(ctx, r.BaseURL, r.APIKey)
				cancel()
				if err != nil {
					fmt.Fprintf(s.out, "✗ %s: %v\n", line, err)
				} else {
					fmt.Fprintf(s.out, "✓ %s: %d models\n", line, len(ids))
				}
			} else {
				fmt.Fprintf(s.out, "%s %s (key from %s; `zero providers check` sends a real request)\n", ok(r.APIKey != ""), line, r.KeySource)
			}
		} else {
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
	name, detail := sandbox.BackendInfo()
	fmt.Fprintf(s.out, "%s shell sandbox: %s — %s\n", ok(name != "none" && name != ""), name, detail)
	dir, err := sessions.DefaultDir()
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	fmt.Fprintf(s.out, "%s sessions: %s %v\n", ok(err == nil), dir, errText(err))
	for _, tool := range []string{"bash", "git"} {
		_, err := exec.LookPath(tool)
		fmt.Fprintf(s.out, "%s %s on PATH %v\n", ok(err == nil), tool, errText(err))
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "(" + err.Error() + ")"
}
