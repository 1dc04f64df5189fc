// Package headless is the `zero exec` surface: one prompt through the run
// layer, with the output a script or CI job reads (text: the answer on
// stdout and progress on stderr; json: one object at the end;
// stream-json: one event per line, docs/stream-json.md) and, with -i
// stream-json, permission requests answered by lines on stdin.
//
// It is a consumer of events and an asker of permissions, nothing else: it
// must not build providers, tools or gates (internal/run does) nor parse
// flags (internal/cli does).
package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/agent"
	"github.com/zero-agent/zero/internal/ask"
	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/headless/streamjson"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/permission"
	"github.com/zero-agent/zero/internal/run"
	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// Output formats.
const (
	Text       = "text"
	JSON       = "json"
	StreamJSON = "stream-json"
)

// Options say how one headless prompt reads and writes.
type Options struct {
	// Output is Text, JSON or StreamJSON; Input is "" or StreamJSON (then
	// permission requests are answered on Stdin).
	Output, Input string
	// Quiet drops text mode's progress on Stderr.
	Quiet bool
	Stdin io.Reader
	// Stdout gets the answer (text), the object (json) or the events
	// (stream-json); Stderr the progress and warnings.
	Stdout, Stderr io.Writer
	// StdoutIsTTY: the answer is sanitised for a terminal (raw bytes
	// only when piped).
	StdoutIsTTY bool
	// PermissionTimeout bounds how long a permission_request waits for
	// its answer on Stdin (then the call is denied, with a warning); 0
	// waits until the run is interrupted.
	PermissionTimeout time.Duration
	// Images are attached to the prompt.
	Images []llm.Image
	// MaxBudgetUSD stops the run (subtype budget) once the estimated cost
	// passes it; 0: no budget.
	MaxBudgetUSD float64
	// Schema, when set, is what the final answer must validate against.
	Schema *Schema
	// LastMessageFile, when set, gets the final answer (the validated
	// one with a Schema; none when no answer validated).
	LastMessageFile string
	// Ephemeral: the session is not kept, so no log path is reported.
	Ephemeral bool
}

// Outcome is how one headless prompt ended: the last run's result and
// the exec's subtype (its exit code: Subtype.ExitCode).
type Outcome struct {
	agent.Result
	Subtype Subtype
}

// Run runs prompt in sess and writes its output. The outcome's subtype
// decides the exit code (the caller's).
func Run(ctx context.Context, sess *run.Session, prompt string, o Options) (Outcome, error) {
	var out event.Sink
	var sj *streamjson.Writer
	var collector *streamjson.Collector
	id := sess.ID()
	if o.Ephemeral {
		id = "" // nothing is kept: an id would promise a --resume that fails
	}
	switch o.Output {
	case StreamJSON:
		sj = streamjson.NewWriter(o.Stdout)
		sj.SessionID = id
		out = sj
	case JSON:
		collector = streamjson.NewCollector()
		collector.S.SessionID = id
		out = collector
	case Text, "":
		if !o.Quiet {
			out = newProgress(o.Stderr)
		}
	default:
		return Outcome{}, fmt.Errorf("unknown output %q", o.Output)
	}
	var approve permission.Asker
	var question ask.Asker
	if o.Input == StreamJSON {
		if o.Output != StreamJSON {
			return Outcome{}, errors.New("-i stream-json needs -o stream-json (permission requests are written as events)")
		}
		in := newStdinApprover(o.Stdin, sess.Warn, o.PermissionTimeout)
		approve, question = in.ask, in.question
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w := &watch{next: out, budget: o.MaxBudgetUSD, cancel: cancel}
	images := o.Images // the first prompt's; a schema retry sends text only
	turn := func(text, notes string) agent.Result {
		t := run.Turn{Prompt: text, Notes: notes, Images: images, Sink: w, Ask: approve, Question: question}
		if o.Schema != nil {
			t.Schema = o.Schema.Raw()
		}
		res := sess.Prompt(ctx, t)
		images = nil
		return res
	}
	res, schemaErr := prompted(prompt, o.Schema, turn)
	if err := sess.Err(); err != nil {
		fmt.Fprintln(o.Stderr, "zero: warning: the session log is incomplete:", err)
	}
	totals, denials, stopped := w.snapshot()
	if stopped == nil && ctx.Err() != nil {
		stopped = context.Cause(ctx)
	}
	sub := classify(res.StopReason, stopped, schemaErr != nil)
	switch {
	case sub == Budget || sub == PermissionDenied:
		res.Err = stopped
	case sub == SchemaFailed:
		res.Err = fmt.Errorf("the final answer does not validate against --output-schema after %d retries: %v", maxSchemaRetries, schemaErr)
	}
	if res.Err != nil && (sub == Budget || sub == PermissionDenied || sub == SchemaFailed) && out != nil {
		runID, turn := w.lastRun() // docs/stream-json.md: the same runId on every line of a run
		out.Emit(event.Event{SchemaVersion: event.SchemaVersion, Type: event.Error, RunID: runID, Turn: turn, Text: res.Err.Error(), Time: time.Now().UTC()})
	}
	result := streamjson.Result{Subtype: string(sub), IsError: sub.IsError(), PermissionDenials: denials}
	if !o.Ephemeral {
		result.SessionLog = sess.EventsPath()
	}
	if o.LastMessageFile != "" {
		writeLastMessage(o.LastMessageFile, res.Final, sub != SchemaFailed, o.Stderr)
	}
	switch o.Output {
	case StreamJSON:
		sj.End(result, totals)
	case JSON:
		if sub == Success {
			collector.S.Final = res.Final // the validated JSON with --output-schema
		}
		collector.End(result, totals)
		if err := collector.Write(o.Stdout); err != nil {
			return Outcome{res, sub}, err
		}
	case Text, "":
		if sub == Success {
			final := strings.TrimRight(res.Final, "\n")
			if o.StdoutIsTTY {
				final = sanitize.Text(final)
			}
			fmt.Fprintln(o.Stdout, final)
		}
	}
	return Outcome{res, sub}, nil
}

// prompted runs prompt and, with a schema, checks the final answer,
// sending it back with the validation error up to maxSchemaRetries times.
// The result's Final is the validated JSON; the error is the last
// validation failure when no answer validated. The schema's instruction
// goes as the turn's notes, so the session log's prompt is the user's.
func prompted(prompt string, schema *Schema, turn func(text, notes string) agent.Result) (agent.Result, error) {
	if schema == nil {
		return turn(prompt, ""), nil
	}
	res := turn(prompt, schema.Instruction())
	for try := 0; res.StopReason == event.StopCompleted; try++ {
		clean, err := schema.Check(res.Final)
		if err == nil {
			res.Final = clean
			return res, nil
		}
		if try == maxSchemaRetries {
			return res, err
		}
		res = turn(schema.retryPrompt(err), schema.Instruction())
	}
	return res, nil
}

// writeLastMessage writes --output-last-message: the final answer when
// there is one that counts (with --output-schema, only one that
// validated). Without one, a file an earlier run left there is emptied
// rather than kept, so that it never passes for this run's answer; no file
// is created.
func writeLastMessage(path, answer string, counts bool, stderr io.Writer) {
	if answer != "" && counts {
		if err := os.WriteFile(path, []byte(answer), 0o644); err != nil {
			fmt.Fprintln(stderr, "zero: warning: --output-last-message:", err)
		}
		return
	}
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() || info.Size() == 0 {
		return
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		fmt.Fprintln(stderr, "zero: warning: --output-last-message:", err)
		return
	}
	fmt.Fprintf(stderr, "zero: --output-last-message: no answer to write; emptied %s (an earlier run's answer)\n", path)
}
