package llamatest

import (
	"github.com/zero-agent/zero/internal/gguf"
)

// File is the model as GGUF: llama architecture, one layer, one head,
// float32 tensors, the vocabulary's tokenizer metadata and spec's template.
// Keys: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
func (m *Model) File() *gguf.File {
	name := m.spec.Name
	if name == "" {
		name = "zero-test"
	}
	ctx := m.spec.ContextLength
	if ctx == 0 {
		ctx = 32768
	}
	f := &gguf.File{Version: gguf.Version}
	f.Set("general.architecture", gguf.String("llama"))
	f.Set("general.name", gguf.String(name))
	f.Set("general.file_type", gguf.Uint32(0)) // all float32
	f.Set("general.alignment", gguf.Uint32(32))
	f.Set("llama.context_length", gguf.Uint32(uint32(ctx)))
	f.Set("llama.embedding_length", gguf.Uint32(uint32(m.d)))
	f.Set("llama.block_count", gguf.Uint32(1))
	f.Set("llama.feed_forward_length", gguf.Uint32(uint32(m.nff)))
	f.Set("llama.attention.head_count", gguf.Uint32(1))
	f.Set("llama.attention.head_count_kv", gguf.Uint32(1))
	f.Set("llama.rope.freq_base", gguf.Float32(10000))
	f.Set("llama.attention.layer_norm_rms_epsilon", gguf.Float32(rmsEps))
	for _, kv := range m.spec.Vocab.meta.KV {
		if len(kv.Key) > 10 && kv.Key[:10] == "tokenizer." {
			f.Set(kv.Key, kv.Value)
		}
	}
	f.Set("tokenizer.ggml.tokens", gguf.Strings(m.spec.Vocab.tokens))
	f.Set("tokenizer.ggml.token_type", gguf.Int32s(m.spec.Vocab.types))
	f.Set("tokenizer.ggml.bos_token_id", gguf.Uint32(tokEndOfText))
	f.Set("tokenizer.ggml.eos_token_id", gguf.Uint32(tokIMEnd))
	f.Set("tokenizer.ggml.add_bos_token", gguf.Bool(true))
	f.Set("tokenizer.ggml.add_eos_token", gguf.Bool(false))
	if m.spec.Template != "" {
		f.Set("tokenizer.chat_template", gguf.String(m.spec.Template))
	}

	d, nff := uint64(m.d), uint64(m.nff)
	ones := make([]float32, m.d)
	for i := range ones {
		ones[i] = 1
	}
	gain := make([]float32, m.d)
	for i := range gain {
		gain[i] = m.outGain
	}
	// Frequency factors divide every RoPE frequency: 1e30 leaves each
	// angle zero at any position a context can hold.
	noRotation := make([]float32, m.d/2)
	for i := range noRotation {
		noRotation[i] = 1e30
	}
	t := func(name string, data []float32, dims ...uint64) gguf.Tensor {
		return gguf.Tensor{Name: name, Dims: dims, Type: gguf.F32, Data: f32bytes(data)}
	}
	f.Tensors = []gguf.Tensor{
		t("token_embd.weight", m.embd, d, uint64(m.spec.Vocab.Size())),
		t("output_norm.weight", gain, d),
		t("rope_freqs.weight", noRotation, d/2),
		t("blk.0.attn_norm.weight", ones, d),
		t("blk.0.attn_q.weight", m.wq, d, d),
		t("blk.0.attn_k.weight", m.wk, d, d),
		t("blk.0.attn_v.weight", m.wv, d, d),
		t("blk.0.attn_output.weight", m.wo, d, d),
		t("blk.0.ffn_norm.weight", ones, d),
		t("blk.0.ffn_gate.weight", m.gate, d, nff),
		t("blk.0.ffn_up.weight", m.up, d, nff),
		t("blk.0.ffn_down.weight", m.down, nff, d),
	}
	return f
}
