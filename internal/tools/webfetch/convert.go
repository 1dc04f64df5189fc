package webfetch

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// sniffLen is how many leading body bytes decide the kind of a response
// without a usable Content-Type (http.DetectContentType reads 512).
const sniffLen = 512

type bodyKind int

const (
	kindText bodyKind = iota
	kindHTML
	kindBinary
)

// classify decides from the Content-Type header (and, when it is missing
// or application/octet-stream, from the first bytes as sniffed by
// http.DetectContentType, the WHATWG MIME sniffing algorithm) whether the
// body is HTML, text returned as is, or binary. media is the media type
// that decided.
func classify(ctype string, head []byte) (kind bodyKind, media string) {
	mt, _, err := mime.ParseMediaType(ctype)
	if ctype == "" || err != nil || mt == "application/octet-stream" {
		sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(head))
		if sniffed == "application/octet-stream" && mt != "" && err == nil {
			return kindBinary, mt
		}
		mt = sniffed
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return kindHTML, mt
	case textMedia(mt):
		if looksBinary(head) {
			return kindBinary, mt + " with NUL bytes"
		}
		return kindText, mt
	}
	return kindBinary, mt
}

// textMedia reports media types returned as text: text/* and the common
// structured-text application types (JSON, XML, YAML, JavaScript, TOML,
// shell) including the +json and +xml suffixes of RFC 6839.
func textMedia(mt string) bool {
	if strings.HasPrefix(mt, "text/") {
		return true
	}
	if strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+xml") || strings.HasSuffix(mt, "+yaml") {
		return true
	}
	switch mt {
	case "application/json", "application/x-ndjson", "application/xml", "application/yaml",
		"application/x-yaml", "application/toml", "application/javascript", "application/x-javascript",
		"application/ecmascript", "application/x-sh", "application/sql", "application/graphql":
		return true
	}
	return false
}

// looksBinary reports a NUL byte in the first 8 KiB, the test git and
// grep use for binary content.
func looksBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8<<10)], 0) >= 0
}

// decodeText turns a text body into valid UTF-8, honouring the charset of
// the Content-Type, a BOM or (for HTML) a <meta charset> (WHATWG encoding
// rules, via x/net/html/charset). Bytes that do not decode become U+FFFD.
func decodeText(body []byte, ctype string) string {
	if utf8.Valid(body) && !bytes.HasPrefix(body, []byte{0xEF, 0xBB, 0xBF}) {
		if _, params, err := mime.ParseMediaType(ctype); err != nil || isUTF8Label(params["charset"]) {
			return string(body)
		}
	}
	enc, name, _ := charset.DetermineEncoding(body, ctype)
	if name == "utf-8" || enc == nil {
		return strings.ToValidUTF8(string(bytes.TrimPrefix(body, []byte{0xEF, 0xBB, 0xBF})), "\uFFFD")
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return strings.ToValidUTF8(string(body), "\uFFFD")
	}
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

func isUTF8Label(l string) bool {
	l = strings.ToLower(strings.TrimSpace(l))
	return l == "" || l == "utf-8" || l == "utf8" || l == "us-ascii"
}

// noiseTags are elements dropped before conversion: code and styling that
// is not text, page chrome (navigation, footers, sidebars), forms and
// embedded media. The converter's base plugin also drops head, script,
// style, link, meta, iframe, noscript, input and textarea.
var noiseTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Footer: true, atom.Aside: true, atom.Form: true,
	atom.Button: true, atom.Select: true, atom.Svg: true,
	atom.Canvas: true, atom.Iframe: true, atom.Object: true, atom.Embed: true,
	atom.Dialog: true, atom.Link: true, atom.Meta: true, atom.Audio: true,
	atom.Video: true,
}

// noiseRoles are ARIA landmark roles of page chrome.
var noiseRoles = map[string]bool{"navigation": true, "search": true, "complementary": true, "contentinfo": true}

// htmlToMarkdown converts an HTML body to markdown with
// github.com/JohannesKaufmann/html-to-markdown/v2 (CommonMark plus GFM
// tables). Before converting it keeps only the page's single <main> (or
// role=main, else single <article>) when there is one, drops noise
// (noiseTags, noiseRoles, hidden and aria-hidden elements) and inline
// data: images; relative links become absolute against pageURL. title is the
// document's <title>, whitespace collapsed.
func htmlToMarkdown(body []byte, ctype string, pageURL *url.URL) (md, title string, err error) {
	defer func() {
		// Hostile HTML must not crash the agent through a converter bug.
		if r := recover(); r != nil {
			md, title, err = "", "", fmt.Errorf("HTML converter panicked: %v", r)
		}
	}()
	text := decodeText(body, ctype)
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		// x/net/html refuses documents nested deeper than 512 open
		// elements (unclosed <div>s on old pages do that); the text is
		// still worth reading.
		title, plain := plainText(text)
		return "[the HTML could not be converted (" + err.Error() + "); plain text shown]\n\n" + plain, title, nil
	}
	title = strings.Join(strings.Fields(textOf(find(doc, func(n *html.Node) bool { return n.DataAtom == atom.Title }))), " ")
	root := mainContent(doc)
	prune(root)
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
	))
	var opts []converter.ConvertOptionFunc
	if pageURL != nil {
		opts = append(opts, converter.WithDomain(pageURL.String()))
	}
	out, err := conv.ConvertNode(root, opts...)
	if err != nil {
		return "", "", err
	}
	return strings.TrimSpace(string(out)) + "\n", title, nil
}

// mainContent returns the single <main> (or role="main") element, else the
// single <article>, else doc.
func mainContent(doc *html.Node) *html.Node {
	if m := findAll(doc, func(n *html.Node) bool {
		return n.DataAtom == atom.Main || attr(n, "role") == "main"
	}); len(m) == 1 {
		return m[0]
	}
	if a := findAll(doc, func(n *html.Node) bool { return n.DataAtom == atom.Article }); len(a) == 1 {
		return a[0]
	}
	return doc
}

// prune removes noise elements below n, and the src of data: images.
func prune(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && isNoise(c) {
			n.RemoveChild(c)
		} else {
			if c.Type == html.ElementNode && c.DataAtom == atom.Img && strings.HasPrefix(strings.ToLower(strings.TrimSpace(attr(c, "src"))), "data:") {
				setAttr(c, "src", "")
			}
			prune(c)
		}
		c = next
	}
}

func isNoise(n *html.Node) bool {
	if noiseTags[n.DataAtom] || n.Data == "svg" {
		return true
	}
	if noiseRoles[strings.ToLower(attr(n, "role"))] {
		return true
	}
	for _, a := range n.Attr {
		if a.Namespace == "" && (a.Key == "hidden" || a.Key == "aria-hidden" && strings.EqualFold(a.Val, "true")) {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func setAttr(n *html.Node, key, val string) {
	for i := range n.Attr {
		if n.Attr[i].Namespace == "" && n.Attr[i].Key == key {
			n.Attr[i].Val = val
		}
	}
}

// find returns the first node under n (depth first) matching ok, or nil.
func find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	if n == nil {
		return nil
	}
	if ok(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, ok); f != nil {
			return f
		}
	}
	return nil
}

// findAll returns the element nodes under n matching ok, outermost only.
func findAll(n *html.Node, ok func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && ok(c) {
			out = append(out, c)
			continue
		}
		out = append(out, findAll(c, ok)...)
	}
	return out
}

// textOf concatenates the text nodes under n.
func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return sb.String()
}

// blockTags end a line in plainText.
var blockTags = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Br: true, atom.Li: true, atom.Tr: true, atom.Table: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Pre: true, atom.Blockquote: true, atom.Section: true, atom.Article: true, atom.Hr: true,
	atom.Ul: true, atom.Ol: true, atom.Dd: true, atom.Dt: true,
}

// voidTags never have an end tag, so they cannot open a skipped region.
var voidTags = map[atom.Atom]bool{atom.Embed: true, atom.Link: true, atom.Meta: true}

// plainText is the fallback when the HTML cannot be parsed into a tree:
// a tokenizer pass (no nesting limit) that keeps text, drops the contents
// of noiseTags, breaks lines at block elements and collapses blank runs.
func plainText(src string) (title, text string) {
	z := html.NewTokenizer(strings.NewReader(src))
	var sb strings.Builder
	skip := 0 // depth inside noise elements
	inTitle := false
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return strings.Join(strings.Fields(title), " "), collapseBlank(sb.String())
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if noiseTags[a] && !voidTags[a] && tt == html.StartTagToken {
				skip++
			}
			inTitle = a == atom.Title
			if blockTags[a] {
				sb.WriteString("\n")
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if noiseTags[a] && skip > 0 {
				skip--
			}
			inTitle = false
			if blockTags[a] {
				sb.WriteString("\n")
			}
		case html.TextToken:
			switch {
			case inTitle:
				title += string(z.Text())
			case skip == 0:
				sb.WriteString(strings.Join(strings.Fields(string(z.Text())), " "))
				sb.WriteString(" ")
			}
		}
	}
}

// collapseBlank trims each line and keeps at most one blank line in a row.
func collapseBlank(s string) string {
	var out []string
	blank := true
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			if !blank {
				out = append(out, "")
			}
			blank = true
			continue
		}
		out = append(out, l)
		blank = false
	}
	return strings.TrimSpace(strings.Join(out, "\n")) + "\n"
}
