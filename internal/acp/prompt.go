package acp

import (
	"fmt"
	"net/url"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
)

// promptText is an ACP prompt as the one text Zero's run layer takes:
// text blocks as they are, an embedded resource's text inlined under its
// URI (the editor's context, unsaved edits included), a resource link as
// the path or URI the model can read with its tools. Images, audio and
// blob resources are refused: initialize does not advertise them.
func promptText(blocks []acpsdk.ContentBlock) (string, error) {
	var b strings.Builder
	for _, c := range blocks {
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.ResourceLink != nil:
			fmt.Fprintf(&b, "\n[%s](%s)\n", c.ResourceLink.Name, linkTarget(c.ResourceLink.Uri))
		case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
			r := c.Resource.Resource.TextResourceContents
			fmt.Fprintf(&b, "\n<context uri=%q>\n%s\n</context>\n", linkTarget(r.Uri), strings.TrimRight(r.Text, "\n"))
		case c.Resource != nil:
			return "", fmt.Errorf("binary embedded resources are not supported")
		case c.Image != nil:
			return "", fmt.Errorf("images are not supported in prompts")
		case c.Audio != nil:
			return "", fmt.Errorf("audio is not supported in prompts")
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		return "", fmt.Errorf("the prompt is empty")
	}
	return b.String(), nil
}

// linkTarget is a file: URI's path (what Zero's tools take), any other
// URI as it is.
func linkTarget(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" && u.Path != "" {
		return u.Path
	}
	return uri
}
