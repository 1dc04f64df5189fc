package textcalls

import (
	"crypto/rand"
	"sync"
)

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// IDGen hands out tool-call ids that are unique for the whole session: it
// draws crypto-random ids and remembers every id it issued or was told
// about (Observe), drawing again on the rare clash. Safe for concurrent
// use. Keep one per session. The zero value is not ready; use NewIDGen.
type IDGen struct {
	mu   sync.Mutex
	seen map[string]bool
}

// NewIDGen returns an empty generator.
func NewIDGen() *IDGen { return &IDGen{seen: map[string]bool{}} }

// Next returns "call_" followed by 12 random alphanumerics.
func (g *IDGen) Next() string { return g.draw("call_", 12) }

// NextShort returns exactly 9 random alphanumerics, the only shape some
// Mistral chat templates accept as a tool_call id (case B06 expected.txt).
func (g *IDGen) NextShort() string { return g.draw("", 9) }

// Observe records an id issued elsewhere (a server's own id, or one read
// back from a resumed session) so Next never repeats it.
func (g *IDGen) Observe(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seen[id] = true
}

func (g *IDGen) draw(prefix string, n int) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		id := prefix + randomAlnum(n)
		if !g.seen[id] {
			g.seen[id] = true
			return id
		}
	}
}

// randomAlnum returns n characters from alnum, drawn without modulo bias.
func randomAlnum(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, 2*n)
	for len(out) < n {
		_, _ = rand.Read(buf) // crypto/rand.Read never fails (Go 1.24+)
		for _, c := range buf {
			if c < 248 { // 248 = 4*62: keeps the draw uniform
				out = append(out, alnum[int(c)%len(alnum)])
				if len(out) == n {
					break
				}
			}
		}
	}
	return string(out)
}
