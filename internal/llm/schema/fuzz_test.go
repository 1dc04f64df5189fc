package schema

import (
	"encoding/json"
	"testing"
)

// FuzzClean feeds arbitrary bytes to Clean for every dialect: it must not
// panic, and whatever it returns without error is valid JSON that keeps the
// dialect's rules.
func FuzzClean(f *testing.F) {
	var res struct {
		Tools []struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(readFile(f, "testdata/B31/tools_list_result.json"), &res); err != nil {
		f.Fatal(err)
	}
	for _, tl := range res.Tools {
		f.Add([]byte(tl.InputSchema))
	}
	for _, tc := range cleanCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, d := range []Dialect{OpenAI, OpenAIStrict, Anthropic, Gemini} {
			out, _, err := Clean(d, raw)
			if err != nil {
				continue
			}
			if !json.Valid(out) {
				t.Fatalf("%s: output is not JSON: %q", d, out)
			}
			if err := checkDialect(d, out); err != nil {
				t.Fatalf("%s: %v\nin:  %s\nout: %s", d, err, raw, out)
			}
		}
	})
}
