package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestProgressNotesASilentModel(t *testing.T) {
	var out lockedBuffer
	p := newProgressEvery(&out, 40*time.Millisecond)
	p.Emit(event.Event{Type: event.RunStart})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "no answer from the model") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "no answer from the model") {
		t.Fatalf("no waiting note: %q", out.String())
	}
	p.Emit(event.Event{Type: event.RunEnd, StopReason: event.StopCompleted})
	p.Emit(event.Event{Type: event.RunEnd, StopReason: event.StopCompleted}) // a second end must not panic
}
