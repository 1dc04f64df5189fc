// Package style holds the TUI's few text styles as plain SGR sequences over
// the terminal's own 16-colour palette, so output follows the user's theme
// and costs nothing at start-up. Bubble Tea downgrades them for terminals
// without colour.
//
// Only already-sanitised text may be styled: a style wraps text, it never
// cleans it.
package style

// A Style wraps text in an SGR on/off pair.
type Style struct{ on string }

// Render returns s styled; an empty s stays empty.
func (st Style) Render(s string) string {
	if s == "" || st.on == "" {
		return s
	}
	return st.on + s + "\x1b[0m"
}

// Styles used across the TUI.
var (
	Plain   = Style{}
	Bold    = Style{"\x1b[1m"}
	Dim     = Style{"\x1b[2m"}
	Italic  = Style{"\x1b[3m"}
	Heading = Style{"\x1b[1;36m"}
	Code    = Style{"\x1b[36m"}
	Accent  = Style{"\x1b[35m"}
	Good    = Style{"\x1b[32m"}
	Bad     = Style{"\x1b[31m"}
	Warn    = Style{"\x1b[33m"}
	Added   = Style{"\x1b[32m"}
	Removed = Style{"\x1b[31m"}
	Keyword = Style{"\x1b[35m"}
	String  = Style{"\x1b[32m"}
	Comment = Style{"\x1b[2;3m"}
	Number  = Style{"\x1b[33m"}
	User    = Style{"\x1b[1;34m"}
)
