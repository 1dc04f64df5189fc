package openai

import (
	"crypto/rand"
	"crypto/sha256"
)

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newCallID returns a fresh tool-call id for a server that sent none (case
// B06): "call_" plus 9 random alphanumerics, or exactly 9 alphanumerics
// for Mistral-family templates, which reject any other shape.
func newCallID(mistral bool) string {
	var b [9]byte
	rand.Read(b[:]) // never fails (crypto/rand, Go 1.24+)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	if mistral {
		return string(b[:])
	}
	return "call_" + string(b[:])
}

// isMistralID reports whether id is exactly 9 ASCII alphanumerics.
func isMistralID(id string) bool {
	if len(id) != 9 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// mistralID maps any id to a 9-alphanumeric one, deterministically, so a
// call and its result still match after the rewrite (history that came
// from another provider, e.g. "toolu_..." or "call_...").
func mistralID(id string) string {
	if isMistralID(id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	b := make([]byte, 9)
	for i := range b {
		b[i] = alnum[int(sum[i])%len(alnum)]
	}
	return string(b)
}
