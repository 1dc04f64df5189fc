package cli

import (
	"errors"
	"flag"
	"fmt"

	"github.com/zero-agent/zero/internal/sessions"
)

// runContext is `zero context [--session ID]`: what the latest session of
// this workspace (or the one named) puts in the model's window, and the
// bytes each context lever saved.
func runContext(s stdio, args []string) error {
	fs := flag.NewFlagSet("context", flag.ContinueOnError)
	fs.SetOutput(s.err)
	id := fs.String("session", "", "session id or prefix (default: the latest of this workspace)")
	var o overrides
	o.register(fs)
	if _, err := parseInterspersed(fs, args); err != nil {
		return usagef("%v", err)
	}
	rt, err := newRuntime(s, o, "")
	if err != nil {
		return err
	}
	defer rt.Close()
	var sess *sessions.Session
	if *id != "" {
		sess, err = rt.store.Load(*id)
	} else {
		sess, err = rt.store.Latest(rt.ws.Root())
	}
	if errors.Is(err, sessions.ErrNotFound) {
		return usagef("no session for %s yet", rt.ws.Root())
	}
	if err != nil {
		return err
	}
	defer sess.Close()
	history, _, err := sess.History()
	if err != nil {
		return err
	}
	a := rt.newAgent(sess, history, rt.maxTurns, nil, false)
	fmt.Fprintf(s.out, "session %s\n%s\n", sess.ID(), a.ContextReport().String())
	return nil
}
