package run

import (
	"context"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/mcp"
)

// spent sums what the session's requests in this process reported: the
// usage and the number of requests (for /cost).
type spent struct {
	usage    llm.Usage
	requests int
}

func (s *Session) noteSpent(e event.Event) {
	if e.Type != event.Usage || e.Usage == nil {
		return
	}
	s.mu.Lock()
	s.spent.usage = s.spent.usage.Add(*e.Usage)
	s.spent.requests++
	s.mu.Unlock()
}

// CostReport is /cost: the requests of this session in this process,
// their tokens and the estimated cost at the catalog's prices.
func (s *Session) CostReport() string {
	s.mu.Lock()
	sp := s.spent
	s.mu.Unlock()
	u := sp.usage
	var b strings.Builder
	fmt.Fprintf(&b, "%s this session (this process)\n", plural(sp.requests, "request"))
	fmt.Fprintf(&b, "  input   %d tokens", u.InputTokens)
	if u.CacheReadTokens > 0 {
		fmt.Fprintf(&b, " (%d read from the prompt cache)", u.CacheReadTokens)
	}
	fmt.Fprintf(&b, "\n  output  %d tokens", u.OutputTokens)
	if u.ReasoningTokens > 0 {
		fmt.Fprintf(&b, " (%d reasoning)", u.ReasoningTokens)
	}
	b.WriteString("\n")
	if u.Estimated {
		b.WriteString("  (some requests had no usage report: those counts are estimates)\n")
	}
	if usd, ok := s.CostUSD(); ok {
		fmt.Fprintf(&b, "  cost    ~$%.4f at the catalog's list prices", usd)
	} else {
		b.WriteString("  cost    unknown: the catalog has no prices for this model (a local server costs nothing)")
	}
	return b.String()
}

// StatusReport is /status: the provider, model, endpoint and window, the mode, the
// session and its log, and the MCP servers.
func (s *Session) StatusReport(ctx context.Context) string {
	rt := s.rt
	model, window := rt.ModelWindow()
	active := rt.ActiveProfile()
	var b strings.Builder
	fmt.Fprintf(&b, "provider   %s\n", active.Name)
	fmt.Fprintf(&b, "model      %s (%s)\n", model, active.Kind)
	fmt.Fprintf(&b, "endpoint   %s\n", active.BaseURL)
	w := "unknown"
	if window > 0 {
		w = fmt.Sprintf("%d tokens", window)
	}
	u := s.Usage()
	fmt.Fprintf(&b, "window     %s, ~%d used\n", w, u.UsedTokens)
	fmt.Fprintf(&b, "mode       %s\n", rt.Mode())
	fmt.Fprintf(&b, "workspace  %s\n", rt.Workspace.Root())
	fmt.Fprintf(&b, "session    %s\n  log      %s\n", s.ID(), s.EventsPath())
	if rt.mcp == nil {
		b.WriteString("mcp        none configured")
		return b.String()
	}
	sts := rt.mcp.mgr.Status()
	connected := 0
	for _, st := range sts {
		if st.State == mcp.StateConnected {
			connected++
		}
	}
	fmt.Fprintf(&b, "mcp        %d of %s connected", connected, plural(len(sts), "server"))
	for _, st := range sts {
		fmt.Fprintf(&b, "\n  %-12s %s", st.Name, st.Summary())
	}
	return b.String()
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}
