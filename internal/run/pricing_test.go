package run

import (
	"context"
	"math"
	"testing"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/llm/llmtest"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/catalog"
)

func TestPricingAddsCostPerRequestAndTotal(t *testing.T) {
	m, ok := catalog.Lookup("openai", "gpt-4.1")
	if !ok {
		t.Fatal("catalog lacks gpt-4.1")
	}
	var got []event.Event
	p := newPricing(event.SinkFunc(func(e event.Event) { got = append(got, e) }), "openai", "gpt-4.1")
	u1 := llm.Usage{InputTokens: 1_000_000, OutputTokens: 0}
	u2 := llm.Usage{InputTokens: 0, OutputTokens: 1_000_000}
	p.Emit(event.Event{Type: event.RunStart})
	p.Emit(event.Event{Type: event.Usage, Usage: &u1})
	p.Emit(event.Event{Type: event.Usage, Usage: &u2})
	p.Emit(event.Event{Type: event.RunEnd, Totals: &event.Totals{}})
	want := m.Price.Input + m.Price.Output
	if math.Abs(got[1].CostUSD-m.Price.Input) > 1e-9 || math.Abs(got[2].CostUSD-m.Price.Output) > 1e-9 {
		t.Fatalf("per-request cost %v %v, want %v %v", got[1].CostUSD, got[2].CostUSD, m.Price.Input, m.Price.Output)
	}
	if math.Abs(got[3].Totals.CostUSD-want) > 1e-9 {
		t.Fatalf("total %v want %v", got[3].Totals.CostUSD, want)
	}
	// unknown models carry no invented price
	var end event.Event
	q := newPricing(event.SinkFunc(func(e event.Event) { end = e }), "openai-compatible", "qwen2.5-coder:7b")
	q.Emit(event.Event{Type: event.Usage, Usage: &u1})
	q.Emit(event.Event{Type: event.RunEnd, Totals: &event.Totals{}})
	if end.Totals.CostUSD != 0 {
		t.Fatalf("cost for an unknown model: %v", end.Totals.CostUSD)
	}
}

// The session's cost adds every run's priced requests (the app's footer
// shows it); an unpriced model costs nothing.
func TestSessionCostAddsEveryRun(t *testing.T) {
	srv := llmtest.NewServer(t)
	rt, _ := openTest(t, srv, Options{Overrides: config.Overrides{BaseURL: srv.URL() + "/v1", Model: "gpt-4.1"}})
	s := openSession(t, rt, Which{})
	if usd, ok := s.CostUSD(); ok || usd != 0 {
		t.Fatalf("before any request: %v %v", usd, ok)
	}
	for range 2 {
		srv.Script(llmtest.Reply(llmtest.Text("ok"), llmtest.Usage(1_000_000, 0)))
		s.Prompt(context.Background(), Turn{Prompt: "hi"})
	}
	// gpt-4.1 is $2 per million input tokens in the catalog.
	if usd, ok := s.CostUSD(); !ok || usd < 3.99 || usd > 4.01 {
		t.Fatalf("two runs of a million input tokens: $%v (%v)", usd, ok)
	}
}
