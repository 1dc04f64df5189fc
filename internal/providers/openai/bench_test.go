package openai

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/llm/llmtest"
	"github.com/zero-agent/zero/internal/llm/sse"
)

const benchTokens = 100_000

// stream100k returns a 100k-chunk Chat Completions stream, one token per
// chunk, framed as api.openai.com frames it.
func stream100k() []byte {
	var b bytes.Buffer
	for i := range benchTokens {
		tok := []string{"func", " main", "()", " {", "\\n", "\\t", "return", " nil"}[i%8]
		b.WriteString(`data: {"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"content":"`)
		b.WriteString(tok)
		b.WriteString(`"},"finish_reason":null}]}` + "\n\n")
	}
	b.WriteString(`data: {"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n")
	b.WriteString(`data: {"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[],"usage":{"prompt_tokens":900,"completion_tokens":100000,"total_tokens":100900}}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// BenchmarkStream100kTokens consumes a 100k-token streamed reply through
// the SSE reader and the Chat Completions decoder into an Assembler
// (SPEC §11: well under a second). One op is the whole reply.
func BenchmarkStream100kTokens(b *testing.B) {
	raw := stream100k()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var a llm.Assembler
		d := newDecoder(&Options{}, "gpt-4.1", func(ev llm.Event) bool { a.Add(ev); return true })
		if err := d.run(sse.NewReader(bytes.NewReader(raw))); err != nil {
			b.Fatal(err)
		}
		if a.Usage == nil || a.Usage.OutputTokens != benchTokens {
			b.Fatalf("usage %+v", a.Usage)
		}
	}
}

// BenchmarkStream100kTokensHTTP is the same reply over HTTP from llmtest
// through Provider.Stream and its channel, each chunk flushed separately.
func BenchmarkStream100kTokensHTTP(b *testing.B) {
	srv := llmtest.NewServer(b)
	text := strings.Repeat("x", benchTokens)
	p, err := New(Options{BaseURL: srv.URL()})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		srv.Script(llmtest.Reply(llmtest.Text(text).Split(benchTokens), llmtest.Usage(900, benchTokens)))
		b.StartTimer()
		ch, err := p.Stream(context.Background(), llm.Request{Model: "m"})
		if err != nil {
			b.Fatal(err)
		}
		var a llm.Assembler
		for ev := range ch {
			a.Add(ev)
		}
		if a.Err != nil || len(a.Message().Text()) != benchTokens {
			b.Fatalf("err %v text %d bytes", a.Err, len(a.Message().Text()))
		}
	}
}
