package cli

import (
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/providers/catalog"
)

// pricing is an event.Sink decorator: it adds the estimated cost (from the
// model catalog's prices) to run_end totals before passing every event on.
// Per-request cost is summed from each usage event, so a long-context tier
// applies to the requests that crossed it only.
type pricing struct {
	next  event.Sink
	model catalog.Model
	usd   float64
	known bool
}

func newPricing(next event.Sink, provider, model string) *pricing {
	m, _ := catalog.Resolve(provider, model)
	return &pricing{next: next, model: m}
}

// Emit implements event.Sink.
func (p *pricing) Emit(e event.Event) {
	switch e.Type {
	case event.RunStart:
		p.usd, p.known = 0, false
	case event.Usage:
		if e.Usage != nil {
			if usd, ok := catalog.Cost(p.model, *e.Usage); ok {
				p.usd += usd
				p.known = true
				e.CostUSD = usd
			}
		}
	case event.RunEnd:
		if e.Totals != nil && p.known {
			t := *e.Totals
			t.CostUSD = p.usd
			e.Totals = &t
		}
	}
	p.next.Emit(e)
}
