package llamatest

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/zero-agent/zero/internal/gguf"
)

var toolRound = []Reply{
	{Messages: 3, Text: `<tool_call>{"name":"read_file","arguments":{"path":"notes.txt"}}</tool_call>`},
	{Messages: 5, Text: "The notes say hello."},
	{Messages: 7, Text: "All done!"},
}

// chat builds a prompt as llama-server tokenizes a rendered chat: the
// BOS, then per message <|im_start|>, role, "\n", content, <|im_end|>,
// "\n"; the last message is the open generation prompt. Content is drawn
// from the whole vocabulary, reply tokens included, since a history
// repeats what the model said.
func chat(r *rand.Rand, v *Vocab, messages, contentLen int) []int32 {
	seq := []int32{tokEndOfText}
	for i := range messages {
		seq = append(seq, tokIMStart, int32(r.IntN(v.Size()-300)), tokNewline)
		if i == messages-1 {
			break
		}
		for range contentLen {
			id := int32(r.IntN(tokEndOfText))
			if id == tokIMStart {
				continue
			}
			seq = append(seq, id)
		}
		seq = append(seq, tokIMEnd, tokNewline)
	}
	return seq
}

func TestRepliesFollowTheMessageCount(t *testing.T) {
	v := syntheticVocab(t)
	m, err := Build(Spec{Vocab: v, Replies: toolRound})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	want := map[int]string{1: toolRound[0].Text, 3: toolRound[0].Text, 4: toolRound[0].Text,
		5: toolRound[1].Text, 6: toolRound[1].Text, 7: toolRound[2].Text, 12: toolRound[2].Text}
	for k, text := range want {
		for _, n := range []int{0, 5, 400} {
			if got := m.Generate(chat(r, v, k, n), 200); got != text {
				t.Errorf("%d messages of %d tokens: %q, want %q", k, n, got, text)
			}
		}
	}
}

func TestEveryStepWinsByTheMargin(t *testing.T) {
	v := syntheticVocab(t)
	m, err := Build(Spec{Vocab: v, Replies: toolRound})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for k := 1; k <= 15; k++ {
		prompt := chat(r, v, k, 50)
		for range 40 {
			id, margin := m.Next(prompt)
			if margin < wantMargin {
				t.Fatalf("%d messages, step %d: token %d leads by %.1f logits", k, len(prompt), id, margin)
			}
			if id == tokIMEnd {
				break
			}
			prompt = append(prompt, id)
		}
	}
}

func TestTenRepliesOneMessagePairApart(t *testing.T) {
	// A ten-request session: each prompt adds a user message and the
	// previous answer, so the counts are 3, 5, …, 21.
	v := syntheticVocab(t)
	words := []string{"One", "Two", "Three", "Ġfour", "Hello", "All", "The", "name", "read", "path"}
	var replies []Reply
	for i, w := range words {
		replies = append(replies, Reply{Messages: 3 + 2*i, Text: fromByteLevel(w)})
	}
	m, err := Build(Spec{Vocab: v, Replies: replies})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i, rep := range replies {
		if got := m.Generate(chat(r, v, rep.Messages, 30), 10); got != rep.Text {
			t.Errorf("request %d: %q, want %q", i+1, got, rep.Text)
		}
	}
}

func TestModelFileIsALlamaGGUF(t *testing.T) {
	v := syntheticVocab(t)
	m, err := Build(Spec{Vocab: v, Replies: toolRound, Template: "{{ messages }}", ContextLength: 8192})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gguf.Write(&buf, m.File()); err != nil {
		t.Fatal(err)
	}
	f, err := gguf.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]any{
		"general.architecture": "llama", "llama.block_count": uint32(1),
		"llama.context_length": uint32(8192), "llama.embedding_length": uint32(m.d),
		"tokenizer.chat_template": "{{ messages }}", "tokenizer.ggml.add_bos_token": true,
		"tokenizer.ggml.eos_token_id": uint32(tokIMEnd),
	}
	for k, want := range checks {
		got, ok := f.Get(k)
		if !ok || got.V != want {
			t.Errorf("%s = %v, want %v", k, got.V, want)
		}
	}
	names := map[string]bool{}
	for _, ts := range f.Tensors {
		names[ts.Name] = true
	}
	for _, n := range []string{"token_embd.weight", "output_norm.weight", "rope_freqs.weight",
		"blk.0.attn_q.weight", "blk.0.ffn_down.weight"} {
		if !names[n] {
			t.Errorf("no tensor %s", n)
		}
	}
	if names["output.weight"] {
		t.Error("the output matrix must be the tied embedding")
	}
}

func TestRepliesAtTheSameCountAreRefused(t *testing.T) {
	v := syntheticVocab(t)
	if _, err := Build(Spec{Vocab: v, Replies: []Reply{{3, "One"}, {3, "Two"}}}); err == nil {
		t.Fatal("two replies at 3 messages were accepted")
	}
}
