package agent

import "github.com/zero-agent/zero/internal/event"

// SetSink changes where later events go (the interactive app gives each
// turn its own sink). Not safe while a Run is in progress.
func (a *Agent) SetSink(s event.Sink) {
	if s == nil {
		s = event.SinkFunc(func(event.Event) {})
	}
	a.opts.Sink = s
}
