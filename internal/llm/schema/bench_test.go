package schema

import (
	"fmt"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
)

// BenchmarkPrepareTools measures the per-request cost of cleaning a
// 40-tool list (the case B31 schema under 40 names) for Gemini, the
// dialect with the most rewrites.
func BenchmarkPrepareTools(b *testing.B) {
	base := b31Tools(b)[0]
	var tools []llm.ToolSpec
	for i := 0; i < 40; i++ {
		t := base
		t.Name = fmt.Sprintf("server%d.%s", i, base.Name)
		tools = append(tools, t)
	}
	b.ReportAllocs()
	for b.Loop() {
		PrepareTools(Gemini, tools)
	}
}
