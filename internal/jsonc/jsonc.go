// Package jsonc reads the JSON-with-comments files Zero and Claude Code
// keep (config.json, settings.json, hooks.json, plugin.json, ...) the
// same way everywhere: comments and trailing commas (HuJSON), and a
// leading UTF-8 byte order mark, which Windows editors such as Notepad
// write, taken as whitespace rather than refused.
package jsonc

import (
	"bytes"

	"github.com/tailscale/hujson"
)

// BOM is the UTF-8 byte order mark.
var BOM = []byte("\xef\xbb\xbf")

// Standardize returns data as standard JSON: comments and trailing commas
// become spaces and a leading BOM three spaces, so every byte offset (and
// every line and column in an error) is the file's. data is not changed.
func Standardize(data []byte) ([]byte, error) {
	b := bytes.Clone(data)
	if bytes.HasPrefix(b, BOM) {
		copy(b, "   ")
	}
	return hujson.Standardize(b)
}
