package contextmgr

import (
	"errors"
	"fmt"
)

// Result is one executed tool call as the per-turn levers see it.
type Result struct {
	CallID  string
	Content string
	IsError bool
	// Read identifies a file read for the read cache; nil for other tools
	// and for reads that failed.
	Read *FileRead
	// SideEffect is the tool's class as internal/tools names it ("read",
	// "write", "shell", "network"); Paths the files it reported touching.
	// Together they drive read-cache invalidation.
	SideEffect string
	Paths      []string
	// RawBytes is the size of the output before the tool itself cut it
	// (tools.Result.RawBytes); 0 or less than len(Content) means the tool
	// kept everything. Markers count the bytes it dropped as omitted.
	RawBytes int
	// FullOutput is a file the tool already wrote the whole output to
	// (tools.Result.FullOutput, at SpillPath), FullOutputBytes what it
	// holds: a cut result's marker names it instead of spilling Content,
	// and states the tool's limit when the file holds less than RawBytes.
	FullOutput      string
	FullOutputBytes int
}

// FileRead names one file read: path, the range as the tool renders it
// ("" for the whole file, "lines 10-60"), and the file's state.
type FileRead struct {
	Path, Range string
	State       FileState
}

// Manager applies the per-result levers (read cache, per-turn budget,
// shaping by kind with a per-result cap, spill) to each turn's results and
// counts what they saved. Fields may be set after construction; zero
// limits mean the defaults. Not safe for concurrent use.
type Manager struct {
	// SessionDir receives spilled outputs (see Spill); empty disables
	// spilling, and markers then only say how much was omitted.
	SessionDir string
	// MaxToolOutput and MaxTurnOutput are max_tool_output and
	// max_turn_output, in bytes; MaxToolOutput 0 lets the cap follow
	// WindowTokens (ResultCap).
	MaxToolOutput, MaxTurnOutput int
	// WindowTokens is the model's context window in tokens (0: unknown).
	WindowTokens int
	// Cache remembers reads; nil disables the read cache.
	Cache *ReadCache
	// Stats accumulates the bytes saved per lever this session.
	Stats Stats
}

// NewManager returns a Manager with default limits and a read cache.
func NewManager(sessionDir string) *Manager {
	return &Manager{SessionDir: sessionDir, Cache: NewReadCache()}
}

// ShapeTurn returns the content to send for each result of one turn, in
// call order: an unchanged re-read becomes a stub; then every result is
// held to its share of the turn budget (TurnCaps) by Shape, its full text
// spilled first so the marker can name it (the file a tool streamed its
// whole output to, Result.FullOutput, is named as it is). Invalidation follows call
// order: a write or shell call forgets the reads it may have changed
// before later results are looked up. A read_file result (Read set) is cut
// on line boundaries by CapRead instead: its marker names the omitted line
// range and the read_file call that fetches it, and nothing is spilled
// (the file itself holds the text). A spill failure does not stop the
// turn: that result's marker names no file and the error is returned
// (joined) alongside the contents.
func (m *Manager) ShapeTurn(turn int, results []Result) ([]string, error) {
	perResult := m.ResultCap()
	out := make([]string, len(results))
	sizes := make([]int, len(results))
	for i, r := range results {
		out[i] = r.Content
		if m.Cache != nil {
			if r.Read != nil && !r.IsError {
				if stub, hit := m.Cache.Lookup(r.Read.Path, r.Read.Range, r.Read.State, turn, len(r.Content)); hit {
					m.Stats.Add(LeverReadCache, len(r.Content)-len(stub))
					out[i] = stub
				}
			}
			m.Cache.Touched(r.SideEffect, r.Paths)
		}
		sizes[i] = len(out[i])
	}
	caps := TurnCaps(sizes, m.MaxTurnOutput, perResult)
	var errs []error
	for i, content := range out {
		if len(content) <= caps[i] {
			continue
		}
		if r := results[i]; r.Read != nil && !r.IsError {
			if kept, cut, ok := CapRead(content, caps[i], perResult, r.Read.Path); ok {
				if cut {
					m.addSaved(len(content)-len(kept), len(content), perResult)
				}
				out[i] = kept
				continue
			}
		}
		sp, err := m.spill(results[i], content)
		if err != nil {
			errs = append(errs, fmt.Errorf("result %s: %w", results[i].CallID, err))
		}
		kept, _, _ := shapeExtra(content, caps[i], sp, results[i].RawBytes-len(results[i].Content))
		m.addSaved(len(content)-len(kept), len(content), perResult)
		out[i] = kept
	}
	return out, errors.Join(errs...)
}

// spill keeps the full text of a result that is about to be cut: the
// file its tool streamed it to, or content written by Spill. Without a
// session directory nothing is kept.
func (m *Manager) spill(r Result, content string) (spill, error) {
	if r.FullOutput != "" {
		return spill{path: r.FullOutput, held: r.FullOutputBytes}, nil
	}
	if m.SessionDir == "" {
		return spill{}, nil
	}
	p, err := Spill(m.SessionDir, r.CallID, content)
	if err != nil {
		return spill{}, err
	}
	return spill{path: p}, nil
}

// ResultCap is the per-result cap ShapeTurn applies, in bytes:
// ToolOutputCap(WindowTokens, MaxToolOutput).
func (m *Manager) ResultCap() int { return ToolOutputCap(m.WindowTokens, m.MaxToolOutput) }

// addSaved books saved bytes of one result of size bytes: what the
// per-result cap alone would drop to the cap lever, the rest to the turn
// budget.
func (m *Manager) addSaved(saved, size, perResult int) {
	byCap := min(saved, max(0, size-perResult))
	if byCap > 0 {
		m.Stats.Add(LeverCap, byCap)
	}
	if saved > byCap {
		m.Stats.Add(LeverTurnBudget, saved-byCap)
	}
}
