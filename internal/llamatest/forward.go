package llamatest

import (
	"math"
)

// forward runs the layer over seq and returns the residual stream at the
// last position after attention (h1) and after the feed-forward block (h2).
// It is llama.cpp's llama graph (src/models/llama.cpp) for one layer with
// the rotation left out: the frequency factors make every RoPE angle zero.
// K and V are rounded to float16, as llama-server's default KV cache keeps
// them.
func (m *Model) forward(seq []int32) (h1, h2 []float64) {
	d := m.d
	last := len(seq) - 1
	x := make([]float64, d)
	keys := make([]float64, len(seq)) // k₀ per position: the only key dimension wired
	vals := make([]float64, len(seq)) // v at dimCount per position
	var q0 float64
	for p, id := range seq {
		m.embed(id, x)
		rmsNorm(x, 1)
		k, v := dot32(m.wk[0:d], x), dot32(m.wv[dimCount*d:(dimCount+1)*d], x)
		keys[p], vals[p] = roundF16(k), roundF16(v)
		if p == last {
			q0 = dot32(m.wq[0:d], x)
		}
	}
	// Softmax over the causal window; only the wired dimensions carry
	// anything, so o has one non-zero entry.
	scale := 1 / math.Sqrt(float64(d))
	top := math.Inf(-1)
	for p := range seq {
		top = max(top, q0*keys[p]*scale)
	}
	var sum, acc float64
	for p := range seq {
		w := math.Exp(q0*keys[p]*scale - top)
		sum += w
		acc += w * vals[p]
	}
	o := acc / sum
	h1 = make([]float64, d)
	m.embed(seq[last], h1)
	h1[dimCount] += float64(m.wo[dimCount*d+dimCount]) * o
	// Feed-forward: down · (silu(gate·x) ⊙ up·x), x the normed h1.
	xn := append([]float64(nil), h1...)
	rmsNorm(xn, 1)
	h2 = append([]float64(nil), h1...)
	for u := range m.nff {
		g := dot32(m.gate[u*d:(u+1)*d], xn)
		if g == 0 {
			continue
		}
		act := silu(g) * dot32(m.up[u*d:(u+1)*d], xn)
		for j := range d {
			if w := m.down[j*m.nff+u]; w != 0 {
				h2[j] += float64(w) * act
			}
		}
	}
	return h1, h2
}

// Next is the token the model picks after seq and its lead, in logits,
// over the runner-up (every unwired token scores 0).
func (m *Model) Next(seq []int32) (int32, float64) {
	_, h2 := m.forward(seq)
	rmsNorm(h2, float64(m.outGain))
	// Every unwired token has a zero embedding row, so logit 0: it stands
	// for all of them as id -1.
	best, bestLogit, second := int32(-1), 0.0, math.Inf(-1)
	for id, dim := range m.dimOf {
		logit := h2[dim] // the embedding row is one-hot at dim
		if logit > bestLogit {
			best, bestLogit, second = id, logit, bestLogit
		} else if logit > second {
			second = logit
		}
	}
	if best >= 0 {
		second = max(second, 0)
	}
	return best, bestLogit - second
}

func (m *Model) embed(id int32, x []float64) {
	row := m.embd[int(id)*m.d : (int(id)+1)*m.d]
	for i, v := range row {
		x[i] = float64(v)
	}
}

func rmsNorm(x []float64, gain float64) {
	var ss float64
	for _, v := range x {
		ss += v * v
	}
	r := 1 / math.Sqrt(ss/float64(len(x))+rmsEps)
	for i := range x {
		x[i] *= r * gain
	}
}

func dot32(w []float32, x []float64) float64 {
	var s float64
	for i, v := range w {
		if v != 0 {
			s += float64(v) * x[i]
		}
	}
	return s
}

func silu(x float64) float64 { return x / (1 + math.Exp(-x)) }

// roundF16 rounds to the nearest IEEE half-precision value.
func roundF16(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	_, exp := math.Frexp(x) // |x| = frac·2^exp, frac in [0.5, 1)
	// A half has 11 significant bits; subnormals below 2^-14 keep fewer.
	bits := 11
	if exp-1 < -14 {
		bits = max(0, 11-(-14-(exp-1)))
	}
	step := math.Ldexp(1, exp-bits)
	return math.RoundToEven(x/step) * step
}
