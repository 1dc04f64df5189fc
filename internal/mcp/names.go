package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
)

// maxToolName is the longest tool name every provider accepts: OpenAI and
// Gemini allow 64 characters of [a-zA-Z0-9_-], Anthropic 128
// (internal/llm/schema MaxNameLen; case B31 provider_errors.txt).
const maxToolName = 64

// toolName is the name Zero offers for a server's tool: Claude Code's
// mcp__<server>__<tool> (https://docs.claude.com/en/docs/claude-code/mcp),
// so users' hook matchers and permission rules carry over, with every
// character outside [A-Za-z0-9_-] turned into '_'.
func toolName(server, tool string) string {
	return sanitize("mcp__" + server + "__" + tool)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// hashedName cuts name so that "_" and 8 hex digits of a SHA-256 of the
// server and tool fit in maxToolName. The hash is of the real names, so
// the same tool gets the same name in every session.
func hashedName(name, server, tool string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	h := hex.EncodeToString(sum[:4])
	if len(name) > maxToolName-len(h)-1 {
		name = name[:maxToolName-len(h)-1]
	}
	return name + "_" + h
}

// toolRef is a server's tool by its real names.
type toolRef struct{ Server, Tool string }

// nameTable hands out offered names and maps them back. A name once given
// stays with its tool for the life of the table (reconnects and list
// refreshes keep it), so requests stay stable for prompt caches.
type nameTable struct {
	mu     sync.Mutex
	byName map[string]toolRef
	byRef  map[toolRef]string
}

// name returns the offered name of server's tool: toolName, or, when that
// is longer than maxToolName or already another tool's (two names that
// sanitize alike), a cut name with a hash suffix.
func (t *nameTable) name(server, tool string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byName == nil {
		t.byName, t.byRef = map[string]toolRef{}, map[toolRef]string{}
	}
	ref := toolRef{server, tool}
	if n, ok := t.byRef[ref]; ok {
		return n
	}
	n := toolName(server, tool)
	if _, taken := t.byName[n]; taken || len(n) > maxToolName {
		n = hashedName(n, server, tool)
		for i := 0; ; i++ {
			if _, taken := t.byName[n]; !taken {
				break
			}
			n = hashedName(n, server, tool+strings.Repeat("\x00", i+1))
		}
	}
	t.byName[n], t.byRef[ref] = ref, n
	return n
}

// lookup maps an offered name back to the server's tool.
func (t *nameTable) lookup(name string) (toolRef, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ref, ok := t.byName[name]
	return ref, ok
}
