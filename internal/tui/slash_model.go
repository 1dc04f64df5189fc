package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// unlistedModel is /model's warning lines when the switch may not be
// what the user meant: "nosuch/x" names no profile (so it was taken as
// a model id of the provider in use), or the provider's model list
// does not hold the model (a typo the server would refuse at the next
// prompt). "" when the list holds it or cannot be read.
func unlistedModel(ctx context.Context, b Backend, spec, model string) string {
	var out strings.Builder
	if prov, _, ok := strings.Cut(spec, "/"); ok && spec == model {
		if ps, can := b.(providerSwitcher); can && !slices.Contains(ps.ProviderNames(), prov) {
			fmt.Fprintf(&out, "\n! no provider profile %q (/provider lists them): %q is taken as a model id of this provider", prov, spec)
		}
	}
	if ids, err := b.Models(ctx); err == nil && len(ids) > 0 && !slices.Contains(ids, model) {
		fmt.Fprintf(&out, "\n! the server does not list %q (/model lists its models): the next prompt may be refused", model)
	}
	return out.String()
}
