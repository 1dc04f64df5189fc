package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

type fixed struct{ out string }

func (f fixed) Name() string            { return "fixed" }
func (f fixed) Description() string     { return "" }
func (f fixed) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (f fixed) SideEffect() SideEffect  { return SideRead }
func (f fixed) Run(context.Context, json.RawMessage) (Result, error) {
	return Result{Content: f.out, Diff: "+" + f.out}, nil
}

func TestFilteredAppliesToContentAndDiff(t *testing.T) {
	tl := Filtered(fixed{"key=SECRET"}, func(s string) string { return strings.ReplaceAll(s, "SECRET", "[masked]") })
	res, err := tl.Run(context.Background(), nil)
	if err != nil || res.Content != "key=[masked]" || res.Diff != "+key=[masked]" || tl.Name() != "fixed" {
		t.Fatalf("got %+v %v", res, err)
	}
}
