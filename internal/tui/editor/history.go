package editor

import "strings"

// History is the list of submitted inputs, oldest first, with a browsing
// position for ↑/↓ recall. The zero value is empty.
type History struct {
	entries []string
	// at is the browsing index; len(entries) means "the draft".
	at    int
	draft string
}

// Add appends a submitted entry (skipping blanks and an immediate repeat)
// and ends browsing.
func (h *History) Add(s string) {
	if strings.TrimSpace(s) != "" && (len(h.entries) == 0 || h.entries[len(h.entries)-1] != s) {
		h.entries = append(h.entries, s)
	}
	h.at = len(h.entries)
}

// Len returns the number of entries.
func (h *History) Len() int { return len(h.entries) }

// Prev returns the entry before the browsing position, saving current as
// the draft when browsing starts. ok is false at the oldest entry.
func (h *History) Prev(current string) (entry string, ok bool) {
	if h.at > len(h.entries) {
		h.at = len(h.entries)
	}
	if h.at == 0 {
		return "", false
	}
	if h.at == len(h.entries) {
		h.draft = current
	}
	h.at--
	return h.entries[h.at], true
}

// Next returns the entry after the browsing position, or the saved draft
// past the newest. ok is false when not browsing.
func (h *History) Next() (entry string, ok bool) {
	if h.at >= len(h.entries) {
		return "", false
	}
	h.at++
	if h.at == len(h.entries) {
		return h.draft, true
	}
	return h.entries[h.at], true
}

// Search returns the index of the newest entry older than before that
// contains query (case-sensitive substring), or -1. Pass Len() to start
// from the newest.
func (h *History) Search(query string, before int) int {
	if before > len(h.entries) {
		before = len(h.entries)
	}
	for i := before - 1; i >= 0; i-- {
		if strings.Contains(h.entries[i], query) {
			return i
		}
	}
	return -1
}

// Entry returns entry i.
func (h *History) Entry(i int) string { return h.entries[i] }
