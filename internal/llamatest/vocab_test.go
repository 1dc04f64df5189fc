package llamatest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/gguf"
)

// testWords are the multi-byte tokens of the synthetic vocabulary, in
// GPT-2's byte-level spelling (Ġ is a space). They sit at made-up ids;
// the wiring only cares about the fixed ids of the chat tokens.
var testWords = []string{
	"{\"", "name", "\":\"", "read", "_file", "\",\"", "arguments", "\":{\"", "path",
	"\":", "notes", ".txt", "\"}}", "The", "Ġnotes", "Ġsay", "Ġhello", "All", "Ġdone",
	"user", "assistant", "Hello", "One", "Two", "Three", "Ġfour",
}

// syntheticVocab writes a Qwen2-shaped vocabulary: the same size and the
// same ids for the chat tokens as llama.cpp's ggml-vocab-qwen2.gguf, every
// byte as a token, and testWords. It goes through gguf.Write and LoadVocab
// as the real file does.
func syntheticVocab(t testing.TB) *Vocab {
	t.Helper()
	const size = 151936
	tokens := make([]string, size)
	types := make([]int32, size)
	for i := range tokens {
		tokens[i] = "[PAD" + itoa(i) + "]"
		types[i] = typeControl
	}
	// Bytes first, at GPT-2's order, with 198 landing on "\n" (Ċ).
	next := 0
	put := func(s string) {
		for next == tokNewline || (next >= tokEndOfText && next <= tokToolEnd) {
			next++
		}
		tokens[next], types[next] = s, typeNormal
		next++
	}
	for b := 0; b < 256; b++ {
		if b == '\n' {
			continue
		}
		put(string(byteRune[b]))
	}
	tokens[tokNewline], types[tokNewline] = string(byteRune['\n']), typeNormal
	for _, w := range testWords {
		put(w)
	}
	tokens[tokEndOfText], tokens[tokIMStart], tokens[tokIMEnd] = "<|endoftext|>", "<|im_start|>", "<|im_end|>"
	f := &gguf.File{Version: gguf.Version}
	f.Set("general.architecture", gguf.String("qwen2"))
	f.Set("tokenizer.ggml.model", gguf.String("gpt2"))
	f.Set("tokenizer.ggml.pre", gguf.String("qwen2"))
	f.Set("tokenizer.ggml.tokens", gguf.Strings(tokens))
	f.Set("tokenizer.ggml.token_type", gguf.Int32s(types))
	f.Set("tokenizer.ggml.merges", gguf.Strings([]string{"Ġ Ġ"}))
	var buf bytes.Buffer
	if err := gguf.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "vocab.gguf")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := LoadVocab(path)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}

func TestSegmentUsesEachTokenOnce(t *testing.T) {
	v := syntheticVocab(t)
	used := map[int32]bool{}
	call := `<tool_call>{"name":"read_file","arguments":{"path":"notes.txt"}}</tool_call>`
	ids, err := v.segment(call, used)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	seen := map[int32]bool{}
	for _, id := range ids {
		if seen[id] || reserved(id) {
			t.Fatalf("token %d twice or reserved in %v", id, ids)
		}
		seen[id] = true
		text.WriteString(v.Text(id))
	}
	if text.String() != call {
		t.Fatalf("tokens spell %q", text.String())
	}
	if ids[0] != tokToolCall || ids[len(ids)-1] != tokToolEnd {
		t.Fatalf("the markers are not Qwen2.5's tokens: %v", ids)
	}
	// The same call again has no unused tokens left for its quotes.
	if _, err := v.segment(call, used); err == nil || !strings.Contains(err.Error(), "vary its wording") {
		t.Fatalf("a second identical call: %v", err)
	}
}

func TestSegmentRefusesABareNewline(t *testing.T) {
	// "\n" is the token the model decides on; a reply cannot contain it
	// on its own.
	v := syntheticVocab(t)
	if _, err := v.segment("a\nb", map[int32]bool{}); err == nil {
		t.Fatal("a bare newline was accepted")
	}
}

func TestVocabRejectsOtherTokenizers(t *testing.T) {
	f := &gguf.File{Version: gguf.Version}
	f.Set("tokenizer.ggml.tokens", gguf.Strings([]string{"a", "b"}))
	f.Set("tokenizer.ggml.token_type", gguf.Int32s([]int32{1, 1}))
	var buf bytes.Buffer
	if err := gguf.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "small.gguf")
	os.WriteFile(path, buf.Bytes(), 0o644)
	if _, err := LoadVocab(path); err == nil {
		t.Fatal("a two-token vocabulary loaded")
	}
}
