package loops

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Tick kinds: the harness's decisions, one ticks.jsonl row each.
const (
	KindArm   = "arm"
	KindWake  = "wake"
	KindPause = "pause"
	KindStop  = "stop"
)

// Tick is one row of ticks.jsonl, written by the harness only.
type Tick struct {
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`
	// Wake is the wake's number (1 is the first), on wake rows.
	Wake int `json:"wake,omitempty"`
	// GatesHash is what an arm row locked (Config.GatesHash).
	GatesHash string `json:"gatesHash,omitempty"`
	// Session is the wake's session id (zero exec --resume=ID reopens it).
	Session string `json:"session,omitempty"`
	// Outcome is how the wake's run ended (completed, max_turns, error…).
	Outcome      string       `json:"outcome,omitempty"`
	Error        string       `json:"error,omitempty"`
	ElapsedMs    int64        `json:"elapsedMs,omitempty"`
	InputTokens  int          `json:"inputTokens,omitempty"`
	OutputTokens int          `json:"outputTokens,omitempty"`
	Gates        []GateResult `json:"gates,omitempty"`
	// Contract is what the wake broke ("" when it kept the contract).
	Contract string `json:"contract,omitempty"`
	// Reason says why a pause or stop happened.
	Reason string `json:"reason,omitempty"`
}

// Ledger is what ticks.jsonl adds up to.
type Ledger struct {
	Wakes  int
	Tokens int
	// ArmedHash is the gates hash of the latest arm row ("": never armed).
	ArmedHash string
	// Last is the latest row (zero Kind: none).
	Last Tick
	// LastGates are the latest wake's gate results.
	LastGates []GateResult
}

// ParseTicks reads ticks.jsonl. A line that is not a tick is an error
// naming its line: the ledger is the harness's and is never guessed at.
func ParseTicks(data []byte) ([]Tick, error) {
	var ticks []Tick
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var t Tick
		if err := json.Unmarshal(line, &t); err != nil {
			return nil, fmt.Errorf("ticks.jsonl line %d: %v", n, err)
		}
		if t.Kind == "" {
			return nil, fmt.Errorf("ticks.jsonl line %d: no kind", n)
		}
		ticks = append(ticks, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ticks.jsonl: %w", err)
	}
	return ticks, nil
}

// Sum adds the ticks up.
func Sum(ticks []Tick) Ledger {
	var l Ledger
	for _, t := range ticks {
		switch t.Kind {
		case KindArm:
			l.ArmedHash = t.GatesHash
		case KindWake:
			l.Wakes++
			l.Tokens += t.InputTokens + t.OutputTokens
			l.LastGates = t.Gates
		}
		l.Last = t
	}
	return l
}

// Status is the ledger in a few words: new, armed, ran, paused: …,
// stopped: ….
func (l Ledger) Status() string {
	switch {
	case l.ArmedHash == "":
		return "new (not armed)"
	case l.Last.Kind == KindPause:
		return "paused: " + l.Last.Reason
	case l.Last.Kind == KindStop:
		return "stopped: " + l.Last.Reason
	case l.Last.Kind == KindWake:
		return "ran"
	}
	return "armed"
}
