package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tools"
)

func TestResponseSchemaIsOnEveryRequestOfTheRunItWasSetFor(t *testing.T) {
	p := &scripted{turns: [][]llm.Event{
		{call(0, "c1", "read_file", `{"path":"a.go"}`), finish()},
		{text(`{"ok":true}`), finish()},
		{text("plain"), finish()},
	}}
	a := New(Options{Provider: p, Model: "m", Sink: &recorder{}, Tools: tools.NewRegistry(echoTool("read_file", tools.SideRead))})
	schema := json.RawMessage(`{"type":"object"}`)
	a.SetResponseSchema(schema)
	a.Run(context.Background(), "answer in JSON")
	a.SetResponseSchema(nil)
	a.Run(context.Background(), "now in prose")
	if len(p.reqs) != 3 || string(p.reqs[0].ResponseSchema) != string(schema) || string(p.reqs[1].ResponseSchema) != string(schema) || p.reqs[2].ResponseSchema != nil {
		t.Fatalf("requests' schemas: %d requests %q", len(p.reqs), []json.RawMessage{p.reqs[0].ResponseSchema, p.reqs[1].ResponseSchema})
	}
}
