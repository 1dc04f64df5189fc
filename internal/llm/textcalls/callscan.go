package textcalls

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A message that opens with '{' or '[', or a fenced block that may hold
// call objects (after a short lead-in, Recover's untagged form), must be
// held while it streams: shown and then recovered as a call, its raw JSON
// would flash on the terminal. Held too long, an ordinary JSON answer or a
// code block stalls. callScan reads the held text as it grows and says,
// as soon as the bytes prove it, that Recover cannot read it as calls; the
// filter then releases it as text. It never decides "call": that waits for
// the end of the message, where Recover judges the whole text.
//
// Every early "not a call" follows from Recover's own rules, so the shown
// text still equals Recover's Text: a byte outside call objects where only
// space, ';' or ',' may stand; a completed value that callFromJSON (strict)
// rejects or that names no offered tool; text after the closing fence; and
// a key that no call object has (strayKey), which makes strict parsing
// reject the object once it is complete.

// scanVerdict is what callScan knows so far.
type scanVerdict int

const (
	scanOpen scanVerdict = iota // may still be calls
	scanNot                     // cannot be calls: release as text
)

// callKeys are the keys a strict call object may have (callFromJSON).
var callKeys = func() map[string]bool {
	m := map[string]bool{"id": true, "type": true}
	for _, k := range append(append([]string{}, nameKeys...), argKeys...) {
		m[k] = true
	}
	return m
}()

// callScan follows one held text. The zero value is not ready: use
// newCallScan.
type callScan struct {
	names    *toolNames // nil: any name counts as offered
	fenced   bool       // the text is "```info\n" + body
	keysOnly bool       // stop after the first value; only keys matter
	body     int        // offset of the body (after the info line)

	closeAt   int // offset of the closing "```", -1 until seen
	closeFrom int // where to look for it next
	pos       int // next byte to read

	depth  int
	quote  byte
	start  int  // offset of the value being read, -1 between values
	values int  // values completed
	array  bool // the first value is an array: nothing may follow it
	tail   bool // space that Recover only trims at the end was seen
	done   bool // keysOnly: the value ended

	keys keyWatch
}

// keyWatch tracks the member keys of the call objects in a value.
type keyWatch struct {
	level  int  // depth of call-object members: 1 in {..}, 2 in [{..}]
	inObj  bool // the container at level is an object
	expect bool // the next string at level is a key
	keyAt  int  // offset of the key being read, -1 if none
	keyBad bool // the key being read has escapes or control bytes
	// murky: a comment, single quote or bare key was seen, after which
	// this scan's idea of the keys may differ from the lenient parser's.
	murky bool
	stray bool // a key outside callKeys was seen while not murky
}

func newCallScan(names *toolNames, fenced bool, body int) *callScan {
	return &callScan{names: names, fenced: fenced, body: body, closeAt: -1, closeFrom: body, pos: body, start: -1, keys: keyWatch{keyAt: -1}}
}

// strayKey reports whether the object value v shows, before any comment,
// single quote or bare key, a member key that no call object has. Then v
// is not a strict call even if its JSON is beyond repair; the stream
// filter draws the same conclusion from the same bytes while they stream.
func strayKey(v string) bool {
	c := newCallScan(nil, false, 0)
	c.keysOnly = true
	c.step(v)
	return c.keys.stray
}

// step reads s (the whole held text, grown since the last call) from where
// the last call stopped.
func (c *callScan) step(s string) scanVerdict {
	end := len(s)
	if c.fenced {
		if c.closeAt < 0 {
			if k := strings.Index(s[c.closeFrom:], "```"); k >= 0 {
				c.closeAt = c.closeFrom + k
				if !c.closedCalls(s[c.body:c.closeAt]) {
					return scanNot
				}
				c.pos = c.closeAt + 3
			} else {
				c.closeFrom = max(c.body, len(s)-2)
				// Backticks at the end may open the closing fence.
				end = len(strings.TrimRight(s, "`"))
			}
		}
		if c.closeAt >= 0 {
			return c.afterClose(s)
		}
	}
	for i := c.pos; i < end; {
		if c.done {
			return scanOpen
		}
		n, v := c.byte(s, i, end)
		if v == scanNot {
			return scanNot
		}
		if n == 0 {
			c.pos = i
			return scanOpen // needs the next byte
		}
		i += n
		c.pos = i
	}
	return scanOpen
}

// afterClose allows only space after the closing fence: Recover reads a
// fenced block as calls only when it ends the message.
func (c *callScan) afterClose(s string) scanVerdict {
	for c.pos < len(s) {
		if !utf8.FullRuneInString(s[c.pos:]) {
			return scanOpen
		}
		r, n := utf8.DecodeRuneInString(s[c.pos:])
		if !unicode.IsSpace(r) {
			return scanNot
		}
		c.pos += n
	}
	return scanOpen
}

// closedCalls judges the body of a closed fence exactly as Recover's
// untagged path does.
func (c *callScan) closedCalls(inner string) bool {
	calls, ok := jsonCallSequence(inner, true)
	return ok && c.offered(calls)
}

func (c *callScan) offered(calls []rawCall) bool {
	if c.names == nil {
		return true
	}
	for _, rc := range calls {
		if _, _, ok := c.names.resolve(rc.name); !ok {
			return false
		}
	}
	return true
}

// byte reads the byte (or, between values, the rune) at s[i] and returns
// how many bytes it used, 0 when it needs bytes beyond end.
func (c *callScan) byte(s string, i, end int) (int, scanVerdict) {
	ch := s[i]
	k := &c.keys
	if c.quote != 0 {
		switch {
		case ch == '\\':
			if i+1 >= end {
				return 0, scanOpen
			}
			k.keyBad = k.keyBad || k.keyAt >= 0
			return 2, scanOpen
		case ch == c.quote:
			c.quote = 0
			if k.keyAt >= 0 {
				if c.gotKey(s[k.keyAt:i]) {
					return 1, scanNot
				}
			}
		case ch < 0x20:
			k.keyBad = k.keyBad || k.keyAt >= 0
		}
		return 1, scanOpen
	}
	if c.depth == 0 {
		return c.between(s, i, end)
	}
	switch ch {
	case '"':
		c.quote = '"'
		if k.expect && c.depth == k.level && k.inObj {
			k.keyAt, k.keyBad = i+1, false
		}
		k.expect = false
	case '\'':
		// scanValue's rule: an apostrophe after a letter or digit does
		// not open a quote.
		if !(i > c.start && isWordByte(s[i-1])) {
			c.quote = '\''
		}
		k.murky, k.expect = true, false
	case '/':
		k.murky = true
	case '{', '[':
		c.depth++
		k.expect = false
		if c.depth == k.level {
			k.inObj = ch == '{'
			k.expect = k.inObj
		}
	case '}', ']':
		c.depth--
		k.expect = false
		if c.depth <= 0 {
			c.depth = 0
			return 1, c.valueDone(s[c.start : i+1])
		}
	case ',':
		if c.depth == k.level && k.inObj {
			k.expect = true
		}
	case ' ', '\t', '\r', '\n':
	default:
		if k.expect && c.depth == k.level && k.inObj {
			k.murky = true // a bare key
		}
		k.expect = false
	}
	return 1, scanOpen
}

// between reads outside values, where jsonCallSequence allows space
// (trimmed at both ends), and ';' or ',' between objects.
func (c *callScan) between(s string, i, end int) (int, scanVerdict) {
	ch := s[i]
	switch {
	case c.keysOnly:
		switch ch {
		case '{':
			c.open(i, 1)
		case ' ', '\t', '\r', '\n':
		default:
			c.done = true
		}
	case ch == '{' && !c.array && !c.tail:
		c.open(i, 1)
	case ch == '[' && c.values == 0 && !c.tail:
		c.array = true
		c.open(i, 2)
	case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n':
	case (ch == ';' || ch == ',') && c.values > 0 && !c.array && !c.tail:
	case ch == '\v' || ch == '\f' || ch >= utf8.RuneSelf:
		// Other space is only trimmed at the ends, not skipped between
		// values.
		if !utf8.FullRuneInString(s[i:end]) {
			return 0, scanOpen
		}
		r, n := utf8.DecodeRuneInString(s[i:end])
		if !unicode.IsSpace(r) {
			return n, scanNot
		}
		c.tail = c.tail || c.values > 0
		return n, scanOpen
	default:
		return 1, scanNot
	}
	return 1, scanOpen
}

// open starts a value at s[i]; level is the depth of its call objects'
// members.
func (c *callScan) open(i, level int) {
	c.start, c.depth = i, 1
	c.keys.level, c.keys.inObj, c.keys.expect = level, level == 1, level == 1
}

// gotKey records a member key of a call object; true when it is stray.
func (c *callScan) gotKey(raw string) bool {
	k := &c.keys
	bad := k.keyBad || !utf8.ValidString(raw)
	k.keyAt, k.keyBad = -1, false
	if bad || k.murky || callKeys[raw] {
		return false
	}
	k.stray = true
	return !c.keysOnly
}

// valueDone judges a completed top-level value as jsonCallSequence does.
func (c *callScan) valueDone(v string) scanVerdict {
	c.start = -1
	c.values++
	if c.keysOnly {
		c.done = true
		return scanOpen
	}
	var calls []rawCall
	if c.array {
		var ok bool
		if calls, ok = jsonArrayCalls(v, true); !ok {
			return scanNot
		}
	} else {
		rc, ok := callFromJSON(v, true)
		if !ok {
			return scanNot
		}
		calls = []rawCall{rc}
	}
	if !c.offered(calls) {
		return scanNot
	}
	return scanOpen
}
