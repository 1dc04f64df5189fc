package llamatest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/zero-agent/zero/internal/gguf"
)

// Reply is what the model answers once the prompt holds Messages chat
// messages (<|im_start|> markers, the generation prompt's own included):
// a one-prompt exec is 3 (system, user, assistant), each tool round adds 2
// (the assistant's call, the results). A reply holds from its count up to
// the next reply's; the first also covers fewer messages, the last more.
type Reply struct {
	Messages int
	Text     string
}

// Spec describes a model to write.
type Spec struct {
	Vocab         *Vocab
	Template      string // tokenizer.chat_template
	Replies       []Reply
	ContextLength int    // llama.context_length; 32768 when 0
	Name          string // general.name; "zero-test" when empty
}

// Dimension roles; reply tokens take the dimensions from dimTokens on.
const (
	dimSink = iota
	dimMarker
	dimDecide
	dimCount
	dimEnd
	dimTokens
)

// Wiring constants: attention scores (the BOS outweighs a marker by e²),
// the feed-forward gate and the chain's pre-norm strength.
const (
	scoreMarker = 40.0
	scoreSink   = 42.0
	gateScale   = 1.0
	chainValue  = 100.0
	rmsEps      = 1e-6
	wantMargin  = 40.0 // logits between the chosen token and the next best
)

// Model is a built test model: its weights and the reply chains.
type Model struct {
	spec    Spec
	d, nff  int
	dimOf   map[int32]int // token → its one-hot dimension
	chains  [][]int32     // per reply, its tokens
	embd    []float32     // [vocab][d]
	wq, wk  []float32     // [d][d], row = output dimension
	wv, wo  []float32
	gate    []float32 // [nff][d]
	up      []float32 // [nff][d]
	down    []float32 // [d][nff]
	outGain float32
}

// Build wires a model for spec. It fails when a reply cannot be spelled
// with unused tokens or when two message counts cannot be told apart by a
// safe margin.
func Build(spec Spec) (*Model, error) {
	if spec.Vocab == nil || len(spec.Replies) == 0 {
		return nil, errors.New("llamatest: a model needs a vocabulary and at least one reply")
	}
	replies := slices.Clone(spec.Replies)
	slices.SortFunc(replies, func(a, b Reply) int { return a.Messages - b.Messages })
	for i := 1; i < len(replies); i++ {
		if replies[i].Messages == replies[i-1].Messages {
			return nil, fmt.Errorf("llamatest: two replies at %d messages", replies[i].Messages)
		}
	}
	spec.Replies = replies
	m := &Model{spec: spec, dimOf: map[int32]int{
		tokEndOfText: dimSink, tokIMStart: dimMarker, tokNewline: dimDecide, tokIMEnd: dimEnd,
	}}
	used := map[int32]bool{}
	for _, r := range replies {
		chain, err := spec.Vocab.segment(r.Text, used)
		if err != nil {
			return nil, err
		}
		if len(chain) == 0 {
			return nil, errors.New("llamatest: an empty reply")
		}
		for _, id := range chain {
			m.dimOf[id] = dimTokens + len(m.dimOf) - 4 // four tokens are wired before the replies'
		}
		m.chains = append(m.chains, chain)
	}
	units := len(used) + len(replies)
	m.d = max(64, roundUp(dimTokens+len(used), 32))
	m.nff = roundUp(units, 32)
	m.alloc()
	m.wireAttention()
	m.wireChains()
	if err := m.wireReplies(); err != nil {
		return nil, err
	}
	return m, m.calibrate()
}

func roundUp(n, k int) int { return (n + k - 1) / k * k }

func (m *Model) alloc() {
	d := m.d
	m.embd = make([]float32, m.spec.Vocab.Size()*d)
	for id, dim := range m.dimOf {
		m.embd[int(id)*d+dim] = 1
	}
	m.wq, m.wk, m.wv, m.wo = make([]float32, d*d), make([]float32, d*d), make([]float32, d*d), make([]float32, d*d)
	m.gate, m.up, m.down = make([]float32, m.nff*d), make([]float32, m.nff*d), make([]float32, d*m.nff)
	m.outGain = 1
}

func (m *Model) wireAttention() {
	d, root := m.d, math.Sqrt(float64(m.d))
	// q·k/√d: q₀ ≈ √d at "\n"; k₀ ≈ √d·κ at the sink and the markers.
	m.wq[0*d+dimDecide] = 1
	m.wk[0*d+dimSink] = float32(scoreSink / root)
	m.wk[0*d+dimMarker] = float32(scoreMarker / root)
	m.wv[dimCount*d+dimMarker] = float32(1 / root)
	m.wo[dimCount*d+dimCount] = 1
}

// wireChains makes each reply token's unit write its successor.
func (m *Model) wireChains() {
	d, unit := m.d, 0
	strength := float32(chainValue / (gateScale * float64(d)))
	for _, chain := range m.chains {
		for i, id := range chain {
			next := int32(tokIMEnd)
			if i+1 < len(chain) {
				next = chain[i+1]
			}
			from := m.dimOf[id]
			m.gate[unit*d+from] = gateScale
			m.up[unit*d+from] = 1
			m.down[m.dimOf[next]*m.nff+unit] = strength
			unit++
		}
	}
}

// wireReplies gives reply i the line a_i + s_i·f at "\n", where f is the
// attention's count value: increasing slopes, each pair crossing halfway
// between the last count of one reply and the first of the next, so each
// reply wins exactly its counts (the upper envelope of the lines).
func (m *Model) wireReplies() error {
	d := m.d
	unit := 0 // the reply units come after the chains'
	for _, c := range m.chains {
		unit += len(c)
	}
	a, s := 1.0, 0.0
	for i := range m.spec.Replies {
		if i > 0 {
			lo, hi := m.countValue(m.spec.Replies[i].Messages-1), m.countValue(m.spec.Replies[i].Messages)
			gap := hi - lo
			if gap < 2e-3 {
				return fmt.Errorf("llamatest: %d and %d messages read too alike to tell apart (%.4f)", m.spec.Replies[i].Messages-1, m.spec.Replies[i].Messages, gap)
			}
			delta := 2 / gap
			cross := (lo + hi) / 2
			a -= delta * cross
			s += delta
		}
		u := unit + i
		m.gate[u*d+dimDecide] = gateScale
		m.up[u*d+dimDecide] = float32(a)
		m.up[u*d+dimCount] = float32(s)
		m.down[m.dimOf[m.chains[i][0]]*m.nff+u] = 1
	}
	return nil
}

// countValue is the attention's count value at "\n" after k messages.
func (m *Model) countValue(k int) float64 {
	seq := []int32{tokEndOfText}
	for range k {
		seq = append(seq, tokIMStart, 872, tokNewline) // 872: "user"
	}
	h1, _ := m.forward(seq)
	return h1[dimCount]
}

// calibrate sets the output norm's gain so that every decision and chain
// step wins by wantMargin logits, and checks that it does.
func (m *Model) calibrate() error {
	worst := math.Inf(1)
	for k := 1; k <= m.spec.Replies[len(m.spec.Replies)-1].Messages+8; k++ {
		_, margin := m.decide(k)
		worst = min(worst, margin)
	}
	for _, chain := range m.chains {
		for _, id := range chain {
			_, margin := m.Next([]int32{tokEndOfText, id})
			worst = min(worst, margin)
		}
	}
	if worst <= 0 {
		return errors.New("llamatest: the wiring does not pick the scripted token")
	}
	m.outGain = float32(wantMargin / worst * 1.25)
	return nil
}

func (m *Model) decide(k int) (int32, float64) {
	seq := []int32{tokEndOfText}
	for i := range k {
		seq = append(seq, tokIMStart, 77091, tokNewline) // 77091: "assistant"
		if i < k-1 {
			seq = append(seq, 9707, tokIMEnd, tokNewline) // 9707: "Hello"
		}
	}
	return m.Next(seq)
}

// ReplyFor is the reply the model gives after k messages.
func (m *Model) ReplyFor(k int) string {
	id, _ := m.decide(k)
	for i, c := range m.chains {
		if c[0] == id {
			return m.spec.Replies[i].Text
		}
	}
	return ""
}

// Generate continues prompt greedily, as the server would at temperature
// 0, until <|im_end|> or max tokens, and returns the text.
func (m *Model) Generate(prompt []int32, maxTokens int) string {
	seq := slices.Clone(prompt)
	var out bytes.Buffer
	for range maxTokens {
		id, _ := m.Next(seq)
		if id == tokIMEnd {
			break
		}
		out.WriteString(m.spec.Vocab.Text(id))
		seq = append(seq, id)
	}
	return out.String()
}

// WriteFile writes the model as GGUF.
func (m *Model) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := gguf.Write(&buf, m.File()); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func f32bytes(x []float32) []byte {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}
