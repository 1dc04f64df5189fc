package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/headless"
)

func TestExecExitCodeIsTheSubtypes(t *testing.T) {
	for _, c := range []struct {
		sub  headless.Subtype
		code int
	}{
		{headless.MaxTurns, 4}, {headless.Budget, 6}, {headless.ProviderError, 3}, {headless.PermissionDenied, 7},
		{headless.SchemaFailed, 8}, {headless.Interrupted, 130}, {headless.Failed, 4},
	} {
		res := headless.Outcome{Result: agent.Result{StopReason: event.StopInterrupted, Err: errors.New("why")}, Subtype: c.sub}
		for _, id := range []string{"20261202-051000-ab12cd", ""} {
			var ee *exitError
			if err := stopError(res, id, false); !errors.As(err, &ee) || ee.code != c.code || ee.code != c.sub.ExitCode() {
				t.Errorf("%s: %v, want exit %d", c.sub, err, c.code)
			} else if id == "" && strings.Contains(err.Error(), "--resume") {
				t.Errorf("%s: an ephemeral run's error offers a resume: %v", c.sub, err)
			}
		}
	}
	if err := stopError(headless.Outcome{Subtype: headless.Success}, "x", false); err != nil {
		t.Errorf("success: %v", err)
	}
}
