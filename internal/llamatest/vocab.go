package llamatest

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/zero-agent/zero/internal/gguf"
)

// Token ids of the Qwen2 vocabulary (llama.cpp's models/ggml-vocab-qwen2.gguf)
// that the model's wiring depends on.
const (
	tokEndOfText = 151643 // <|endoftext|>: the BOS the model's attention sinks on
	tokIMStart   = 151644 // <|im_start|>: one per chat message, counted
	tokIMEnd     = 151645 // <|im_end|>: ends every reply
	tokNewline   = 198    // "\n": the generation prompt's last token
	tokToolCall  = 151657 // <tool_call> in Qwen2.5's vocabulary
	tokToolEnd   = 151658 // </tool_call>
)

// Token types (llama.cpp's llama_token_type).
const (
	typeNormal      = 1
	typeControl     = 3
	typeUserDefined = 4
)

// Vocab is the tokenizer metadata of a GGUF vocabulary file plus an index
// from each token's byte-level text to its id.
type Vocab struct {
	meta   *gguf.File
	tokens []string
	types  []int32
	index  map[string]int32
	maxLen int // longest token, in byte-level runes
}

// LoadVocab reads a vocabulary-only GGUF (llama.cpp ships one per
// tokenizer under models/). Qwen2's file predates Qwen2.5's added tokens;
// the two tool-call markers are given their Qwen2.5 ids, as text tokens
// (Qwen2.5's tokenizer.json marks them "special": false), so the server
// sees the very tokens a Qwen2.5 model emits.
func LoadVocab(path string) (*Vocab, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	meta, err := gguf.ReadMetadata(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tv, ok1 := meta.Get("tokenizer.ggml.tokens")
	yv, ok2 := meta.Get("tokenizer.ggml.token_type")
	tokens, ok3 := tv.V.([]string)
	types, ok4 := yv.V.([]int32)
	if !ok1 || !ok2 || !ok3 || !ok4 || len(tokens) != len(types) || len(tokens) <= tokToolEnd {
		return nil, fmt.Errorf("%s: not a Qwen2-sized vocabulary", path)
	}
	if tokens[tokIMStart] != "<|im_start|>" || tokens[tokIMEnd] != "<|im_end|>" || tokens[tokNewline] != "Ċ" {
		return nil, errors.New(path + ": the chat tokens are not where Qwen2 keeps them")
	}
	tokens = append([]string(nil), tokens...)
	types = append([]int32(nil), types...)
	tokens[tokToolCall], types[tokToolCall] = "<tool_call>", typeUserDefined
	tokens[tokToolEnd], types[tokToolEnd] = "</tool_call>", typeUserDefined
	v := &Vocab{meta: meta, tokens: tokens, types: types, index: make(map[string]int32, len(tokens))}
	for id, s := range tokens {
		if types[id] != typeNormal && types[id] != typeUserDefined {
			continue
		}
		v.index[s] = int32(id)
		v.maxLen = max(v.maxLen, len([]rune(s)))
	}
	return v, nil
}

// Size is the number of tokens.
func (v *Vocab) Size() int { return len(v.tokens) }

// Text is token id's text as the model would print it.
func (v *Vocab) Text(id int32) string {
	s := v.tokens[id]
	if v.types[id] == typeUserDefined {
		return s
	}
	return fromByteLevel(s)
}

// segment splits text into tokens none of which is in used or reserved,
// marking the ones it takes as used. Any split will do: the server turns
// the tokens back into text, so a reply needs no canonical tokenization,
// only tokens that are each used once, since the model's next token is a
// function of the current one.
func (v *Vocab) segment(text string, used map[int32]bool) ([]int32, error) {
	units := v.units(text)
	budget := 200000
	var out []int32
	var walk func(at int) bool
	walk = func(at int) bool {
		if at == len(units) {
			return true
		}
		if budget--; budget < 0 {
			return false
		}
		for n := min(v.maxLen, len(units)-at); n >= 1; n-- {
			id, ok := v.index[strings.Join(units[at:at+n], "")]
			if !ok || used[id] || reserved(id) {
				continue
			}
			used[id] = true
			out = append(out, id)
			if walk(at + n) {
				return true
			}
			out = out[:len(out)-1]
			delete(used, id)
		}
		return false
	}
	if !walk(0) {
		return nil, fmt.Errorf("llamatest: %q cannot be written with tokens not used already; vary its wording", text)
	}
	return out, nil
}

// units splits text into the pieces token texts are made of: byte-level
// runes, except that the tool-call markers stay whole (they are tokens of
// their own and never parts of others).
func (v *Vocab) units(text string) []string {
	var units []string
	for text != "" {
		if m := markerPrefix(text); m != "" {
			units = append(units, m)
			text = text[len(m):]
			continue
		}
		units = append(units, string(byteRune[text[0]]))
		text = text[1:]
	}
	return units
}

func markerPrefix(s string) string {
	for _, m := range []string{"</tool_call>", "<tool_call>"} {
		if strings.HasPrefix(s, m) {
			return m
		}
	}
	return ""
}

// reserved tokens have fixed jobs in the wiring and are never in a reply.
func reserved(id int32) bool {
	switch id {
	case tokEndOfText, tokIMStart, tokIMEnd, tokNewline:
		return true
	}
	return false
}

// byteRune is GPT-2's byte-to-unicode table: printable bytes stand for
// themselves, the rest are shifted past U+00FF so that every token text is
// printable. Source: https://github.com/openai/gpt-2/blob/master/src/encoder.py
var byteRune, runeByte = byteTables()

func byteTables() ([256]rune, map[rune]byte) {
	var table [256]rune
	back := make(map[rune]byte, 256)
	n := rune(0)
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			table[b] = rune(b)
		} else {
			table[b] = 256 + n
			n++
		}
		back[table[b]] = byte(b)
	}
	return table, back
}

func fromByteLevel(s string) string {
	var b strings.Builder
	for _, r := range s {
		if c, ok := runeByte[r]; ok {
			b.WriteByte(c)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
