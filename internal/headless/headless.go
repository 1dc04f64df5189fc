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
}

// Run runs prompt in sess and writes its output. The result's stop reason
// decides the exit code (the caller's).
func Run(ctx context.Context, sess *run.Session, prompt string, o Options) (agent.Result, error) {
	var out event.Sink
	var collector *streamjson.Collector
	switch o.Output {
	case StreamJSON:
		sj := streamjson.NewWriter(o.Stdout)
		sj.SessionID = sess.ID()
		out = sj
	case JSON:
		collector = streamjson.NewCollector()
		collector.S.SessionID = sess.ID()
		out = collector
	case Text, "":
		if !o.Quiet {
			out = newProgress(o.Stderr)
		}
	default:
		return agent.Result{}, fmt.Errorf("unknown output %q", o.Output)
	}
	var approve permission.Asker
	var question ask.Asker
	if o.Input == StreamJSON {
		if o.Output != StreamJSON {
			return agent.Result{}, errors.New("-i stream-json needs -o stream-json (permission requests are written as events)")
		}
		in := newStdinApprover(o.Stdin, sess.Warn, o.PermissionTimeout)
		approve, question = in.ask, in.question
	}
	res := sess.Prompt(ctx, run.Turn{Prompt: prompt, Images: o.Images, Sink: out, Ask: approve, Question: question})
	if err := sess.Err(); err != nil {
		fmt.Fprintln(o.Stderr, "zero: warning: the session log is incomplete:", err)
	}
	switch o.Output {
	case JSON:
		if err := collector.Write(o.Stdout); err != nil {
			return res, err
		}
	case Text, "":
		if res.StopReason == event.StopCompleted {
			final := strings.TrimRight(res.Final, "\n")
			if o.StdoutIsTTY {
				final = sanitize.Text(final)
			}
			fmt.Fprintln(o.Stdout, final)
		}
	}
	return res, nil
}
