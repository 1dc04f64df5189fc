package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/zero-agent/zero/internal/run"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/catalog"
)

// loadConfig resolves configuration for the workspace dir ("" is the
// current directory); a project file counts only once the folder is
// trusted. Bad files are usage errors.
func loadConfig(dir string, over config.Overrides) (*config.Config, error) {
	cfg, _, err := run.LoadConfig(dir, over)
	return cfg, err
}

// runProviders is `zero providers list|add|remove|use|check`.
func runProviders(s stdio, args []string) error {
	if len(args) == 0 {
		args = []string{"list"}
	}
	switch args[0] {
	case "list":
		return providersList(s)
	case "add":
		return providersAdd(s, args[1:])
	case "remove", "rm":
		if len(args) != 2 {
			return usagef("usage: zero providers remove NAME")
		}
		return editProviders(s, args[1], func(f *config.File) error {
			for i, p := range f.Providers {
				if p.Name == args[1] {
					f.Providers = append(f.Providers[:i], f.Providers[i+1:]...)
					if f.ActiveProvider == args[1] {
						f.ActiveProvider = ""
					}
					return nil
				}
			}
			return usagef("no provider %q in the user config", args[1])
		}, "removed")
	case "use":
		if len(args) != 2 {
			return usagef("usage: zero providers use NAME")
		}
		cfg, err := loadConfig("", config.Overrides{})
		if err != nil {
			return err
		}
		if _, err := cfg.Resolve(args[1], ""); err != nil {
			return usagef("%v", err)
		}
		return editProviders(s, args[1], func(f *config.File) error { f.ActiveProvider = args[1]; return nil }, "now active")
	case "check":
		name := ""
		if len(args) > 1 {
			name = args[1]
		}
		return providersCheck(s, name)
	}
	return usagef("unknown providers command %q (list, add, remove, use, check)", args[0])
}

func editProviders(s stdio, name string, fn func(*config.File) error, done string) error {
	var inner error
	err := config.SaveUser(func(f *config.File) { inner = fn(f) })
	if inner != nil {
		return inner
	}
	if err != nil {
		return err
	}
	path, _ := config.UserPath()
	fmt.Fprintf(s.out, "%s: %s (%s)\n", name, done, path)
	return nil
}

func providersList(s stdio) error {
	cfg, err := loadConfig("", config.Overrides{})
	if err != nil {
		return err
	}
	active := ""
	if cfg.Active != nil {
		active = cfg.Active.Name
	}
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tNAME\tKIND\tBASE URL\tMODEL\tKEY")
	for _, p := range cfg.Providers {
		mark := ""
		if p.Name == active {
			mark = "*"
		}
		key := "-"
		if r, err := cfg.Resolve(p.Name, ""); err == nil && r.APIKey != "" {
			key = config.MaskKey(r.APIKey) + " (" + r.KeySource + ")"
		} else if p.APIKeyEnv != "" {
			key = "$" + p.APIKeyEnv + " (unset)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", mark, p.Name, p.Kind, p.BaseURL, p.Model, key)
	}
	return tw.Flush()
}

func providersAdd(s stdio, args []string) error {
	fs := flag.NewFlagSet("providers add", flag.ContinueOnError)
	fs.SetOutput(s.err)
	kind := fs.String("kind", "openai-compatible", "openai | openai-compatible | anthropic | gemini")
	base := fs.String("base-url", "", "API root")
	keyEnv := fs.String("api-key-env", "", "environment variable holding the key")
	model := fs.String("model", "", "default model")
	var headers multiFlag
	fs.Var(&headers, "header", "extra header NAME=VALUE (repeatable)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usagef("%v", err)
	}
	if len(pos) != 1 {
		return usagef("usage: zero providers add NAME --kind K --base-url URL [--api-key-env VAR] [--model M]")
	}
	switch config.Kind(*kind) {
	case config.KindOpenAI, config.KindOpenAICompatible, config.KindAnthropic, config.KindGemini:
	default:
		return usagef("--kind must be openai, openai-compatible, anthropic or gemini")
	}
	p := config.Provider{Name: pos[0], Kind: config.Kind(*kind), BaseURL: *base, APIKeyEnv: *keyEnv, Model: *model}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, "=")
		if !ok {
			return usagef("--header takes NAME=VALUE, got %q", h)
		}
		if p.Headers == nil {
			p.Headers = map[string]string{}
		}
		p.Headers[k] = v
	}
	return editProviders(s, p.Name, func(f *config.File) error {
		for i := range f.Providers {
			if f.Providers[i].Name == p.Name {
				f.Providers[i] = p
				return nil
			}
		}
		f.Providers = append(f.Providers, p)
		return nil
	}, "saved")
}

// namedProvider resolves the profile called name, or the active one when
// name is empty.
func namedProvider(name string) (*config.Resolved, error) {
	cfg, err := loadConfig("", config.Overrides{Provider: name})
	if err != nil {
		return nil, err
	}
	r := cfg.Active
	if name != "" {
		if r, err = cfg.Resolve(name, ""); err != nil {
			return nil, usagef("%v", err)
		}
	}
	if r == nil {
		return nil, usagef("no provider configured: zero providers add NAME …, or set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY")
	}
	return r, nil
}

// providersCheck sends a tiny real request and prints a verdict.
func providersCheck(s stdio, name string) error {
	r, err := namedProvider(name)
	if err != nil {
		return err
	}
	prov, err := run.NewProvider(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	ch, err := prov.Stream(ctx, llm.Request{Model: r.Model, MaxTokens: 16, Messages: []llm.Message{llm.TextMessage(llm.RoleUser, "Reply with the word OK.")}})
	var asm llm.Assembler
	if err == nil {
		for ev := range ch {
			asm.Add(ev)
		}
		err = asm.Err
	}
	if err != nil {
		fmt.Fprintf(s.out, "✗ %s (%s, model %s): %v\n", r.Name, r.BaseURL, r.Model, err)
		return &exitError{code: ExitProvider}
	}
	fmt.Fprintf(s.out, "✓ %s (%s, model %s) answered in %d ms: %q\n", r.Name, r.BaseURL, r.Model, time.Since(start).Milliseconds(), oneLine(asm.Message().Text(), 60))
	return nil
}

// runModels is `zero models [provider]`: live ids from OpenAI-compatible
// servers, the catalog for vendor APIs.
func runModels(s stdio, args []string) error {
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	r, err := namedProvider(name)
	if err != nil {
		return err
	}
	switch r.Kind {
	case config.KindAnthropic, config.KindGemini:
		tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "MODEL\tWINDOW\tMAX OUT\t$/M IN\t$/M OUT\t(catalog as of %s)\n", catalog.AsOf)
		for _, m := range catalog.Models(string(r.Kind)) {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t\n", m.ID, m.ContextWindow, m.MaxOutput, m.Price.Input, m.Price.Output)
		}
		return tw.Flush()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ids, err := run.ModelIDs(ctx, r)
	if err != nil {
		var pe *llm.ProviderError
		if errors.As(err, &pe) {
			return &exitError{ExitProvider, err}
		}
		return err
	}
	for _, id := range ids {
		fmt.Fprintln(s.out, id)
	}
	return nil
}
