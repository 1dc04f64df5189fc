package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/catalog"
	"github.com/zero-agent/zero/internal/run"
)

// loadConfig resolves configuration for the workspace dir ("" is the
// current directory); a project file counts only once the folder is
// trusted. Bad files are usage errors.
func loadConfig(dir string, over config.Overrides) (*config.Config, error) {
	cfg, _, err := run.LoadConfig(dir, over)
	return cfg, err
}

// providersCmd is `zero providers list|add|remove|use|check`; with no
// sub-verb it lists.
func providersCmd(s stdio) *cobra.Command {
	c := &cobra.Command{
		Use:   "providers",
		Short: "Manage provider profiles (with no subcommand: list them)",
		Long: `Provider profiles live in the user config file. With no subcommand, lists
them: the active one is marked *, a key shows where it comes from, masked.`,
		GroupID: groupSetup,
		Args:    subcommands,
		RunE:    ran(func(*cobra.Command, []string) error { return providersList(s) }),
	}
	name := func(verb string) cobra.PositionalArgs {
		return func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("usage: zero providers %s NAME", verb)
			}
			return nil
		}
	}
	c.AddCommand(
		&cobra.Command{
			Use:   "list",
			Short: "List the provider profiles",
			Args:  cobra.NoArgs,
			RunE:  ran(func(*cobra.Command, []string) error { return providersList(s) }),
		},
		providersAddCmd(s),
		&cobra.Command{
			Use:               "remove NAME",
			Aliases:           []string{"rm"},
			Short:             "Remove a profile from the user config",
			Args:              name("remove"),
			RunE:              ran(func(_ *cobra.Command, args []string) error { return providersRemove(s, args[0]) }),
			ValidArgsFunction: completeProviders,
		},
		&cobra.Command{
			Use:               "use NAME",
			Short:             "Make a profile the active one",
			Args:              name("use"),
			RunE:              ran(func(_ *cobra.Command, args []string) error { return providersUse(s, args[0]) }),
			ValidArgsFunction: completeProviders,
		},
		&cobra.Command{
			Use:   "check [NAME]",
			Short: "Send a tiny real request to a provider (the active one, or NAME) and print a verdict",
			Long: `Sends a 16-token request to the provider and prints whether it answered and
how fast. A provider that fails exits 3.`,
			Args: cobra.MaximumNArgs(1),
			RunE: ran(func(_ *cobra.Command, args []string) error {
				return providersCheck(s, firstOr(args, ""))
			}),
			ValidArgsFunction: completeProviders,
		},
	)
	return c
}

// firstOr is args[0], or def when there is none.
func firstOr(args []string, def string) string {
	if len(args) > 0 {
		return args[0]
	}
	return def
}

func providersRemove(s stdio, name string) error {
	return editProviders(s, name, func(f *config.File) error {
		for i, p := range f.Providers {
			if p.Name == name {
				f.Providers = append(f.Providers[:i], f.Providers[i+1:]...)
				if f.ActiveProvider == name {
					f.ActiveProvider = ""
				}
				return nil
			}
		}
		return usagef("no provider %q in the user config", name)
	}, "removed")
}

func providersUse(s stdio, name string) error {
	cfg, err := loadConfig("", config.Overrides{})
	if err != nil {
		return err
	}
	if _, err := cfg.Resolve(name, ""); err != nil {
		return usagef("%v", err)
	}
	return editProviders(s, name, func(f *config.File) error { f.ActiveProvider = name; return nil }, "now active")
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

// providerAdd holds the flags of `zero providers add`.
type providerAdd struct {
	kind, base, keyEnv, model string
	headers                   []string
	kindSet                   bool // --kind given
}

func providersAddCmd(s stdio) *cobra.Command {
	a := &providerAdd{}
	c := &cobra.Command{
		Use:     "add NAME",
		Short:   "Add (or replace) a profile in the user config",
		Example: "  zero providers add local --base-url http://127.0.0.1:8080 --model qwen3-coder\n  zero providers add work --kind anthropic --api-key-env WORK_ANTHROPIC_KEY --model claude-sonnet-4-5",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("usage: zero providers add NAME --kind K --base-url URL [--api-key-env VAR] [--model M]")
			}
			return nil
		},
		RunE: ran(func(c *cobra.Command, args []string) error {
			a.kindSet = c.Flags().Changed("kind")
			return providersAdd(s, args[0], a)
		}),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	fs := c.Flags()
	fs.StringVar(&a.kind, "kind", string(config.KindOpenAICompatible), "`KIND`: openai, openai-compatible, anthropic or gemini (default: the hosted API's own for openai, anthropic and gemini, else openai-compatible)")
	fs.StringVar(&a.base, "base-url", "", "API root `URL` (needed unless the kind is a hosted API's, whose URL it defaults to)")
	fs.StringVar(&a.keyEnv, "api-key-env", "", "environment variable `VAR` holding the key")
	fs.StringVar(&a.model, "model", "", "default `MODEL`")
	fs.StringArrayVar(&a.headers, "header", nil, "extra header `NAME=VALUE` (repeatable)")
	c.RegisterFlagCompletionFunc("kind", cobra.FixedCompletions([]string{string(config.KindOpenAI), string(config.KindOpenAICompatible), string(config.KindAnthropic), string(config.KindGemini)}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

func providersAdd(s stdio, name string, a *providerAdd) error {
	p, err := a.profile(name)
	if err != nil {
		return err
	}
	before := activeName()
	err = editProviders(s, p.Name, func(f *config.File) error {
		for i := range f.Providers {
			if f.Providers[i].Name == p.Name {
				f.Providers[i] = p
				return nil
			}
		}
		// The only profile of the file is active unasked; a second one
		// would leave none active: the one in use is written down.
		if f.ActiveProvider == "" && before != "" && before != p.Name && slices.ContainsFunc(f.Providers, func(q config.Provider) bool { return q.Name == before }) {
			f.ActiveProvider = before
		}
		f.Providers = append(f.Providers, p)
		return nil
	}, "saved")
	if err != nil {
		return err
	}
	reportActive(s, name, before, activeName())
	return nil
}

// reportActive says whether adding the profile name changed which
// provider runs use (before and after name it, "" for none): a profile
// can become the active one without `providers use` (the only one in the
// user config is), and a second one can end that.
func reportActive(s stdio, name, before, after string) {
	switch {
	case after == name && before == name:
		fmt.Fprintf(s.out, "%s stays the active provider\n", name)
	case after == name && before != "":
		fmt.Fprintf(s.out, "%s is now the active provider (it was %s: zero providers use %s switches back)\n", name, before, before)
	case after == name:
		fmt.Fprintf(s.out, "%s is now the active provider (zero providers use NAME picks another)\n", name)
	case after == "":
		fmt.Fprintf(s.out, "%s is not active: no provider is (zero providers use %s makes it so)\n", name, name)
	case after == before:
		fmt.Fprintf(s.out, "%s is not active: %s still is (zero providers use %s switches)\n", name, after, name)
	case before == "":
		fmt.Fprintf(s.out, "%s is not active: %s is (zero providers use %s switches)\n", name, after, name)
	default:
		fmt.Fprintf(s.out, "%s is not active, and the active provider is now %s, not %s (zero providers use NAME picks one)\n", name, after, before)
	}
}

// profile is the profile `providers add NAME` saves, or a usage error
// for one that could not be used. Without --kind, a hosted API's name
// (openai, anthropic, gemini) keeps its kind; without --base-url, a hosted
// kind takes its API's URL, and any other needs one.
func (a *providerAdd) profile(name string) (config.Provider, error) {
	kind := config.Kind(a.kind)
	var hosted *config.Provider // the hosted API whose URL a missing --base-url means
	builtin := false            // name is a hosted API's: the user profile is merged with it
	for _, h := range config.Hosted() {
		if h.Name == name {
			builtin = true
			if !a.kindSet {
				kind = h.Kind
			}
		}
		if h.Kind == kind {
			hosted = &h
		}
	}
	switch kind {
	case config.KindOpenAI, config.KindOpenAICompatible, config.KindAnthropic, config.KindGemini:
	default:
		return config.Provider{}, usagef("--kind must be openai, openai-compatible, anthropic or gemini")
	}
	p := config.Provider{Name: name, Kind: kind, BaseURL: a.base, APIKeyEnv: a.keyEnv, Model: a.model}
	if p.BaseURL == "" && hosted != nil && !builtin {
		p.BaseURL = hosted.BaseURL
	}
	if p.BaseURL == "" && !builtin {
		return p, usagef("provider %q needs --base-url URL, the API root of its server (e.g. zero providers add %s --base-url http://127.0.0.1:8080/v1)", name, name)
	}
	for _, h := range a.headers {
		k, v, ok := strings.Cut(h, "=")
		if !ok {
			return p, usagef("--header takes NAME=VALUE, got %q", h)
		}
		if p.Headers == nil {
			p.Headers = map[string]string{}
		}
		p.Headers[k] = v
	}
	return p, nil
}

// activeName is the name of the provider a run here would use, "" for
// none (or a config that does not load).
func activeName() string {
	cfg, err := loadConfig("", config.Overrides{})
	if err != nil || cfg.Active == nil {
		return ""
	}
	return cfg.Active.Name
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

// modelsCmd is `zero models [PROVIDER]`.
func modelsCmd(s stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "models [PROVIDER]",
		Short: "List a provider's models (the active one, or PROVIDER)",
		Long: `Lists the model ids an OpenAI-compatible server or the OpenAI API offers
(GET /models, each model once), or the catalog's models for Anthropic and
Gemini, with their windows and prices. OpenAI without a key shows the
catalog's models, marked as such, without a request.`,
		GroupID:           groupSetup,
		Args:              cobra.MaximumNArgs(1),
		RunE:              ran(func(_ *cobra.Command, args []string) error { return runModels(s, firstOr(args, "")) }),
		ValidArgsFunction: completeProviders,
	}
}

// runModels is `zero models [provider]`: live ids from OpenAI-compatible
// servers and the OpenAI API, the catalog for the other vendor APIs and
// for OpenAI without a key.
func runModels(s stdio, name string) error {
	r, err := namedProvider(name)
	if err != nil {
		return err
	}
	switch {
	case r.Kind == config.KindAnthropic, r.Kind == config.KindGemini:
		return catalogModels(s, r.Kind, "")
	case r.Kind == config.KindOpenAI && r.APIKey == "":
		// Without a key the API lists nothing; the catalog still says
		// which models Zero knows, without a request.
		fmt.Fprintf(s.err, "zero: no key for %s (set OPENAI_API_KEY to list the API's models): the catalog's models, not the live list\n", r.Name)
		return catalogModels(s, r.Kind, "; not the live list")
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

// catalogModels prints the catalog's models of kind with their windows
// and prices; note follows the catalog's date in the header.
func catalogModels(s stdio, kind config.Kind, note string) error {
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "MODEL\tWINDOW\tMAX OUT\t$/M IN\t$/M OUT\t(catalog as of %s%s)\n", catalog.AsOf, note)
	for _, m := range catalog.Models(string(kind)) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.2f\t\n", m.ID, m.ContextWindow, m.MaxOutput, m.Price.Input, m.Price.Output)
	}
	return tw.Flush()
}
