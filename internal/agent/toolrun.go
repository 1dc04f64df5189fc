package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

// cancelledResult answers a queued call an interrupt kept from running;
// a running call gets contextmgr.InterruptResults' "Interrupted by user
// after <elapsed>. Partial output: ..." (wording of case B26).
const cancelledResult = contextmgr.CancelledContent

// pending is one tool call on its way through gate and execution.
type pending struct {
	call    llm.ToolCall
	tool    tools.Tool
	args    []byte
	res     tools.Result
	done    bool
	elapsed time.Duration
	// denied is the gate's reason when it refused the call.
	denied string
	// network: the gate granted the call the network.
	network bool
}

// runTools gates and runs one turn's tool calls and appends their results
// in call order. Consecutive read-only calls run in parallel. It reports
// whether the run was interrupted; then every call still has a result.
//
// invalid maps the ids of recovered text calls whose arguments could not
// be repaired to the error text they get as their result; they never run.
func (r *run) runTools(ctx context.Context, calls []llm.ToolCall, invalid map[string]string) (interrupted bool) {
	ps := make([]*pending, len(calls))
	for i, c := range calls {
		r.totals.ToolCalls++
		cc := c
		r.emit(event.Event{Type: event.ToolCall, ToolCall: &cc})
		cut := r.finish == llm.FinishLength && i == len(calls)-1
		if msg, bad := invalid[c.ID]; bad {
			if cut {
				msg += cutCallNote
			}
			ps[i] = &pending{call: c, res: tools.Result{IsError: true, Content: msg}, done: true}
			continue
		}
		ps[i] = r.prepare(ctx, c, cut)
	}
	for i := 0; i < len(ps); {
		if ctx.Err() != nil {
			break
		}
		if ps[i].done {
			i++
			continue
		}
		j := i + 1
		if ps[i].tool.SideEffect() == tools.SideRead {
			for j < len(ps) && !ps[j].done && ps[j].tool.SideEffect() == tools.SideRead {
				j++
			}
		}
		r.execute(ctx, ps[i:j])
		i = j
	}
	interrupted = ctx.Err() != nil
	outs := make([]outcome, len(ps))
	for i, p := range ps {
		if !p.done {
			p.res = tools.Result{Content: cancelledResult, IsError: true}
			p.done = true
		}
		outs[i] = outcome{Call: p.call, Result: p.res}
		if p.tool != nil {
			outs[i].SideEffect = p.tool.SideEffect()
		}
	}
	r.observe(outs)
	kept := make([]string, len(ps))
	switch {
	case interrupted:
		for i, o := range outs {
			kept[i] = o.Result.Content
		}
	case !r.a.opts.DisableLevers:
		kept = r.a.shapeTurn(r.emit, outs)
	default:
		for i, o := range outs {
			kept[i] = o.Result.Content
		}
	}
	for i, p := range ps {
		r.emit(event.Event{Type: event.ToolResult, Result: &event.ToolOutcome{
			CallID: p.call.ID, Name: p.call.Name, Content: kept[i], IsError: p.res.IsError,
			RawBytes: max(p.res.RawBytes, len(p.res.Content)), KeptBytes: len(kept[i]), ExitCode: p.res.ExitCode,
			Diff: p.res.Diff, ElapsedMs: p.elapsed.Milliseconds(), Denied: p.denied,
		}})
		r.appendMessage(llm.ToolResultMessage(llm.ToolResult{CallID: p.call.ID, Name: p.call.Name, Content: kept[i], IsError: p.res.IsError, Images: p.res.Images}))
		if p.res.Plan != nil && !p.res.IsError {
			r.setPlan(p.res.Plan)
		}
	}
	return interrupted
}

// prepare looks up the tool, validates arguments and asks the gate. A call
// that cannot run is marked done with an error result the model can act on.
// cut marks the last call of a reply the output-token limit cut off: its
// arguments are incomplete, so they are not repaired (a closed-up
// truncated file must not be written) and an invalid one says why.
func (r *run) prepare(ctx context.Context, c llm.ToolCall, cut bool) *pending {
	p := &pending{call: c}
	t, ok := r.a.opts.Tools.Get(c.Name)
	hidden := ok && r.a.opts.Visible != nil && !r.a.opts.Visible(t) &&
		(r.a.opts.Callable == nil || !r.a.opts.Callable(t))
	if !ok || hidden {
		names := []string{}
		for _, s := range r.visibleSpecs() {
			names = append(names, s.Name)
		}
		msg := fmt.Sprintf("error: unknown tool %q. Available tools: %s", c.Name, strings.Join(names, ", "))
		if hidden {
			// Plan mode offers read-only tools, a small window fewer
			// tools; say so rather than pretend the tool does not exist.
			msg = fmt.Sprintf("error: %s is not available now (not offered in this mode or profile). Available tools: %s", c.Name, strings.Join(names, ", "))
		}
		p.res = tools.Result{IsError: true, Content: msg}
		p.done = true
		return p
	}
	p.tool = t
	args, msg, repaired := validArgs(c, t, !cut)
	if repaired {
		r.emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("repaired the invalid JSON arguments of tool call %s (%s): %.200s -> %.200s", c.ID, c.Name, c.Arguments, args)})
	}
	if msg != "" {
		if cut {
			msg += cutCallNote
		}
		p.res = tools.Result{IsError: true, Content: msg}
		p.done = true
		return p
	}
	p.args = args
	// The gate and the tool see the repaired arguments (a gate that
	// parses them, like the sandbox engine, would otherwise deny a call
	// the tool can run); the history and the log keep what the model sent.
	gated := c
	if repaired {
		gated.Arguments = string(args)
	}
	d := r.decide(ctx, gated, t)
	if !d.Allow {
		reason := d.Reason
		if reason == "" {
			reason = "not allowed"
		}
		p.res = tools.Result{IsError: true, Content: "error: permission denied: " + reason}
		p.done, p.denied = true, reason
		return p
	}
	if d.Rewrite != "" {
		p.args = []byte(d.Rewrite)
	}
	p.network = d.Network
	return p
}

func (r *run) decide(ctx context.Context, c llm.ToolCall, t tools.Tool) Decision {
	if r.a.opts.Gate != nil {
		return r.a.opts.Gate.Decide(ctx, c, t)
	}
	if e := t.SideEffect(); e == tools.SideRead || e == tools.SideNone {
		return Decision{Allow: true}
	}
	return Decision{Reason: fmt.Sprintf("%s needs approval and no one can approve it here (run with --auto-approve or set \"autoApprove\": true)", t.Name())}
}

// execute runs a group of calls: one, or several read-only ones in parallel.
func (r *run) execute(ctx context.Context, group []*pending) {
	var wg sync.WaitGroup
	for _, p := range group {
		wg.Add(1)
		go func(p *pending) {
			defer wg.Done()
			start := time.Now()
			tctx := r.a.toolContext(ctx, p.call.ID)
			if p.network {
				tctx = tools.WithNetwork(tctx)
			}
			res, err := p.tool.Run(tctx, p.args)
			p.elapsed = time.Since(start)
			switch {
			case ctx.Err() != nil:
				// The tool's error is the cancellation itself; its
				// partial output is what the model needs.
				partial := strings.TrimSpace(res.Content)
				res.Content = contextmgr.InterruptResults([]llm.ToolCall{p.call}, p.call.ID, partial, p.elapsed)[0].Content
				res.IsError = true
			case err != nil:
				res.IsError = true
				if res.Content != "" {
					res.Content += "\n"
				}
				res.Content += "error: " + err.Error()
			}
			p.res, p.done = res, true
		}(p)
	}
	wg.Wait()
}
