package textcalls

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zero-agent/zero/internal/lazyregexp"
	"github.com/zero-agent/zero/internal/llm"
)

// Options tunes Recover. The zero value works: string-typed parameters,
// fresh random ids, no pre-filled <think>.
type Options struct {
	// Schemas maps an offered tool's name to the JSON Schema of its
	// arguments; Qwen3-Coder parameter values are typed by it (B02).
	Schemas map[string]json.RawMessage
	// IDs issues call ids; share one per session so ids never repeat. Nil
	// uses a fresh generator (still crypto-random).
	IDs *IDGen
	// ShortIDs asks for 9-alphanumeric ids (Mistral-family templates, B06)
	// for every call; calls found in [TOOL_CALLS] markup get them anyway.
	ShortIDs bool
	// PrefilledThink says the chat template already opened <think>, so the
	// text before the first "</think>" is reasoning (B05).
	PrefilledThink bool
}

// Result is what Recover found in one assistant message.
type Result struct {
	// Calls are recovered calls to offered tools with repaired JSON-object
	// arguments, in order; each has a fresh ID and Recovered set. Name is
	// the offered name, also when the text wrote its wire name or a near
	// miss of it (see Recover).
	Calls []llm.ToolCall
	// Invalid are call attempts that must not run: calls to offered tools
	// whose arguments could not be repaired (B04 cases 4 and 5; raw
	// Arguments, Err an *ArgError), and tagged markup standing on its own
	// that names a tool not offered or cannot be read as a call (Err a
	// *CallError; Arguments "{}" unless they were readable; Name
	// "invalid_tool_call" when no offered name could be read). Each has an
	// ID; the caller records the call and answers it with an is_error
	// result carrying Err's message, never running it.
	Invalid []InvalidCall
	// Text is the visible answer: the message without reasoning and call
	// markup, trimmed. When nothing was recovered it is the input minus
	// reasoning.
	Text string
	// Reasoning is the text of a leading <think> block or of everything
	// before an orphan "</think>" (B05), trimmed.
	Reasoning string
	// Warnings explain what was seen but not recovered (unknown tool,
	// example call, value that did not fit its schema).
	Warnings []string
}

// InvalidCall is a call the model meant to make but that cannot run:
// unusable arguments (*ArgError), a body that is not a call, or a tool
// that was not offered (*CallError).
type InvalidCall struct {
	Call llm.ToolCall
	Err  error
}

// invalidName is the Name of an InvalidCall whose markup named no offered
// tool that could be read.
const invalidName = "invalid_tool_call"

// CallError says why call markup that stood on its own (QA report: tagged
// calls must never end the run silently) was not run: its body could not
// be read as a call, or it named a tool that was not offered. Its message
// is written for the model, which gets it as the call's error result.
type CallError struct {
	// Unknown: the call named Tool, which is not among Available (nor
	// their wire names or an unambiguous near miss of one).
	Unknown   bool
	Tool      string
	Available []string
	// Ambiguous lists the offered tools an Unknown name could equally
	// mean ("read-file" with both read_file and Read_File offered); the
	// call is not guessed.
	Ambiguous []string
	// Detail says what could not be parsed (when !Unknown).
	Detail string
}

func (e *CallError) Error() string {
	if e.Unknown {
		if len(e.Ambiguous) > 0 {
			return fmt.Sprintf("unknown tool %s: it could mean %s; call one by its exact name; available: %s", e.Tool, strings.Join(e.Ambiguous, " or "), strings.Join(e.Available, ", "))
		}
		return fmt.Sprintf("unknown tool %s; available: %s", e.Tool, strings.Join(e.Available, ", "))
	}
	return fmt.Sprintf(`could not parse the call: %s; write {"name": "<tool>", "arguments": {<JSON object>}}`, e.Detail)
}

// Markup that starts a tool call in text.
const (
	tagToolCall      = "<tool_call>"
	tagToolCallClose = "</tool_call>"
	tagMistral       = "[TOOL_CALLS]"
	tagMistralArgs   = "[ARGS]"
	tagMistralCallID = "[CALL_ID]"
	tagThink         = "<think>"
	tagThinkClose    = "</think>"
	tagPythonTag     = "<|python_tag|>"
)

// Recover finds tool calls written as text in an assistant message (the
// fallback for servers that return no structured tool_calls). offered is
// the names of the tools the request offered; with none, no call is
// recovered (the reasoning split still applies). Formats, in order of
// trust:
//
//  1. tagged markup anywhere outside code: Hermes/Qwen <tool_call>{json}
//     </tool_call> (closing tag optional at the end), Qwen3-Coder
//     <function=..> blocks, Mistral [TOOL_CALLS]name[ARGS]{json} and
//     [TOOL_CALLS][{"name":..,"arguments":..}];
//  2. when no tag is present: a message that is wholly one or more call
//     objects (optionally in one ```json fence), or a short lead-in
//     sentence followed by one fenced block of calls that ends the message.
//
// Tagged markup counts only when it stands on its own: nothing but
// whitespace (or earlier call markup) before it on its line, and the rest
// of the line after it does not go on with the sentence (lowercase word or
// ",;:.-"). A tag inside a sentence is prose (QA report: a quoted
// "[TOOL_CALLS][...]" or inline <tool_call> was executed). Markup that
// stands on its own but cannot be read as a call (a closed <tool_call>
// block, or a tag followed by "{" or "["), or that names a tool not
// offered, is returned in Invalid with a *CallError so the model is told,
// never run. Inside <tool_call>, the Python form name(key="v", n=1) is read
// too.
//
// A call inside inline code or a fence, or introduced as an example ("for
// example", "like this"...), stays text. Untagged JSON naming a tool not
// offered stays text with a warning (B01 negative 5).
//
// A call names an offered tool when it writes the name as offered, the
// wire name providers send it under (schema.PrepareTools: "a.b" goes out
// as "a_b", long names end in a hash), or a near miss that fits exactly
// one offered tool: other case or separators ("Read-File" for read_file)
// and a namespace in front ("functions.", "default_api.", "tools."). The
// call then carries the offered name and a warning says it was read so. A
// near miss that fits two tools is not guessed: it is unknown, and its
// *CallError lists both.
func Recover(text string, offered []string, opts Options) Result {
	return recoverText(text, offered, opts, false)
}

// recoverText is Recover; anyName takes every tool name as offered, which
// gives the same Text for tagged markup (StreamFilter without Offered).
func recoverText(text string, offered []string, opts Options, anyName bool) Result {
	var res Result
	res.Reasoning, text = splitReasoning(text, opts.PrefilledThink)
	ids := opts.IDs
	if ids == nil {
		ids = NewIDGen()
	}
	if len(offered) == 0 && !anyName {
		res.Text = strings.TrimSpace(text)
		return res
	}
	r := recoverer{tools: newToolNames(offered, anyName), names: offered, opts: opts, ids: ids, res: &res}
	if calls, kept, ok := r.tagged(text); ok {
		r.accept(calls)
		res.Text = tidy(kept)
		return res
	}
	if calls, lead, ok := untagged(text); ok {
		if r.allOffered(calls) {
			r.accept(calls)
			res.Text = tidy(lead)
			return res
		}
	}
	res.Text = strings.TrimSpace(text)
	return res
}

type recoverer struct {
	tools *toolNames
	names []string // offered, in the caller's order
	opts  Options
	ids   *IDGen
	res   *Result
}

func (r *recoverer) newID(short bool) string {
	if r.opts.ShortIDs || short {
		return r.ids.NextShort()
	}
	return r.ids.Next()
}

// allOffered reports whether every call names an offered tool, warning
// about those that do not (B01 negative 5: never execute them). Names are
// resolved as by resolve and rewritten to the offered name.
func (r *recoverer) allOffered(calls []rawCall) bool {
	ok := true
	for i, c := range calls {
		real, amb, found := r.resolve(c.name)
		if !found {
			r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("text names tool %q, which was not offered%s; left as text", c.name, ambiguity(amb)))
			ok = false
			continue
		}
		calls[i].name = real
	}
	return ok
}

// resolve maps a name written in text to the offered tool it stands for
// (the name itself, its wire name, or an unambiguous near miss such as
// "Read_File" or "functions.read_file"), warning when it was not exact.
func (r *recoverer) resolve(name string) (string, []string, bool) {
	real, amb, ok := r.tools.resolve(name)
	if ok && real != name {
		r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("text names tool %q; read as offered tool %q", name, real))
	}
	return real, amb, ok
}

// schemaFor returns the argument schema of the offered tool name stands
// for, nil when there is none.
func (r *recoverer) schemaFor(name string) json.RawMessage {
	if real, _, ok := r.tools.resolve(name); ok {
		return r.opts.Schemas[real]
	}
	return nil
}

func ambiguity(tools []string) string {
	if len(tools) == 0 {
		return ""
	}
	return " (it could mean " + strings.Join(tools, " or ") + ")"
}

// accept files tagged calls: runnable ones in Calls, the rest in Invalid.
func (r *recoverer) accept(calls []rawCall) {
	for _, c := range calls {
		tc := llm.ToolCall{ID: r.newID(c.short), Name: c.name, Arguments: c.args, Recovered: true}
		real, amb, offered := r.resolve(c.name)
		if offered {
			tc.Name = real
		}
		switch {
		case c.guessed:
			if !offered {
				tc.Name = invalidName
			}
			tc.Arguments = "{}"
			r.res.Warnings = append(r.res.Warnings, "call markup that is not a call: "+c.err.Error())
			r.res.Invalid = append(r.res.Invalid, InvalidCall{Call: tc, Err: c.err})
			continue
		case !offered:
			r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("text names tool %q, which was not offered%s; answered as unknown, not executed", c.name, ambiguity(amb)))
			if c.err != nil || c.args == "" {
				tc.Arguments = "{}"
			}
			r.res.Invalid = append(r.res.Invalid, InvalidCall{Call: tc, Err: &CallError{Unknown: true, Tool: c.name, Available: r.names, Ambiguous: amb}})
			continue
		}
		if c.err != nil {
			tc.Arguments = c.raw
			r.res.Invalid = append(r.res.Invalid, InvalidCall{Call: tc, Err: c.err})
			continue
		}
		r.res.Calls = append(r.res.Calls, tc)
	}
}

// tagged scans text for call markup outside code spans. It returns the
// calls, the text with the markup removed, and whether any markup was
// taken. Markup introduced as an example leaves the whole text alone.
func (r *recoverer) tagged(text string) ([]rawCall, string, bool) {
	code := codeSpans(text)
	var calls []rawCall
	var kept strings.Builder
	last, found := 0, false
	for i := 0; i < len(text); {
		at, tag := nextTag(text, i)
		if at < 0 {
			break
		}
		if inSpans(code, at) || !lineOpen(text, last, at) {
			i = at + len(tag)
			continue
		}
		got, end, warns, ok := parseTagged(text[at:], tag, r.schemaFor)
		if !ok || continuesSentence(text[at+end:]) {
			i = at + len(tag) // a tag quoted in prose
			continue
		}
		if leadIsExample(text, at) && !found {
			r.res.Warnings = append(r.res.Warnings, "call markup introduced as an example; left as text")
			return nil, "", false
		}
		r.res.Warnings = append(r.res.Warnings, warns...)
		kept.WriteString(text[last:at])
		calls = append(calls, got...)
		found = true
		last = at + end
		i = last
	}
	if !found {
		return nil, "", false
	}
	kept.WriteString(text[last:])
	return calls, kept.String(), true
}

func nextTag(text string, from int) (int, string) {
	best, tag := -1, ""
	for _, t := range []string{tagToolCall, funcOpen, tagMistral} {
		if k := strings.Index(text[from:], t); k >= 0 && (best < 0 || from+k < best) {
			best, tag = from+k, t
		}
	}
	return best, tag
}

// lineOpen reports whether only whitespace stands between the start of
// the line holding at (or from, the end of earlier call markup, if later)
// and at.
func lineOpen(text string, from, at int) bool {
	ls := strings.LastIndexByte(text[:at], '\n') + 1
	ls = max(ls, from)
	return strings.TrimSpace(text[ls:at]) == ""
}

// continuesSentence reports whether the rest of the line in after goes on
// with a sentence: it starts with a lowercase letter or with punctuation
// that joins clauses.
func continuesSentence(after string) bool {
	line, _, _ := strings.Cut(after, "\n")
	line = strings.TrimLeft(line, " \t\r")
	if line == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(line)
	return unicode.IsLower(r) || strings.ContainsRune(",;:.-–—)", r)
}

// parseTagged parses the markup that starts s and returns the bytes used.
// ok is false when the tag is not followed by anything that reads as a
// call attempt (then it is prose).
func parseTagged(s, tag string, schemas func(string) json.RawMessage) ([]rawCall, int, []string, bool) {
	switch tag {
	case tagToolCall:
		body := s[len(tag):]
		end, closed := len(s), false
		if k := strings.Index(body, tagToolCallClose); k >= 0 {
			end = len(tag) + k + len(tagToolCallClose)
			body, closed = body[:k], true
		}
		inner := strings.TrimSpace(body)
		if strings.HasPrefix(inner, funcOpen) {
			c, _, w := parseFunction(inner, schemas)
			return []rawCall{c}, end, w, true
		}
		if calls, ok := jsonCallSequence(inner, false); ok {
			return calls, end, nil, true
		}
		if name, args, err, looks := parsePyCall(inner); looks {
			if err != nil {
				return []rawCall{{name: name, raw: inner, guessed: true, err: &CallError{Detail: fmt.Sprintf("%s(...): %v", name, err)}}}, end, nil, true
			}
			return []rawCall{{name: name, args: args, raw: inner}}, end, nil, true
		}
		if inner == "" {
			if !closed {
				return nil, 0, nil, false
			}
			return nil, end, []string{"empty <tool_call> block"}, true
		}
		if closed || inner[0] == '{' || inner[0] == '[' {
			return []rawCall{notACall(inner)}, end, nil, true
		}
		return nil, 0, nil, false
	case funcOpen:
		c, n, w := parseFunction(s, schemas)
		if rest := s[n:]; strings.HasPrefix(strings.TrimLeft(rest, " \t\r\n"), tagToolCallClose) {
			n += len(rest) - len(strings.TrimLeft(rest, " \t\r\n")) + len(tagToolCallClose)
		}
		if c.name == "" {
			c.guessed = true
			if c.err == nil {
				c.err = &CallError{Detail: "<function=...> has no tool name"}
			}
		}
		return []rawCall{c}, n, w, true
	default:
		calls, n, w, ok := parseMistral(s)
		for i := range calls {
			calls[i].short = true
		}
		return calls, n, w, ok
	}
}

// notACall is the Invalid entry for a call attempt whose body could not be
// read; its name is the one the body mentions, if any.
func notACall(body string) rawCall {
	name := ""
	if m := nameRe.FindStringSubmatch(body); m != nil {
		name = m[1]
	} else if !strings.HasPrefix(body, "{") && !strings.HasPrefix(body, "[") {
		name = leadingName(body)
	}
	detail := fmt.Sprintf("%q is not a call object", clip(body, 60))
	return rawCall{name: name, raw: body, guessed: true, err: &CallError{Detail: detail}}
}

var mistralNameRe = lazyregexp.New(`^\s*([A-Za-z0-9_.\-]+)\s*(\[CALL_ID\][A-Za-z0-9_\-]*\s*)?(\[ARGS\])?\s*`)

// parseMistral parses "[TOOL_CALLS]" followed by a JSON array or object of
// calls, or by one or more "name[ARGS]{json}" (v11+ templates), each
// optionally preceded by its own "[TOOL_CALLS]".
func parseMistral(s string) ([]rawCall, int, []string, bool) {
	pos := len(tagMistral)
	rest := strings.TrimLeft(s[pos:], " \t\r\n")
	pos = len(s) - len(rest)
	if strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, "{") {
		end, _ := scanValue(rest)
		if calls, ok := jsonCallSequence(rest[:end], false); ok {
			return calls, pos + end, nil, true
		}
		return []rawCall{notACall(rest[:end])}, pos + end, nil, true
	}
	var calls []rawCall
	for {
		m := mistralNameRe.FindStringSubmatchIndex(s[pos:])
		if m == nil || (m[6] < 0 && !strings.HasPrefix(s[pos+m[1]:], "{")) {
			break
		}
		name := s[pos+m[2] : pos+m[3]]
		pos += m[1]
		end, _ := scanValue(s[pos:])
		raw := s[pos : pos+end]
		c := rawCall{name: name, raw: raw}
		if !strings.HasPrefix(raw, "{") {
			c.err = &ArgError{Kind: ErrTruncated, Detail: "arguments missing after [ARGS]"}
		} else {
			c.args, c.err = RepairArguments(raw)
		}
		calls = append(calls, c)
		pos += end
		next := strings.TrimLeft(s[pos:], " \t\r\n")
		if strings.HasPrefix(next, tagMistral) {
			pos = len(s) - len(next) + len(tagMistral)
			continue
		}
		if mm := mistralNameRe.FindStringSubmatch(next); mm != nil && mm[3] != "" {
			pos = len(s) - len(next)
			continue
		}
		break
	}
	if len(calls) == 0 {
		return nil, 0, nil, false
	}
	return calls, pos, nil, true
}

// untagged handles messages without call markup: the whole message is call
// objects (optionally fenced), or a short lead-in sentence is followed by a
// single fenced block of call objects that ends the message. It returns the
// calls and the prose to keep.
func untagged(text string) ([]rawCall, string, bool) {
	t := strings.TrimSpace(text)
	// Llama 3.x opens a JSON call with this special token.
	t = strings.TrimSpace(strings.TrimPrefix(t, tagPythonTag))
	if inner, fenced := unfence(t); fenced || strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if calls, ok := jsonCallSequence(inner, true); ok {
			return calls, "", true
		}
		return nil, "", false
	}
	// Lead-in prose + one trailing fence.
	if !strings.HasSuffix(t, "```") {
		return nil, "", false
	}
	open := strings.LastIndex(t[:len(t)-3], "\n```")
	if open < 0 {
		return nil, "", false
	}
	lead := t[:open]
	if !leadIntroducesCall(lead) {
		return nil, "", false
	}
	inner, fenced := unfence(t[open+1:])
	if !fenced {
		return nil, "", false
	}
	if calls, ok := jsonCallSequence(inner, true); ok {
		return calls, lead, true
	}
	return nil, "", false
}

// leadIntroducesCall reports whether lead, the prose before a fenced
// block that ends a message, may introduce calls: one short paragraph
// (at most 300 bytes) with no fence of its own and no example marker.
func leadIntroducesCall(lead string) bool {
	return len(lead) <= 300 && !strings.Contains(lead, "```") && !strings.Contains(lead, "\n\n") && !hasExampleMarker(lead)
}

// splitReasoning separates a leading <think> block, or, for templates that
// pre-fill "<think>", everything before an orphan "</think>" (B05). Tags
// inside code spans are text.
func splitReasoning(text string, prefilled bool) (reasoning, rest string) {
	trimmed := strings.TrimLeft(text, " \t\r\n")
	if strings.HasPrefix(trimmed, tagThink) {
		body := trimmed[len(tagThink):]
		if k := strings.Index(body, tagThinkClose); k >= 0 {
			return strings.TrimSpace(body[:k]), body[k+len(tagThinkClose):]
		}
		return strings.TrimSpace(body), ""
	}
	code := codeSpans(text)
	for from := 0; ; {
		k := strings.Index(text[from:], tagThinkClose)
		if k < 0 {
			return "", text
		}
		at := from + k
		if inSpans(code, at) {
			from = at + len(tagThinkClose)
			continue
		}
		open := strings.Index(text[:at], tagThink)
		if prefilled || open < 0 || inSpans(code, open) {
			return strings.TrimSpace(text[:at]), text[at+len(tagThinkClose):]
		}
		return "", text
	}
}

var blankRuns = lazyregexp.New(`\n[ \t]*\n(?:[ \t]*\n)+`)

// tidy trims text left after removing markup and folds runs of blank
// lines into one.
func tidy(s string) string {
	return strings.TrimSpace(blankRuns.ReplaceAllString(s, "\n\n"))
}
