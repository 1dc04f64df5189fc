package run

import (
	"sync"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/providers/catalog"
	"github.com/zero-agent/zero/internal/sessions"
)

// chain is a session's event sink chain, assembled once: stamp (run id,
// turn, time for events from outside the loop: permission requests and
// decisions, hook runs, `!cmd`) → pricing (cost per request and per run)
// → the session log, then the surface of the prompt under way (none
// between prompts: a compaction or `!cmd` then reaches the log only).
func newChain(sess *sessions.Session, provider, model string, window func() int) (*event.Stamper, *pricing, *surface) {
	sf := &surface{}
	pr := newPricing(event.Multi{sessionLog{sess}, sf}, provider, model)
	return &event.Stamper{Next: windowStamp{pr, window}}, pr, sf
}

// windowStamp records the context window a run starts with on its
// run_start event.
type windowStamp struct {
	next   event.Sink
	window func() int
}

func (w windowStamp) Emit(e event.Event) {
	if e.Type == event.RunStart && e.ContextWindow == 0 {
		e.ContextWindow = w.window()
	}
	w.next.Emit(e)
}

// surface forwards events to the current prompt's consumer.
type surface struct {
	mu   sync.Mutex
	sink event.Sink
}

func (s *surface) set(sink event.Sink) {
	s.mu.Lock()
	s.sink = sink
	s.mu.Unlock()
}

// Emit implements event.Sink.
func (s *surface) Emit(e event.Event) {
	s.mu.Lock()
	sink := s.sink
	s.mu.Unlock()
	if sink != nil {
		sink.Emit(e)
	}
}

// toolOutput passes a running tool's output to the prompt's consumer
// when it takes it (event.OutputSink).
func (s *surface) toolOutput(callID string, p []byte) {
	s.mu.Lock()
	sink, ok := s.sink.(event.OutputSink)
	s.mu.Unlock()
	if ok {
		sink.ToolOutput(callID, p)
	}
}

// sessionLog is the session store as an event consumer: it records every
// event except streaming deltas (the complete messages are recorded as
// message events, so deltas would only repeat them).
type sessionLog struct{ s *sessions.Session }

// Emit appends e unless it is a text or reasoning delta.
func (l sessionLog) Emit(e event.Event) {
	if e.Type == event.Text || e.Type == event.Reasoning {
		return
	}
	l.s.Emit(e)
}

// pricing is an event.Sink decorator: it adds the estimated cost (from the
// model catalog's prices) to usage events and run_end totals before
// passing every event on. Per-request cost is summed from each usage
// event, so a long-context tier applies to the requests that crossed it
// only.
type pricing struct {
	next event.Sink

	mu       sync.Mutex
	provider string
	model    catalog.Model
	usd      float64
	known    bool
	// session is the whole session's estimated cost (every run's).
	session float64
	// children sums the sub-agents of the run under way
	// (subagent_parallel.go).
	children    event.Totals
	hasChildren bool
}

func newPricing(next event.Sink, provider, model string) *pricing {
	p := &pricing{next: next, provider: provider}
	p.setModel(model)
	return p
}

// setProvider prices later requests as model's of provider kind (a
// /provider switch).
func (p *pricing) setProvider(provider, model string) {
	p.mu.Lock()
	p.provider = provider
	p.mu.Unlock()
	p.setModel(model)
}

// setModel prices later requests as model's (a /model switch).
func (p *pricing) setModel(model string) {
	m, _ := catalog.Resolve(p.provider, model)
	p.mu.Lock()
	p.model = m
	p.mu.Unlock()
}

// priced reports whether the model has catalog prices.
func (p *pricing) priced() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.model.Known && (p.model.Price.Input != 0 || p.model.Price.Output != 0)
}

// sessionCost is what the session's requests cost so far by the
// catalog's prices, and whether any was priced.
func (p *pricing) sessionCost() (float64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session, p.session > 0
}

// Emit implements event.Sink.
func (p *pricing) Emit(e event.Event) {
	p.mu.Lock()
	switch e.Type {
	case event.RunStart:
		p.usd, p.known = 0, false
		p.children, p.hasChildren = event.Totals{}, false
	case event.Usage:
		if e.Usage != nil {
			if usd, ok := catalog.Cost(p.model, *e.Usage); ok {
				p.usd += usd
				p.session += usd
				p.known = true
				e.CostUSD = usd
			}
		}
	case event.RunEnd:
		if e.Totals != nil && (p.known || p.hasChildren) {
			t := *e.Totals
			if p.known {
				t.CostUSD = p.usd
			}
			if p.hasChildren {
				sub := p.children
				t.Subagents = &sub
				t.CostUSD += sub.CostUSD
			}
			e.Totals = &t
		}
	}
	p.mu.Unlock()
	p.next.Emit(e)
}
