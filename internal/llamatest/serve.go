package llamatest

import (
	"path/filepath"
	"sync"
	"testing"
)

// Template is the chat template Serve's models carry: Qwen2.5-Instruct's,
// from llama.cpp's models/templates.
const Template = "Qwen-Qwen2.5-7B-Instruct"

// ModelName is the name Serve's server lists its model under (--alias).
const ModelName = "qwen2.5-zero-test"

type kit struct {
	bin      string
	vocab    *Vocab
	template string
}

var loadKit = sync.OnceValues(func() (*kit, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	files := FilesFor(bin)
	vocab, err := LoadVocab(files.Vocab())
	if err != nil {
		return nil, err
	}
	tmpl, err := files.Template(Template)
	if err != nil {
		return nil, err
	}
	return &kit{bin: bin, vocab: vocab, template: tmpl}, nil
})

// Serve writes a model that answers replies (over Qwen2's vocabulary and
// Qwen2.5's template) and starts llama-server with it, for the test.
func Serve(t testing.TB, o Options, replies ...Reply) *Server {
	t.Helper()
	k, err := loadKit()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(Spec{Vocab: k.vocab, Template: k.template, Replies: replies, Name: ModelName})
	if err != nil {
		t.Fatal(err)
	}
	o.Model = filepath.Join(t.TempDir(), "model.gguf")
	if err := m.WriteFile(o.Model); err != nil {
		t.Fatal(err)
	}
	if o.Alias == "" {
		o.Alias = ModelName
	}
	return Start(t, k.bin, o)
}
