package ask

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tools"
)

// ToolName is the model's question tool.
const ToolName = "ask_user"

// NewTool returns ask_user: the model asks the user one question, with
// optional choices (suggestions: the user may answer otherwise). current
// returns the asker of the prompt under way; nil means no one can answer
// (a headless run without stream-json input), and the result says so at
// once so the model goes on. ids numbers the questions of a session.
func NewTool(current func() Asker) tools.Tool {
	return &askTool{current: current}
}

type askTool struct {
	current func() Asker
	n       int
}

func (*askTool) Name() string { return ToolName }

func (*askTool) Description() string {
	return "Ask the user when you cannot go on without their decision; offer choices if there are a few."
}

func (*askTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"question":{"type":"string"},"choices":{"type":"array","items":{"type":"string"}}},"required":["question"]}`)
}

// SideEffect: asking changes nothing, so plan mode offers it.
func (*askTool) SideEffect() tools.SideEffect { return tools.SideRead }

// NoOneToAsk is the result when no one can answer.
const NoOneToAsk = "No one can answer questions in this run (it is not interactive). Proceed on your best judgement, and say in your answer which assumption you made."

func (t *askTool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a struct {
		Question string   `json:"question"`
		Choices  []string `json:"choices"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || strings.TrimSpace(a.Question) == "" {
		return tools.Result{Content: `ask_user needs {"question": "...", "choices": ["...", ...]} (choices optional)`, IsError: true}, nil
	}
	asker := t.current()
	if asker == nil {
		return tools.Result{Content: NoOneToAsk}, nil
	}
	t.n++
	f := event.QuestionField{Name: "answer", Kind: KindText, Required: true}
	if len(a.Choices) > 0 {
		f.Kind, f.Choices, f.Other = KindChoice, a.Choices, true
	}
	q := event.Question{ID: fmt.Sprintf("q%d", t.n), From: "model", Message: a.Question, Fields: []event.QuestionField{f}}
	ans := asker(ctx, q)
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	if ans.Action != Accept {
		return tools.Result{Content: "The user did not answer (" + ans.Action + "). Proceed on your best judgement, and say which assumption you made."}, nil
	}
	return tools.Result{Content: fmt.Sprintf("The user answered: %v", ans.Values["answer"])}, nil
}
