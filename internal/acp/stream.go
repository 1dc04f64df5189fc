package acp

import (
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	acpsdk "github.com/coder/acp-go-sdk"
)

// Streaming a command's output while it runs: the run layer hands the
// bridge each piece bash prints (event.OutputSink); the bridge sends the
// output so far as the call's content in a tool_call_update (status
// in_progress) at most every streamEvery, and the result replaces it
// when the command ends. A tool_call_update's content replaces the
// call's content (https://agentclientprotocol.com/protocol/tool-calls#updating),
// so each update carries the output so far, its last streamKeep bytes
// once it is longer.
const (
	streamEvery = 100 * time.Millisecond
	streamKeep  = 16 << 10
)

// outputStream is one running call's output on its way to the editor.
type outputStream struct {
	mu      sync.Mutex
	buf     []byte
	cut     bool // bytes before buf were dropped
	pending bool // a flush is scheduled
	done    bool // the result was sent: nothing more goes out
}

// ToolOutput implements event.OutputSink.
func (u *updates) ToolOutput(callID string, p []byte) {
	u.mu.Lock()
	st := u.streams[callID]
	if st == nil {
		st = &outputStream{}
		u.streams[callID] = st
	}
	u.mu.Unlock()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return
	}
	st.buf = append(st.buf, p...)
	if over := len(st.buf) - streamKeep; over > 0 {
		st.buf, st.cut = append(st.buf[:0], st.buf[over:]...), true
	}
	if !st.pending {
		st.pending = true
		time.AfterFunc(streamEvery, func() { u.flush(callID, st) })
	}
}

// flush sends the output so far, unless the result went out first.
func (u *updates) flush(callID string, st *outputStream) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.pending = false
	if st.done {
		return
	}
	text := string(st.buf)
	if st.cut {
		// The cut may have split a character.
		for len(text) > 0 && !utf8.RuneStart(text[0]) {
			text = text[1:]
		}
		text = "…\n" + text
	}
	u.send(acpsdk.UpdateToolCall(acpsdk.ToolCallId(callID), acpsdk.WithUpdateStatus(acpsdk.ToolCallStatusInProgress),
		acpsdk.WithUpdateContent([]acpsdk.ToolCallContent{acpsdk.ToolContent(acpsdk.TextBlock(fence(text)))})))
}

// endStream stops callID's stream before its result is sent; a flush
// under way finishes first, so the result is the last update. The ended
// stream stays (empty), so output arriving later is dropped.
func (u *updates) endStream(callID string) {
	u.mu.Lock()
	st := u.streams[callID]
	if st == nil {
		st = &outputStream{}
		u.streams[callID] = st
	}
	u.mu.Unlock()
	st.mu.Lock()
	st.done, st.buf = true, nil
	st.mu.Unlock()
}

// fence is command output as a fenced block.
func fence(s string) string {
	return "```\n" + strings.TrimRight(s, "\n") + "\n```"
}
