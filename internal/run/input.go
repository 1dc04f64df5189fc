package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/contextmgr"
)

// Piped input larger than this, or than a quarter of the window at the
// session's bytes-per-token ratio, is kept in a file and sent cut: a 3 MB
// build log would otherwise fill any window, fail the request and stay
// in the session, so that no later prompt fits either.
// Of the part sent, a fifth is the head (what a log's start says: the
// command, the first error) and the rest the tail (where its final errors
// are).
const (
	inputInlineMax = 64 << 10
	inputInlineMin = 1 << 10
)

// WithInput is prompt followed by text piped on stdin, delimited and
// labelled so the model reads it as input to the task, not as the task
// (`cat log | claude -p "summarize"` reads the same way). Input too large
// for the window is written to stdin-N.txt in the session's folder (which
// read_file may open) and sent as its head and tail around a marker that
// names the file, its size and how to read the rest. Empty input leaves
// the prompt as it is.
func (s *Session) WithInput(prompt, piped string) (string, error) {
	piped = strings.TrimRight(piped, "\n")
	if strings.TrimSpace(piped) == "" {
		return prompt, nil
	}
	if limit := s.inputInline(); len(piped) > limit {
		cut, err := s.keepInput(piped, limit)
		if err != nil {
			return "", err
		}
		piped = cut
	}
	return prompt + "\n\nInput piped on stdin:\n<stdin>\n" + piped + "\n</stdin>", nil
}

// inputInline is the most piped bytes sent whole.
func (s *Session) inputInline() int {
	limit := inputInlineMax
	if w := s.agent.ContextReport(); w.WindowTokens > 0 {
		limit = min(limit, int(float64(w.WindowTokens/4)*w.BytesPerToken))
	}
	return max(limit, inputInlineMin)
}

// keepInput writes piped to the session folder and returns its cut form,
// about limit bytes of it.
func (s *Session) keepInput(piped string, limit int) (string, error) {
	dir := s.log.Dir()
	path := ""
	for n := 1; ; n++ {
		path = filepath.Join(dir, fmt.Sprintf("stdin-%d.txt", n))
		if _, err := os.Stat(path); os.IsNotExist(err) {
			break
		}
	}
	if err := os.WriteFile(path, []byte(piped), 0o600); err != nil {
		return "", fmt.Errorf("keeping the piped input: %w", err)
	}
	head := piped[:lineEnd(piped, limit/5)]
	tail := piped[lineStart(piped, len(piped)-limit*4/5):]
	lines := strings.Count(piped, "\n") + 1
	omitted := lines - strings.Count(head, "\n") - strings.Count(tail, "\n") - 1
	marker := fmt.Sprintf("[... %d lines (%s) omitted; the whole input (%d lines, %s) is in %s: read_file it with offset and limit, or grep it ...]",
		omitted, contextmgr.HumanBytes(len(piped)-len(head)-len(tail)), lines, contextmgr.HumanBytes(len(piped)), path)
	return head + "\n" + marker + "\n" + tail, nil
}

// lineEnd is the end of the last whole line within s[:n] (n when s[:n]
// holds no line break).
func lineEnd(s string, n int) int {
	n = min(n, len(s))
	if i := strings.LastIndexByte(s[:n], '\n'); i > 0 {
		return i
	}
	return n
}

// lineStart is the start of the first whole line within s[n:].
func lineStart(s string, n int) int {
	n = max(n, 0)
	if i := strings.IndexByte(s[n:], '\n'); i >= 0 && n+i+1 < len(s) {
		return n + i + 1
	}
	return n
}
