package cli

import (
	"flag"
	"io"
	"reflect"
	"testing"
)

func TestParseInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		pos   []string
		auto  bool
		model string
	}{
		{[]string{"fix it", "--auto-approve"}, []string{"fix it"}, true, ""},
		{[]string{"--model", "m", "fix", "-auto-approve"}, []string{"fix"}, true, "m"},
		{[]string{"-"}, []string{"-"}, false, ""},
		{[]string{"--", "--model"}, []string{"--model"}, false, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		auto := fs.Bool("auto-approve", false, "")
		model := fs.String("model", "", "")
		pos, err := parseInterspersed(fs, tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pos, tc.pos) || *auto != tc.auto || *model != tc.model {
			t.Fatalf("%v: pos=%v auto=%v model=%q", tc.args, pos, *auto, *model)
		}
	}
}
