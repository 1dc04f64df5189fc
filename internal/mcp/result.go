package mcp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/images"
	"github.com/zero-agent/zero/internal/llm"
)

// Output cap: Claude Code's MAX_MCP_OUTPUT_TOKENS, 25,000 tokens by
// default (https://docs.claude.com/en/docs/claude-code/mcp#mcp-output-limits-and-warnings),
// counted here at 4 bytes a token. Results of 170k tokens are known
// (issue 12); the agent's output pipeline applies its own budget after
// this, so the cap is only a guard against one server flooding memory.
const (
	defaultMaxOutputTokens = 25000
	bytesPerToken          = 4
	maxErrorLineQuote      = 1000
)

// maxOutputBytes reads MAX_MCP_OUTPUT_TOKENS (a positive integer) from
// getenv, falling back to the default.
func maxOutputBytes(getenv func(string) string) int {
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("MAX_MCP_OUTPUT_TOKENS"))); err == nil && n > 0 {
		return n * bytesPerToken
	}
	return defaultMaxOutputTokens * bytesPerToken
}

// resultText renders a tool result as the text the model reads: text parts
// as they are, images and audio described (resultImages sends images as
// image parts too, to providers that take them), embedded resources' text under their URI,
// resource links by URI, and structured content as JSON when there is no
// other content.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image: %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %d bytes]", c.MIMEType, len(c.Data)))
		case *mcp.EmbeddedResource:
			parts = append(parts, resourceText(c.Resource))
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource link: %s %s]", c.URI, c.Name))
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

// resultImages are the result's images the model can be sent: PNG, JPEG,
// GIF or WebP by their bytes, within the strictest provider limit
// (Anthropic's; images.LimitFor), since the result is kept in the
// session whatever model reads it later. The others stay described in
// the text only.
func resultImages(res *mcp.CallToolResult) []llm.Image {
	var out []llm.Image
	for _, c := range res.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			if img, err := images.Check("image", ic.Data, images.LimitFor("anthropic")); err == nil {
				out = append(out, img)
			}
		}
	}
	return out
}

func resourceText(r *mcp.ResourceContents) string {
	switch {
	case r == nil:
		return "[resource: empty]"
	case r.Text != "":
		return fmt.Sprintf("[resource: %s]\n%s", r.URI, r.Text)
	default:
		return fmt.Sprintf("[resource: %s, %s, %d bytes]", r.URI, r.MIMEType, len(r.Blob))
	}
}

// capOutput keeps text within max bytes: its head, a marker saying how
// much was cut and how to raise the cap, and the last line that looks like
// an error (a long build or test log ends in the line that matters). It
// returns text unchanged when it fits.
func capOutput(text string, max int) string {
	if len(text) <= max {
		return text
	}
	errLine := lastErrorLine(text[max/2:])
	if quote := min(maxErrorLineQuote, max/4); len(errLine) > quote {
		cut := len(errLine) - quote
		for cut < len(errLine) && !utf8.RuneStart(errLine[cut]) {
			cut++
		}
		errLine = "…" + errLine[cut:]
	}
	headLen := max - len(errLine) - 200 // the marker and the label take under 200 bytes
	if headLen < max/4 {
		headLen = max / 4
	}
	head := validUTF8Prefix(text[:headLen])
	marker := fmt.Sprintf("\n[… %d of %d bytes of MCP output cut; the cap is MAX_MCP_OUTPUT_TOKENS=%d tokens …]",
		len(text)-len(head), len(text), max/bytesPerToken)
	if errLine == "" {
		return head + marker
	}
	return head + marker + "\n[last error line] " + errLine
}

// errorWords mark a line worth keeping when output is cut.
var errorWords = []string{"error", "fail", "fatal", "panic", "exception", "traceback"}

// lastErrorLine is the last non-empty line of text containing an error
// word (case-insensitive), or "".
func lastErrorLine(text string) string {
	for end := len(text); end > 0; {
		start := strings.LastIndexByte(text[:end], '\n') + 1
		line := strings.TrimSpace(text[start:end])
		lower := strings.ToLower(line[max(0, len(line)-4096):])
		for _, w := range errorWords {
			if strings.Contains(lower, w) {
				return line
			}
		}
		end = start - 1
	}
	return ""
}

// validUTF8Prefix drops a rune cut in half at the end of s.
func validUTF8Prefix(s string) string {
	for i := 0; i < utf8.UTFMax-1 && len(s) > 0; i++ {
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}
