package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/zero-agent/zero/internal/contextmgr"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

// This file wires the context levers of internal/contextmgr into the loop:
// per-result cap with shaping and spill, per-turn budget, read cache and
// write compaction, plus the invariant repair and the token estimate that
// run before every request.

// shapeTurn is contextmgr.Manager.ShapeTurn over one turn's outcomes. A read_file result is keyed for the read cache by
// the file's absolute path (the tool's Paths), the requested range, and
// the state of the text it returned: the same bytes for the same range are
// exactly what the earlier result already holds, so the loop needs no
// file I/O of its own to know a re-read is unchanged.
func (a *Agent) shapeTurn(emit func(event.Event), outs []outcome) []string {
	rs := make([]contextmgr.Result, len(outs))
	for i, o := range outs {
		rs[i] = contextmgr.Result{
			CallID: o.Call.ID, Content: o.Result.Content, IsError: o.Result.IsError,
			SideEffect: string(o.SideEffect), Paths: o.Result.Paths, RawBytes: o.Result.RawBytes,
			FullOutput: o.Result.FullOutput, FullOutputBytes: o.Result.FullOutputBytes,
		}
		if o.Result.IsError {
			continue
		}
		switch o.Call.Name {
		case "read_file":
			rs[i].Read = readKey(o)
		case "grep":
			// Two-stage search: grep answers with file:line pointers and
			// the model reads ranges. The bytes a full read would have
			// cost are not known without I/O, so only uses are counted.
			a.mgr.Stats.Add(contextmgr.LeverSearch, 0)
		}
	}
	// The window may have been learned from the server since New; the
	// manager derives the per-result cap from it (contextmgr.ToolOutputCap).
	a.mgr.WindowTokens = a.opts.ContextWindow
	kept, err := a.mgr.ShapeTurn(a.turnSeq, rs)
	if err != nil {
		emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("could not save a full tool output for later reading: %v", err)})
	}
	return kept
}

// CapOutput fits text that enters the conversation outside a tool call
// (the output of a `!cmd` the user ran, id naming it uniquely) the way a
// tool result is fitted: the same per-result cap (contextmgr.ToolOutputCap
// over the window and MaxToolOutput), the whole text spilled to
// SessionDir and named by the marker. It counts as a shell result: reads
// cached before it are forgotten. Not safe during a Run. The error is a
// failed spill; the capped text is returned all the same.
func (a *Agent) CapOutput(id, content string) (string, error) {
	a.mgr.WindowTokens = a.opts.ContextWindow
	if a.opts.DisableLevers {
		return content, nil
	}
	kept, err := a.mgr.ShapeTurn(a.turnSeq, []contextmgr.Result{{CallID: id, Content: content, SideEffect: string(tools.SideShell)}})
	return kept[0], err
}

// CapAttached fits a read_file or list_dir result attached to a prompt
// (an @path mention, id naming it uniquely) as the loop fits the tool's
// own results: the same per-result cap, and for a file (path set) the
// read cache, which remembers it so that the model's own read of the
// unchanged file is answered by a reference to this one. Not safe
// during a Run.
func (a *Agent) CapAttached(id, path, content string) (string, error) {
	a.mgr.WindowTokens = a.opts.ContextWindow
	if a.opts.DisableLevers {
		return content, nil
	}
	r := contextmgr.Result{CallID: id, Content: content, SideEffect: string(tools.SideRead)}
	if path != "" {
		r.Paths = []string{path}
		r.Read = &contextmgr.FileRead{Path: path, State: contextmgr.StateOf(time.Time{}, []byte(content))}
	}
	kept, err := a.mgr.ShapeTurn(a.turnSeq, []contextmgr.Result{r})
	return kept[0], err
}

// toolContext is the context one tool call runs under. With the levers on
// and a session directory, a tool that keeps only part of its output in
// memory (bash) streams the whole of it to the call's spill file
// (tools.WithFullOutput at contextmgr.SpillPath), so the spill holds the
// entire output up to the tool's limit instead of the part it kept.
// It always carries the call's id (tools.CallID). With Options.ToolOutput the tool's output also goes there as it runs.
func (a *Agent) toolContext(ctx context.Context, callID string) context.Context {
	ctx = tools.WithCallID(ctx, callID)
	if f := a.opts.ToolOutput; f != nil {
		ctx = tools.WithOutputStream(ctx, outputFunc(func(p []byte) { f(callID, p) }))
	}
	if a.opts.DisableLevers || a.opts.SessionDir == "" {
		return ctx
	}
	return tools.WithFullOutput(ctx, contextmgr.SpillPath(a.opts.SessionDir, callID))
}

// outputFunc is a function as an io.Writer that never fails.
type outputFunc func([]byte)

func (f outputFunc) Write(p []byte) (int, error) {
	f(p)
	return len(p), nil
}

// readKey identifies one read_file result for the read cache.
func readKey(o outcome) *contextmgr.FileRead {
	var args struct {
		Path   string          `json:"path"`
		Offset json.RawMessage `json:"offset"`
		Limit  json.RawMessage `json:"limit"`
	}
	raw, err := o.Call.ArgumentsJSON()
	if err != nil || json.Unmarshal(raw, &args) != nil {
		return nil
	}
	path := args.Path
	if len(o.Result.Paths) > 0 {
		path = o.Result.Paths[0]
	}
	if path == "" {
		return nil
	}
	rng := ""
	if len(args.Offset) > 0 || len(args.Limit) > 0 {
		rng = fmt.Sprintf("offset %s limit %s", orAll(args.Offset), orAll(args.Limit))
	}
	return &contextmgr.FileRead{Path: path, Range: rng, State: contextmgr.StateOf(time.Time{}, []byte(o.Result.Content))}
}

func orAll(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "-"
	}
	return string(raw)
}

// repairHistory enforces the tool-call invariant on the stored history
// (cases B25, B26) and logs every repair as a warning.
func (a *Agent) repairHistory(emit func(event.Event)) {
	fixed, log := contextmgr.Repair(a.history)
	if len(log) == 0 {
		return
	}
	a.history = fixed
	for _, l := range log {
		emit(event.Event{Type: event.Warning, Text: "history repaired: " + l})
	}
}

// compactWrites drops the payloads of applied writes and edits from the
// stored history (the files on disk hold them); failed ones stay.
func (a *Agent) compactWrites() {
	out, saved := contextmgr.CompactWrites(a.history)
	if saved > 0 {
		a.history = out
		a.mgr.Stats.Add(contextmgr.LeverWrites, saved)
	}
}

// prepareRequest runs everything due before a request: repair, write
// compaction, proactive compaction when the estimate passes 2/3 of the
// window. An error means the run cannot go on
// (the history cannot be brought under the window).
func (a *Agent) prepareRequest(ctx context.Context, emit func(event.Event)) (llm.Request, error) {
	a.repairHistory(emit)
	if !a.opts.DisableLevers {
		a.compactWrites()
	}
	if w := a.opts.ContextWindow; w > 0 {
		est := a.est.Tokens(a.historyRequestBytes(a.history))
		why := fmt.Sprintf("the estimated request (%d tokens) passes 2/3 of the %d-token window", est, w)
		if a.roomNeeded {
			why = fmt.Sprintf("continuing the cut reply would leave under %d tokens of the %d-token window", minReplyTokens, w)
		}
		if est > w*2/3 || a.roomNeeded {
			a.roomNeeded = false
			err := a.compact(ctx, emit, a.targetBytes(), why)
			if err != nil {
				if ctx.Err() != nil {
					return llm.Request{}, ctx.Err()
				}
				after := a.est.Tokens(a.historyRequestBytes(a.history))
				if after >= w {
					return llm.Request{}, fmt.Errorf("the conversation (~%d tokens) no longer fits the %d-token context window: %w; "+
						"send less (a smaller file or part of the piped input) or raise the model's window (llama.cpp -c, Ollama num_ctx)", after, w, err)
				}
				emit(event.Event{Type: event.Warning, Text: fmt.Sprintf("context is %d%% full and %v", after*100/w, err)})
			}
		}
	}
	return a.buildRequest(ctx, emit), nil
}

// buildRequest assembles the request from the current history. It takes
// the run's context and emitter so callers (compact.go) need not change
// when a step that reports is added here.
func (a *Agent) buildRequest(context.Context, func(event.Event)) llm.Request {
	req := llm.Request{
		Model:    a.opts.Model,
		System:   a.opts.System,
		Messages: a.history,
		Tools:    a.opts.Tools.Specs(a.opts.Visible),

		ResponseSchema:  a.responseSchema,
		ReasoningEffort: a.opts.ReasoningEffort,
	}
	if a.prompted {
		req = promptedRequest(req)
	}
	req.MaxTokens = a.outputBudget(req)
	return req
}

// messageOverhead approximates the bytes of role and framing per message.
const messageOverhead = 16

// fixedBytes is the part of every request that compaction cannot shrink:
// the system prompt and the offered tool schemas.
func (a *Agent) fixedBytes() int {
	return len(a.opts.System) + specBytes(a.opts.Tools.Specs(a.opts.Visible))
}

// specBytes approximates the request bytes of the tool schemas offered.
func specBytes(specs []llm.ToolSpec) int {
	n := 0
	for _, s := range specs {
		n += len(s.Name) + len(s.Description) + len(s.Parameters) + messageOverhead
	}
	return n
}

// historyRequestBytes estimates the bytes of a request carrying msgs.
func (a *Agent) historyRequestBytes(msgs []llm.Message) int {
	return a.fixedBytes() + contextmgr.HistoryBytes(msgs) + messageOverhead*len(msgs)
}

// requestBytes is historyRequestBytes for a built request.
func requestBytes(req llm.Request) int {
	return len(req.System) + specBytes(req.Tools) + contextmgr.HistoryBytes(req.Messages) + messageOverhead*len(req.Messages)
}

// calibrate teaches the estimator the server's bytes-per-token ratio from
// one usage report (InputTokens is the whole prompt, llm.Usage): the ratio
// follows the measurement (contextmgr.Estimator.Measure), so the next
// compaction decision and output budget count with it. The report's
// cached tokens go to the session's prompt-cache account (/context).
func (a *Agent) calibrate(req llm.Request, u llm.Usage) {
	if u.Estimated || u.InputTokens <= 0 {
		return
	}
	b := requestBytes(req)
	a.est.Measure(b, u.InputTokens)
	a.lastInput, a.lastBytes = u.InputTokens, b
	a.mgr.Stats.Cache.Add(u)
}

// targetBytes is the history size compaction aims for: half the window,
// less the fixed part of every request.
func (a *Agent) targetBytes() int {
	return max(a.est.Bytes(a.opts.ContextWindow/2)-a.fixedBytes(), contextmgr.SummaryReserve)
}
