package acp

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
)

// rawImage is an image block's bytes, checked by the run layer.
type rawImage struct {
	name string
	data []byte
}

// promptText is an ACP prompt as the text and images Zero's run layer
// takes: text blocks as they are, an embedded resource's text inlined
// under its URI (the editor's context, unsaved edits included), a
// resource link as the path or URI the model can read with its tools,
// images decoded. Audio and blob resources are refused: initialize does
// not advertise them.
func promptText(blocks []acpsdk.ContentBlock) (string, []rawImage, error) {
	var b strings.Builder
	var imgs []rawImage
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
			return "", nil, fmt.Errorf("binary embedded resources are not supported")
		case c.Image != nil:
			data, err := base64.StdEncoding.DecodeString(c.Image.Data)
			if err != nil {
				return "", nil, fmt.Errorf("image %d: its data is not base64: %v", len(imgs)+1, err)
			}
			name := fmt.Sprintf("image %d", len(imgs)+1)
			if c.Image.Uri != nil {
				name = linkTarget(*c.Image.Uri)
			}
			imgs = append(imgs, rawImage{name, data})
		case c.Audio != nil:
			return "", nil, fmt.Errorf("audio is not supported in prompts")
		}
	}
	if strings.TrimSpace(b.String()) == "" && len(imgs) == 0 {
		return "", nil, fmt.Errorf("the prompt is empty")
	}
	return b.String(), imgs, nil
}

// linkTarget is a file: URI's path (what Zero's tools take), any other
// URI as it is.
func linkTarget(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" && u.Path != "" {
		return u.Path
	}
	return uri
}
