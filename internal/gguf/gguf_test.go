package gguf

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
)

func sample() *File {
	f := &File{Version: Version}
	f.Set("general.architecture", String("llama"))
	f.Set("general.alignment", Uint32(32))
	f.Set("llama.block_count", Uint32(1))
	f.Set("llama.rope.freq_base", Float32(10000))
	f.Set("tokenizer.ggml.add_bos_token", Bool(true))
	f.Set("tokenizer.ggml.tokens", Strings([]string{"a", "Ġb", "<|im_start|>"}))
	f.Set("tokenizer.ggml.token_type", Int32s([]int32{1, 1, 3}))
	f.Set("scores", Float32s([]float32{0.5, -1}))
	f.Set("nested", Value{Type: TypeArray, Elem: TypeArray, V: []any{Strings([]string{"x"})}})
	f.Tensors = []Tensor{
		{Name: "a", Dims: []uint64{3}, Type: F32, Data: make([]byte, 12)},
		{Name: "b", Dims: []uint64{2, 2}, Type: F16, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}},
	}
	return f
}

func TestWriteThenReadKeepsEverything(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sample()) {
		t.Fatalf("round trip changed the file:\n%+v\n%+v", got, sample())
	}
	// The data section starts aligned and each tensor's data with it.
	if buf.Len()%32 != 0 {
		t.Fatalf("file length %d is not padded to the alignment", buf.Len())
	}
}

func TestWriteRefusesDataOfTheWrongSize(t *testing.T) {
	f := sample()
	f.Tensors[0].Data = f.Tensors[0].Data[:8]
	if err := Write(&bytes.Buffer{}, f); err == nil || !strings.Contains(err.Error(), "tensor a") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadExplainsBadInput(t *testing.T) {
	var good bytes.Buffer
	Write(&good, sample())
	huge := append([]byte(nil), good.Bytes()[:8]...)
	huge = binary.LittleEndian.AppendUint64(huge, 1<<40) // tensor count
	cases := map[string][]byte{
		"not a GGUF file":    []byte("GGML\x03\x00\x00\x00"),
		"unexpected EOF":     good.Bytes()[:good.Len()/2],
		"past this reader's": huge,
		"reading the header": nil,
		"version 9":          []byte("GGUF\x09\x00\x00\x00"),
	}
	for want, data := range cases {
		if _, err := Read(bytes.NewReader(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want it to say %q", data[:min(len(data), 12)], err, want)
		}
	}
}

func FuzzRead(f *testing.F) {
	var good bytes.Buffer
	Write(&good, sample())
	f.Add(good.Bytes())
	f.Add([]byte("GGUF\x03\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		// Whatever reads must write back and read the same.
		var out bytes.Buffer
		if err := Write(&out, file); err != nil {
			return // e.g. a misaligned offset the writer normalises
		}
		again, err := Read(&out)
		if err != nil {
			t.Fatalf("rewritten file does not read: %v", err)
		}
		if len(again.KV) != len(file.KV) || len(again.Tensors) != len(file.Tensors) {
			t.Fatal("rewrite lost entries")
		}
	})
}
