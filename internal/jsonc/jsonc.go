// Package jsonc reads the JSON-with-comments files Zero and Claude Code
// keep (config.json, settings.json, hooks.json, plugin.json, ...) the
// same way everywhere: comments and trailing commas (HuJSON), and a
// leading UTF-8 byte order mark, which Windows editors such as Notepad
// write, taken as whitespace rather than refused.
package jsonc

import (
	"bytes"
	"errors"
	"strings"

	"github.com/tailscale/hujson"
)

// BOM is the UTF-8 byte order mark.
var BOM = []byte("\xef\xbb\xbf")

// Standardize returns data as standard JSON: comments and trailing commas
// become spaces and a leading BOM three spaces, so every byte offset (and
// every line and column in an error) is the file's. data is not changed.
// An error reads "line L, column C: what is wrong", without the parser's
// name.
func Standardize(data []byte) ([]byte, error) {
	b := bytes.Clone(data)
	if bytes.HasPrefix(b, BOM) {
		copy(b, "   ")
	}
	out, err := hujson.Standardize(b)
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "hujson: "))
	}
	return out, nil
}
