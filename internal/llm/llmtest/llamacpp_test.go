package llmtest

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// The fake llama-server's model list is a real llama-server's
// (internal/providers/openai/testdata/models/llama-server.json) but for
// the "created" time: both arrays, the same model in each.
func TestLlamaCppListsItsModelAsLlamaServerDoes(t *testing.T) {
	l := NewLlamaCpp(t, "qwen2.5-coder-0.5b-q8_0.gguf", 4096)
	raw, err := os.ReadFile("../../providers/openai/testdata/models/llama-server.json")
	if err != nil {
		t.Fatal(err)
	}
	var real, fake map[string]any
	json.Unmarshal(raw, &real)
	_, body := get(t, "GET", l.URL()+"/v1/models", "")
	if err := json.Unmarshal([]byte(body), &fake); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	real["data"].([]any)[0].(map[string]any)["created"] = float64(created)
	if !reflect.DeepEqual(real, fake) {
		t.Errorf("model list\n%s\nwant the shape of\n%s", body, raw)
	}
	if status, got := get(t, "GET", l.URL()+"/props", ""); status != 200 || got != `{"default_generation_settings":{"n_ctx":4096},"modalities":{"audio":false,"vision":false},"model_path":"qwen2.5-coder-0.5b-q8_0.gguf","total_slots":1}` {
		t.Errorf("/props = %d %s", status, got)
	}
}

// Without --jinja llama-server refuses any request with tools, with the
// same HTTP 500 each time; a request without tools is answered.
func TestLlamaCppWithoutJinjaRefusesTools(t *testing.T) {
	l := NewLlamaCpp(t, "m.gguf", 4096).NoJinja()
	l.Script(Reply(Text("ok")))
	withTools := `{"model":"m.gguf","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f"}}]}`
	for range 2 {
		if status, got := get(t, "POST", l.URL()+"/v1/chat/completions", withTools); status != 500 || got != llamaNoJinja {
			t.Errorf("with tools: %d %s", status, got)
		}
	}
	if status, _ := get(t, "POST", l.URL()+"/v1/chat/completions", `{"model":"m.gguf","messages":[{"role":"user","content":"hi"}]}`); status != 200 {
		t.Errorf("without tools: %d", status)
	}
	if n := len(l.Requests()); n != 3 {
		t.Errorf("%d requests recorded, want 3", n)
	}
}
