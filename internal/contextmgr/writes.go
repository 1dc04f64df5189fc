package contextmgr

import (
	"encoding/json"
	"fmt"

	"github.com/zero-agent/zero/internal/llm"
)

// WritePayloadKeys names, per tool, the argument keys whose values are file
// content that an applied call no longer needs in the history.
var WritePayloadKeys = map[string][]string{
	"write_file":  {"content"},
	"edit_file":   {"old_string", "new_string"},
	"apply_patch": {"patch", "input"},
}

// payloadStub replaces one payload value.
func payloadStub(n int) string {
	return fmt.Sprintf("[%d bytes applied; omitted from history, read the file for its current content]", n)
}

// minPayload is the smallest payload worth replacing.
const minPayload = 128

// CompactWrites returns history with the payload of every applied write
// (a call in WritePayloadKeys whose result is not an error) replaced by a
// short stub; the path and other arguments stay. Calls that failed or have
// no result yet keep their payload so the model can retry. The input is
// not modified (changed messages are copies). saved is the bytes removed.
func CompactWrites(history []llm.Message) (out []llm.Message, saved int) {
	failed := map[string]bool{}
	done := map[string]bool{}
	for _, m := range history {
		for _, r := range m.ToolResults() {
			done[r.CallID] = true
			if r.IsError {
				failed[r.CallID] = true
			}
		}
	}
	out = make([]llm.Message, len(history))
	copy(out, history)
	for mi, m := range history {
		if m.Role != llm.RoleAssistant {
			continue
		}
		var parts []llm.Part
		for pi, p := range m.Parts {
			if p.Type != llm.PartToolCall || p.ToolCall == nil {
				continue
			}
			keys := WritePayloadKeys[p.ToolCall.Name]
			if keys == nil || !done[p.ToolCall.ID] || failed[p.ToolCall.ID] {
				continue
			}
			args, n := stubPayload(p.ToolCall.Arguments, keys)
			if n == 0 {
				continue
			}
			if parts == nil {
				parts = append([]llm.Part(nil), m.Parts...)
			}
			tc := *p.ToolCall
			tc.Arguments = args
			parts[pi].ToolCall = &tc
			saved += n
		}
		if parts != nil {
			out[mi] = llm.Message{Role: m.Role, Parts: parts}
		}
	}
	return out, saved
}

// stubPayload replaces the string values of keys in the JSON object args
// when they are long enough to matter; n is the bytes saved (0: unchanged).
func stubPayload(args string, keys []string) (string, int) {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) != nil {
		return args, 0
	}
	changed := false
	for _, k := range keys {
		raw, ok := obj[k]
		var s string
		if !ok || json.Unmarshal(raw, &s) != nil || len(s) < minPayload {
			continue
		}
		b, _ := json.Marshal(payloadStub(len(s)))
		obj[k] = b
		changed = true
	}
	if !changed {
		return args, 0
	}
	b, err := json.Marshal(obj)
	if err != nil || len(b) >= len(args) {
		return args, 0
	}
	return string(b), len(args) - len(b)
}
