package tools

import (
	"context"
	"encoding/json"
)

// Filtered wraps t so every result's Content and Diff pass through filter
// before anyone sees them (secret redaction: the model, the screen and the
// session log all receive the filtered text).
func Filtered(t Tool, filter func(string) string) Tool {
	return &filtered{Tool: t, filter: filter}
}

type filtered struct {
	Tool
	filter func(string) string
}

// Run runs the wrapped tool and filters its output.
func (f *filtered) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	res, err := f.Tool.Run(ctx, args)
	res.Content = f.filter(res.Content)
	if res.Diff != "" {
		res.Diff = f.filter(res.Diff)
	}
	return res, err
}
