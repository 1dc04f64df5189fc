package headless

import (
	"context"
	"errors"

	"github.com/zero-agent/zero/internal/event"
)

// Subtype is how a `zero exec` ended, as a script reads it: the `subtype`
// of the `-o json` result and of stream-json's last `run_end` line. Its
// exit code and isError come from the one table below (outcomes), which
// docs/stream-json.md reproduces.
type Subtype string

// Subtypes.
const (
	Success          Subtype = "success"
	MaxTurns         Subtype = "max_turns"
	Budget           Subtype = "budget"
	ProviderError    Subtype = "provider_error"
	PermissionDenied Subtype = "permission_denied"
	SchemaFailed     Subtype = "schema_failed"
	Interrupted      Subtype = "interrupted"
	Failed           Subtype = "error"
)

// Exit codes of a run's outcome (internal/cli adds crash, usage and MCP).
const (
	ExitOK          = 0
	ExitProvider    = 3
	ExitIncomplete  = 4
	ExitBudget      = 6
	ExitDenied      = 7
	ExitSchema      = 8
	ExitInterrupted = 130
)

// outcomes is the one mapping of subtype to exit code and isError.
var outcomes = map[Subtype]struct {
	exit    int
	isError bool
}{
	Success:          {ExitOK, false},
	MaxTurns:         {ExitIncomplete, true},
	Budget:           {ExitBudget, true},
	ProviderError:    {ExitProvider, true},
	PermissionDenied: {ExitDenied, true},
	SchemaFailed:     {ExitSchema, true},
	Interrupted:      {ExitInterrupted, true},
	Failed:           {ExitIncomplete, true},
}

// ExitCode is the process exit code of a run that ended so.
func (s Subtype) ExitCode() int {
	if o, ok := outcomes[s]; ok {
		return o.exit
	}
	return outcomes[Failed].exit
}

// IsError reports whether a run that ended so failed.
func (s Subtype) IsError() bool {
	if o, ok := outcomes[s]; ok {
		return o.isError
	}
	return true
}

// Stops the headless surface makes itself, by cancelling the run's
// context with one of these as the cause.
var (
	errBudget    = errors.New("the estimated cost passed --max-budget-usd")
	errAllDenied = errors.New("every tool call was denied")
)

// classify names how a run ended: stop is the agent's stop reason, cause
// the cause of the run context's cancellation (nil if none),
// schemaFailed that the final answer never matched --output-schema.
func classify(stop event.StopReason, cause error, schemaFailed bool) Subtype {
	switch {
	case errors.Is(cause, errBudget):
		return Budget
	case errors.Is(cause, errAllDenied):
		return PermissionDenied
	}
	switch stop {
	case event.StopCompleted:
		if schemaFailed {
			return SchemaFailed
		}
		return Success
	case event.StopMaxTurns:
		return MaxTurns
	case event.StopProviderError:
		return ProviderError
	case event.StopInterrupted:
		return Interrupted
	}
	if errors.Is(cause, context.Canceled) {
		return Interrupted
	}
	return Failed
}
