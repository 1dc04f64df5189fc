// Package think separates a model's reasoning, written inline as
// <think>...</think>, from its answer text while the reply streams in.
//
// It encodes three lessons from real servers (case B05): a tag may be split
// across stream chunks, so a suffix that could begin a tag is held back
// until the next chunk decides it; a chat template that pre-fills "<think>"
// leaves only an orphan "</think>" in the output, so a profile can say the
// stream begins in reasoning; and a normal answer that merely mentions the
// tags (a regex in a code span) must keep them, so tags are recognised only
// at the start of the output, never once answer text has begun.
//
// It owns only that split. It knows nothing of wire formats or of the
// reasoning_content fields some servers use (providers handle those).
package think

import "strings"

const (
	openTag  = "<think>"
	closeTag = "</think>"
)

// Options configures a Splitter.
type Options struct {
	// StartInReasoning says the chat template already emitted "<think>"
	// (model profile), so everything before the first "</think>" is
	// reasoning even though no opening tag appears.
	StartInReasoning bool
}

// Segment is one piece of output: reasoning or answer text.
type Segment struct {
	Reasoning bool
	Text      string
}

type state int

const (
	stStart         state = iota // nothing decided yet: a tag may still open the output
	stReasoningLead              // inside reasoning, before its first non-space byte
	stReasoning                  // inside reasoning
	stAfterClose                 // after </think>, skipping whitespace before the answer
	stText                       // answer text; tags are literal from here on
)

// Splitter splits a stream of content chunks. The zero value behaves as
// New(Options{}).
type Splitter struct {
	st      state
	pending string
	out     []Segment
}

// New returns a Splitter configured by opts.
func New(opts Options) *Splitter {
	s := &Splitter{}
	if opts.StartInReasoning {
		s.st = stReasoningLead
	}
	return s
}

// Push consumes one chunk and returns the segments that are now certain,
// in order. Bytes that could be the start of a tag are held back until a
// later Push or Flush. The returned slice is reused by the next call.
func (s *Splitter) Push(chunk string) []Segment {
	s.out = s.out[:0]
	if s.st == stText && s.pending == "" {
		if chunk != "" {
			s.emit(false, chunk)
		}
		return s.out
	}
	s.pending += chunk
	s.run()
	return s.out
}

// Flush ends the stream and returns whatever was held back. A partial tag
// left at the end is literal text of the state it was in.
func (s *Splitter) Flush() []Segment {
	s.out = s.out[:0]
	p := s.pending
	s.pending = ""
	switch s.st {
	case stStart:
		s.emit(false, p)
	case stReasoningLead, stReasoning:
		s.emit(true, strings.TrimRight(p, spaces))
	case stText:
		s.emit(false, p)
	}
	return s.out
}

// ReasoningSeparated tells the splitter that the server delivers reasoning
// in a field of its own (reasoning_content): unless answer text has already
// been classified, content is then answer text, whatever the profile said
// about a pre-filled "<think>". A leading orphan "</think>" is still
// dropped.
func (s *Splitter) ReasoningSeparated() {
	if s.st == stReasoningLead {
		s.st = stStart
		s.run()
	}
}

// Unclosed reports whether the stream so far is inside reasoning that no
// "</think>" has closed. After Flush it means the model never left its
// reasoning (for example a pre-filled template on a model that answered
// without thinking); callers may warn.
func (s *Splitter) Unclosed() bool {
	return s.st == stReasoningLead || s.st == stReasoning
}

// Split separates a whole message at once. It is Push(text) then Flush
// with the pieces of each kind joined.
func Split(text string, opts Options) (reasoning, answer string) {
	s := New(opts)
	var r, a strings.Builder
	add := func(segs []Segment) {
		for _, g := range segs {
			if g.Reasoning {
				r.WriteString(g.Text)
			} else {
				a.WriteString(g.Text)
			}
		}
	}
	add(s.Push(text))
	add(s.Flush())
	return r.String(), a.String()
}

const spaces = " \t\r\n"

func (s *Splitter) emit(reasoning bool, text string) {
	if text == "" {
		return
	}
	if n := len(s.out); n > 0 && s.out[n-1].Reasoning == reasoning {
		s.out[n-1].Text += text
		return
	}
	s.out = append(s.out, Segment{Reasoning: reasoning, Text: text})
}

// run advances the state machine over s.pending as far as it can decide.
func (s *Splitter) run() {
	for {
		buf := s.pending
		switch s.st {
		case stStart:
			t := strings.TrimLeft(buf, spaces)
			switch {
			case strings.HasPrefix(t, openTag):
				s.pending, s.st = t[len(openTag):], stReasoningLead
			case strings.HasPrefix(t, closeTag):
				// Orphan close with nothing before it: an empty pre-filled
				// reasoning block, or a server that already split the
				// reasoning into its own field.
				s.pending, s.st = t[len(closeTag):], stAfterClose
			case t == "" || strings.HasPrefix(openTag, t) || strings.HasPrefix(closeTag, t):
				return // undecided: wait for more bytes
			default:
				s.st = stText
				s.pending = ""
				s.emit(false, buf)
				return
			}
		case stReasoningLead:
			t := strings.TrimLeft(buf, spaces)
			switch {
			case strings.HasPrefix(t, openTag):
				// The template pre-filled <think> and the model wrote it again.
				s.pending = t[len(openTag):]
			case t == "" || strings.HasPrefix(openTag, t):
				s.pending = t
				return
			default:
				s.pending, s.st = t, stReasoning
			}
		case stReasoning:
			if i := strings.Index(buf, closeTag); i >= 0 {
				s.emit(true, strings.TrimRight(buf[:i], spaces))
				s.pending, s.st = buf[i+len(closeTag):], stAfterClose
				continue
			}
			keep := holdBack(buf)
			s.emit(true, buf[:len(buf)-keep])
			s.pending = buf[len(buf)-keep:]
			return
		case stAfterClose:
			t := strings.TrimLeft(buf, spaces)
			if t == "" {
				s.pending = ""
				return
			}
			s.pending, s.st = "", stText
			s.emit(false, t)
			return
		case stText:
			s.pending = ""
			s.emit(false, buf)
			return
		}
	}
}

// holdBack returns how many trailing bytes of buf must wait: a suffix that
// is a proper prefix of "</think>", plus the whitespace before it (trailing
// whitespace of reasoning is dropped when the tag follows).
func holdBack(buf string) int {
	keep := 0
	for n := min(len(closeTag)-1, len(buf)); n > 0; n-- {
		if strings.HasSuffix(buf, closeTag[:n]) {
			keep = n
			break
		}
	}
	rest := buf[:len(buf)-keep]
	return len(buf) - len(strings.TrimRight(rest, spaces))
}
