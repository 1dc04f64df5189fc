package textcalls

import (
	"strings"
	"unicode"
)

// Delta is what a StreamFilter lets through for one fed piece.
type Delta struct {
	// Text is safe to show as answer text now.
	Text string
	// Reasoning is <think> content (or pre-filled reasoning), for the
	// reasoning channel.
	Reasoning string
}

// StreamOptions tunes a StreamFilter.
type StreamOptions struct {
	// PrefilledThink: the template opened <think>, so text is reasoning
	// until the first "</think>" (B05).
	PrefilledThink bool
	// Offered are the names of the tools the request offered, used to
	// judge held text exactly as Recover(text, Offered) does: while it
	// streams (untagged JSON naming no offered tool is released as soon
	// as its object is complete) and at Flush. Nil judges as if every
	// name were offered: same result for tagged markup; untagged JSON
	// naming an unknown tool then stays hidden until the caller shows
	// Recover's Text.
	Offered []string
}

type streamState int

const (
	stText streamState = iota
	stReason
	stHeld // call markup seen: hold everything until Flush
	// stJSON: the message opened with '{' or '[', or a fenced block that
	// may hold calls opened after a lead-in Recover accepts; held until
	// callScan proves it is not calls (released as text) or Flush.
	stJSON
)

// StreamFilter sits between a provider's text deltas and the display. It
// holds back any suffix that could be the start of call or reasoning markup
// ("<tool_call>", "<function=", "[TOOL_CALLS]", "<|python_tag|>", "<think>",
// "</think>"), so
// a chunk boundary such as "</thi" + "nk>" never flashes raw tags (B02, B05
// expected.txt). Call markup is only held when it opens its line (only
// whitespace before it), the rule Recover uses; a tag inside a sentence is
// shown as text. Once call markup starts, the rest of the message is held
// until Flush, which releases whatever Recover judges to be prose, so the
// text shown over the whole message equals Recover's Text (up to leading
// and trailing whitespace and folded blank lines). Markup inside inline
// code or fences is ordinary text.
//
// Untagged calls are held too: a message that opens with '{' or '[', and a
// ```json (or bare ```, ```tool_call) fenced block that opens the message
// or follows a lead-in Recover accepts (one short paragraph). Such text is
// released the moment its bytes show it cannot be calls: a first byte
// other than '{' or '[', a member key no call object has, a complete
// object that is not a call or names no offered tool, text after the
// closing fence. A data block is thus held for its first key, prose in a
// bare fence for its first byte, and a fence with any other info string
// (```go) streams through. Not safe for concurrent use; one filter per
// assistant message.
type StreamFilter struct {
	opts    StreamOptions
	names   *toolNames      // from opts.Offered; nil takes every name
	scan    *callScan       // judges held text in stJSON
	noHold  bool            // the released text at the head of buf is not held again
	all     strings.Builder // every byte fed
	out     strings.Builder // every text byte shown
	lineTxt bool            // the current line already shows non-space text
	state   streamState
	buf     string // received, not yet decided
	held    strings.Builder
	shown   bool // some non-space text was emitted
	fence   bool // inside a fenced block
	inline  int  // length of the open inline-code backtick run, 0 if none
	lineBeg bool // the next byte in buf starts a line
}

// NewStreamFilter returns a filter for one assistant message.
func NewStreamFilter(opts StreamOptions) *StreamFilter {
	f := &StreamFilter{lineBeg: true, opts: opts}
	if opts.Offered != nil {
		f.names = newToolNames(opts.Offered, false)
	}
	if opts.PrefilledThink {
		f.state = stReason
	}
	return f
}

var streamTags = []string{tagToolCall, funcOpen, tagMistral, tagPythonTag, tagThink, tagThinkClose}

// Feed takes the next text delta and returns what may be shown now.
func (f *StreamFilter) Feed(delta string) Delta {
	f.buf += delta
	f.all.WriteString(delta)
	return f.run(false)
}

// Flush ends the message: held-back partial tags are released as text
// (they turned out not to be markup). When call markup or a JSON-looking
// message was held, Flush runs Recover's judgment on the whole message and
// releases the part of its Text not shown yet (prose after or around the
// markup, a tag that was not a call); call markup itself is never
// emitted. A caller that prints Delta.Text shows Recover's Text.
func (f *StreamFilter) Flush() Delta {
	held := f.state == stHeld || f.state == stJSON
	d := f.run(true)
	if !held {
		return d
	}
	res := recoverText(f.all.String(), f.opts.Offered, Options{PrefilledThink: f.opts.PrefilledThink}, f.opts.Offered == nil)
	rest := unshown(f.out.String(), res.Text)
	f.out.WriteString(rest)
	d.Text += rest
	return d
}

// unshown returns the part of visible, Recover's Text, that follows what
// shown already holds, with shown's trailing whitespace not repeated; ""
// when shown is not a prefix of visible (then nothing is safe to add).
func unshown(shown, visible string) string {
	done := tidy(shown)
	if !strings.HasPrefix(visible, done) {
		return ""
	}
	rest := visible[len(done):]
	if tail := shown[len(strings.TrimRight(shown, " \t\r\n")):]; tail != "" {
		if strings.HasPrefix(rest, tail) {
			rest = rest[len(tail):]
		} else {
			rest = strings.TrimLeft(rest, " \t\r\n")
		}
	}
	return rest
}

func (f *StreamFilter) run(final bool) Delta {
	var text, reason strings.Builder
	for f.buf != "" {
		switch f.state {
		case stHeld:
			f.held.WriteString(f.buf)
			f.buf = ""
		case stJSON:
			f.held.WriteString(f.buf)
			f.buf = ""
			if !final && f.scan.step(f.held.String()) == scanNot {
				// Not calls: shown as text, from its first byte.
				f.state, f.buf, f.noHold = stText, f.held.String(), true
				f.held.Reset()
			}
		case stReason:
			k := strings.Index(f.buf, tagThinkClose)
			if k >= 0 {
				reason.WriteString(f.buf[:k])
				f.buf = f.buf[k+len(tagThinkClose):]
				f.state = stText
				f.lineTxt = false
				continue
			}
			keep := partialSuffix(f.buf, tagThinkClose)
			if final {
				keep = 0
			}
			reason.WriteString(f.buf[:len(f.buf)-keep])
			f.buf = f.buf[len(f.buf)-keep:]
			if keep > 0 {
				return f.done(&text, &reason)
			}
		case stText:
			if !f.stepText(&text, final) {
				return f.done(&text, &reason)
			}
		}
	}
	if final && (f.state == stJSON || f.state == stHeld) {
		// Held text is left for Recover to judge.
		f.held.Reset()
	}
	return f.done(&text, &reason)
}

func (f *StreamFilter) done(text, reason *strings.Builder) Delta {
	return Delta{Text: text.String(), Reasoning: reason.String()}
}

// stepText decides a prefix of buf in text state; false means it needs
// more input.
func (f *StreamFilter) stepText(text *strings.Builder, final bool) bool {
	s := f.buf
	c := s[0]
	if c == '`' {
		n := runLen(s, 0, '`')
		if n == len(s) && !final {
			return false // the run may go on
		}
		if f.lineBeg && n >= 3 && !f.fence {
			// A fence line opens a block even after an unclosed backtick:
			// an inline span never crosses it (as codeSpans reads it).
			f.inline = 0
		}
		if n == 3 && f.inline == 0 && !f.fence && !final && (f.lineBeg || f.blank()) && f.mayHold() && f.callLead() {
			nl := strings.IndexByte(s, '\n')
			if nl < 0 {
				return false // need the info string
			}
			if callFenceInfo(s[n:nl]) {
				f.hold(true, nl+1)
				return true
			}
		}
		switch {
		case f.lineBeg && n >= 3 && f.inline == 0:
			f.fence = !f.fence
		case !f.fence && f.inline == 0:
			f.inline = n
		case !f.fence && f.inline == n:
			f.inline = 0
		}
		f.emit(text, s[:n])
		return true
	}
	if f.fence || f.inline > 0 {
		f.emit(text, s[:1])
		return true
	}
	if (c == '{' || c == '[') && !final && !strings.HasPrefix(s, tagMistral) && !isPrefix(s, tagMistral) && f.blank() && f.mayHold() {
		f.hold(false, 0)
		return true
	}
	if (c == '<' || c == '[') && !f.lineTxt {
		for _, t := range streamTags {
			if strings.HasPrefix(s, t) {
				f.buf = s[len(t):]
				switch t {
				case tagThink:
					if !f.shown {
						f.state = stReason
					} else {
						f.state = stHeld
					}
				case tagThinkClose:
					// orphan close: drop it; what came before was shown
				default:
					f.state = stHeld
					f.held.WriteString(t)
				}
				return true
			}
		}
		for _, t := range streamTags {
			if isPrefix(s, t) && !final {
				return false
			}
		}
	}
	f.emit(text, s[:1])
	return true
}

// blank reports whether nothing but space has been shown: Recover trims
// it, so the message still starts here.
func (f *StreamFilter) blank() bool {
	return !f.shown || strings.TrimSpace(f.out.String()) == ""
}

// mayHold reports whether a possible untagged call at the head of buf may
// be held, and clears noHold: text released by callScan is not held again.
func (f *StreamFilter) mayHold() bool {
	ok := !f.noHold
	f.noHold = false
	return ok
}

// callLead reports whether the text shown so far lets a fenced block that
// starts here be Recover's untagged calls: nothing, or a lead-in that
// leadIntroducesCall accepts and that is not itself JSON.
func (f *StreamFilter) callLead() bool {
	if f.blank() {
		return true
	}
	lead := strings.TrimLeftFunc(f.out.String(), unicode.IsSpace)
	lead = strings.TrimSuffix(lead, "\n") // the line break before the fence
	return lead[0] != '{' && lead[0] != '[' && leadIntroducesCall(lead)
}

// hold starts holding buf as possible untagged calls; body is the offset
// of a fence's body in buf.
func (f *StreamFilter) hold(fenced bool, body int) {
	f.state = stJSON
	f.scan = newCallScan(f.names, fenced, body)
}

func (f *StreamFilter) emit(text *strings.Builder, s string) {
	text.WriteString(s)
	f.out.WriteString(s)
	f.buf = f.buf[len(s):]
	f.noHold = false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			f.lineTxt = false
		case ' ', '\t', '\r':
		default:
			f.shown, f.lineTxt = true, true
		}
	}
	f.lineBeg = s[len(s)-1] == '\n'
}

// isPrefix reports whether s is a proper prefix of tag.
func isPrefix(s, tag string) bool {
	return len(s) < len(tag) && strings.HasPrefix(tag, s)
}

// partialSuffix returns the length of the longest suffix of s that is a
// proper prefix of tag.
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
