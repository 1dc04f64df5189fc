package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/llm"
)

// seqPrefix is how every record of the neutral case logs begins.
var seqPrefix = []byte(`{"seq":`)

// b27Expected mirrors testdata/B27/expected.json.
type b27Expected struct {
	LoadedSeqs           []int  `json:"loaded_seqs"`
	SkippedLines         []int  `json:"skipped_lines"`
	SkippedPhysicalLines []int  `json:"skipped_physical_lines"`
	RecoveredFromGlued   []int  `json:"recovered_from_glued_line"`
	Warning              string `json:"warning"`
	Dropped              string `json:"dropped"`
	Synthesized          string `json:"synthesized"`
	FileAfterRepair      string `json:"file_after_repair"`
}

func loadB27(t *testing.T) map[string]b27Expected {
	t.Helper()
	data, err := os.ReadFile("testdata/B27/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]b27Expected
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp) != 4 {
		t.Fatalf("expected.json has %d files, want 4", len(exp))
	}
	return exp
}

// neutral is the case logs' record shape.
type neutral struct {
	Seq        int    `json:"seq"`
	Type       string `json:"type"`
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id"`
	ToolCalls  []struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"tool_calls"`
}

func decodeNeutral(t *testing.T, r Record) neutral {
	t.Helper()
	var n neutral
	if err := json.Unmarshal(r.Raw, &n); err != nil {
		t.Fatalf("line %d: record does not decode: %v", r.Line, err)
	}
	return n
}

// neutralMessages maps the case records onto the llm vocabulary, the way
// a resumed session holds them.
func neutralMessages(t *testing.T, recs []Record) []llm.Message {
	var out []llm.Message
	for _, r := range recs {
		n := decodeNeutral(t, r)
		switch n.Type {
		case "user":
			out = append(out, llm.TextMessage(llm.RoleUser, n.Content))
		case "assistant":
			m := llm.Message{Role: llm.RoleAssistant}
			for _, c := range n.ToolCalls {
				m.Parts = append(m.Parts, llm.Part{Type: llm.PartToolCall, ToolCall: &llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: string(c.Arguments)}})
			}
			out = append(out, m)
		case "tool_result":
			out = append(out, llm.Message{Role: llm.RoleTool, Parts: []llm.Part{{Type: llm.PartToolResult, ToolResult: &llm.ToolResult{CallID: n.ToolCallID, Content: n.Content}}}})
		default:
			t.Fatalf("line %d: unknown type %q", r.Line, n.Type)
		}
	}
	return out
}

func linesOf(ws []Warning, k WarningKind) []int {
	var out []int
	for _, w := range ws {
		if w.Kind == k {
			out = append(out, w.Line)
		}
	}
	return out
}

// TestReadRecordsSkipsMalformedLinesAndNeverResumesBlank: malformed and
// glued lines are skipped (or recovered) and counted, a truncated last
// line is dropped, the streaming reader agrees with the byte reader, and
// resume never shows a blank conversation; a call left without a result
// gets an interrupted one.
// Case B27 (testdata/B27; anthropics/claude-code#53821, anthropics/claude-code#50347).
func TestReadRecordsSkipsMalformedLinesAndNeverResumesBlank(t *testing.T) {
	for name, exp := range loadB27(t) {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/B27", name))
			if err != nil {
				t.Fatal(err)
			}
			recs, ws := ReadRecords(data, seqPrefix)

			var loaded, recovered []int
			for _, r := range recs {
				if r.Recovered {
					recovered = append(recovered, decodeNeutral(t, r).Seq)
				} else {
					loaded = append(loaded, decodeNeutral(t, r).Seq)
				}
			}
			if !slices.Equal(loaded, exp.LoadedSeqs) {
				t.Errorf("loaded seqs = %v, want %v", loaded, exp.LoadedSeqs)
			}
			if !slices.Equal(recovered, exp.RecoveredFromGlued) {
				t.Errorf("recovered seqs = %v, want %v", recovered, exp.RecoveredFromGlued)
			}
			wantSkipped := exp.SkippedLines
			if exp.SkippedPhysicalLines != nil {
				wantSkipped = exp.SkippedPhysicalLines
			}
			if got := linesOf(ws, WarnUnreadable); !slices.Equal(got, wantSkipped) {
				t.Errorf("skipped lines = %v, want %v (warnings %v)", got, wantSkipped, ws)
			}
			summary := Summarize(ws)
			if exp.Warning != "" && !slices.Contains(summary, exp.Warning) {
				t.Errorf("summary %q lacks %q", summary, exp.Warning)
			}
			if exp.Dropped != "" {
				if !slices.Contains(summary, exp.Dropped+" dropped") {
					t.Errorf("summary %q lacks %q", summary, exp.Dropped+" dropped")
				}
			} else if got := linesOf(ws, WarnTruncatedTail); got != nil {
				t.Errorf("unexpected truncated tail at lines %v", got)
			}

			// The streaming reader agrees with the byte reader.
			lr := NewLineReader(bytes.NewReader(data), seqPrefix)
			var srecs []Record
			for {
				r, err := lr.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				srecs = append(srecs, r)
			}
			if !sameRecords(recs, srecs) || !slices.Equal(ws, lr.Warnings()) {
				t.Errorf("LineReader differs:\n%v %v\n%v %v", recs, ws, srecs, lr.Warnings())
			}

			// Resume never shows a blank conversation, and a call left
			// without a result gets an interrupted one.
			hist, hw := RepairToolPairs(neutralMessages(t, recs))
			if len(hist) == 0 {
				t.Fatal("blank resume")
			}
			var synth []string
			for _, w := range hw {
				if w.Kind == WarnSynthesized {
					synth = append(synth, w.String())
				}
			}
			if exp.Synthesized != "" {
				if !slices.Equal(synth, []string{exp.Synthesized}) {
					t.Errorf("synthesized %q, want %q", synth, exp.Synthesized)
				}
				last := hist[len(hist)-1]
				tr := last.Parts[0].ToolResult
				if last.Role != llm.RoleTool || tr == nil || tr.CallID != "call_2" || tr.Content != InterruptedResult || !tr.IsError {
					t.Errorf("last message = %+v, want interrupted result for call_2", last)
				}
			}
		})
	}
}

// TestRepairTailSavesATornTailAsideBeforeTheNextAppend checks the writer
// side: a torn tail is moved aside and cut back to the last full line
// before the next append.
// Case B27 (testdata/B27; PrimeIntellect-ai/prime-agent PR#1785).
func TestRepairTailSavesATornTailAsideBeforeTheNextAppend(t *testing.T) {
	exp := loadB27(t)
	for name, e := range exp {
		t.Run(name, func(t *testing.T) {
			orig, err := os.ReadFile(filepath.Join("testdata/B27", name))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "session.jsonl")
			if err := os.WriteFile(path, orig, 0o600); err != nil {
				t.Fatal(err)
			}
			ws, err := RepairTail(path, time.Date(2026, 11, 30, 5, 12, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(path)
			aside, _ := filepath.Glob(path + ".corrupt-*")
			if e.FileAfterRepair == "" {
				if !bytes.Equal(after, orig) || ws != nil || aside != nil {
					t.Fatalf("intact-tailed log was changed: %v %v", ws, aside)
				}
				return
			}
			// Truncated to the end of the seq 4 line; the fragment saved.
			cut := bytes.Index(orig, []byte(`{"seq":5`))
			if !bytes.Equal(after, orig[:cut]) {
				t.Errorf("after repair:\n%q\nwant\n%q", after, orig[:cut])
			}
			if len(aside) != 1 || !strings.HasPrefix(filepath.Base(aside[0]), "session.jsonl.corrupt-") {
				t.Fatalf("fragment files = %v", aside)
			}
			frag, _ := os.ReadFile(aside[0])
			if !bytes.Equal(frag, orig[cut:]) {
				t.Errorf("saved fragment %q, want %q", frag, orig[cut:])
			}
			if len(ws) != 1 || ws[0].Kind != WarnTruncatedTail || ws[0].Line != 5 {
				t.Errorf("repair warnings = %v", ws)
			}
			// The next record starts on a fresh line.
			f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			f.WriteString(`{"seq":6,"type":"user","content":"continue"}` + "\n")
			f.Close()
			data, _ := os.ReadFile(path)
			recs, rws := ReadRecords(data, seqPrefix)
			var seqs []int
			for _, r := range recs {
				seqs = append(seqs, decodeNeutral(t, r).Seq)
			}
			if want := append(slices.Clone(e.LoadedSeqs), 6); !slices.Equal(seqs, want) || rws != nil {
				t.Errorf("after append: seqs %v warnings %v, want %v and none", seqs, rws, want)
			}
		})
	}
}

func sameRecords(a, b []Record) bool {
	return slices.EqualFunc(a, b, func(x, y Record) bool {
		return x.Line == y.Line && x.Recovered == y.Recovered && bytes.Equal(x.Raw, y.Raw)
	})
}
