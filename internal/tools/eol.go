package tools

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zero-agent/zero/internal/workspace"
)

// newFileEOL returns the line ending a new file at abs should use: the
// eol attribute from the root .gitattributes (gitattributes(5)), else
// end_of_line from .editorconfig files from the root down to the file's
// directory (editorconfig.org spec, nearer files win), else "\n".
func newFileEOL(ws *workspace.Workspace, abs string) string {
	root, ok := ws.RootOf(abs)
	if !ok {
		return "\n"
	}
	rel, _ := filepath.Rel(root, abs)
	rel = filepath.ToSlash(rel)
	if eol := gitattributesEOL(filepath.Join(root, ".gitattributes"), rel); eol != "" {
		return eol
	}
	eol := ""
	dir := root
	parts := strings.Split(rel, "/")
	for i := 0; i < len(parts); i++ {
		sub := strings.Join(parts[i:], "/")
		if e := editorconfigEOL(filepath.Join(dir, ".editorconfig"), sub); e != "" {
			eol = e
		}
		dir = filepath.Join(dir, parts[i])
	}
	if eol == "" {
		return "\n"
	}
	return eol
}

// gitattributesEOL returns "\r\n" or "\n" when a line of the file sets
// eol=crlf/eol=lf (or -text) for rel; the last matching line wins.
func gitattributesEOL(file, rel string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	eol := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || strings.HasPrefix(f[0], "#") || !pathPatternMatch(f[0], rel) {
			continue
		}
		for _, attr := range f[1:] {
			switch attr {
			case "eol=crlf":
				eol = "\r\n"
			case "eol=lf":
				eol = "\n"
			}
		}
	}
	return eol
}

// editorconfigEOL returns the end_of_line the file's last section matching
// rel sets.
func editorconfigEOL(file, rel string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	eol, in := "", false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[' && strings.HasSuffix(line, "]"):
			in = pathPatternMatch(line[1:len(line)-1], rel)
		case in:
			k, v, ok := strings.Cut(line, "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "end_of_line") {
				switch strings.ToLower(strings.TrimSpace(v)) {
				case "crlf":
					eol = "\r\n"
				case "lf":
					eol = "\n"
				}
			}
		}
	}
	return eol
}

// pathPatternMatch matches a gitattributes/editorconfig pattern: without a
// slash it matches the base name, with one the path from the file's dir.
func pathPatternMatch(pat, rel string) bool {
	if !strings.Contains(strings.TrimSuffix(pat, "/"), "/") {
		return doublestar.MatchUnvalidated(pat, filepath.Base(rel))
	}
	return doublestar.MatchUnvalidated(strings.TrimPrefix(pat, "/"), rel)
}
