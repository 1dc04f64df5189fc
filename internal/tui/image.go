package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/images"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/tui/render"
)

// Images the user attaches (/image PATH or a pasted path to an image
// file) wait in the Model and go with the next prompt; @path completion
// is here too, both being what the editor's line refers to on disk.

// imageLoader is a Backend that attaches images (RunBackend: the run
// layer's LoadImage checks the bytes, the provider's limits and the
// model).
type imageLoader interface {
	LoadImage(path string) (llm.Image, error)
}

// pathCompleter is a Backend that completes "@path" mentions (workspace
// paths, gitignore-aware).
type pathCompleter interface {
	CompletePaths(prefix string) []string
}

// attachImage reads path as an image for the next prompt and says so, or
// says why not. The file is local and capped by the provider's limit
// before it is read, so this runs on the UI goroutine.
func (m *Model) attachImage(path string) {
	w := m.contentWidth()
	il, ok := m.backend.(imageLoader)
	switch {
	case path == "" && len(m.images) == 0:
		m.commit(render.Notice(event.Warning, "/image PATH attaches an image (PNG, JPEG, GIF, WebP) to the next prompt", w)...)
		return
	case path == "":
		m.commit(render.Notice("", fmt.Sprintf("%d image(s) go with the next prompt", len(m.images)), w)...)
		return
	case !ok:
		m.commit(render.Notice(event.Error, "this session cannot attach images", w)...)
		return
	}
	img, err := il.LoadImage(path)
	if err != nil {
		m.commit(render.Notice(event.Error, err.Error(), w)...)
		return
	}
	m.images = append(m.images, img)
	m.imageNames = append(m.imageNames, filepath.Base(path))
	m.commit(render.Notice("", fmt.Sprintf("attached %s (%s, %d KB): it goes with the next prompt",
		filepath.Base(path), img.MediaType, (len(img.Data)+1023)/1024), w)...)
}

// pastedImage is the path a paste names when it is one absolute path (as
// a terminal writes a file dropped on it: quoted, or with escaped
// spaces) to an existing file named like an image.
func pastedImage(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "\n") || len(s) < 2 {
		return "", false
	}
	if q := s[0]; (q == '\'' || q == '"') && s[len(s)-1] == q {
		s = s[1 : len(s)-1]
	} else {
		s = strings.ReplaceAll(s, `\ `, " ")
	}
	if strings.HasPrefix(s, "file://") {
		s = strings.TrimPrefix(s, "file://")
	}
	if !filepath.IsAbs(s) || !images.LooksLikePath(s) {
		return "", false
	}
	if fi, err := os.Stat(s); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return s, true
}

// completeMention completes the "@path" the line ends with, if it does.
func (m *Model) completeMention(v string) bool {
	i := strings.LastIndexAny(v, " \t\n")
	word := v[i+1:]
	if !strings.HasPrefix(word, "@") || (i < 0 && strings.HasPrefix(v, "/")) {
		return false
	}
	pc, ok := m.backend.(pathCompleter)
	if !ok {
		return false
	}
	head := v[:i+1] + "@"
	items := pc.CompletePaths(word[1:])
	if len(items) == 1 && strings.HasSuffix(items[0], "/") {
		m.ed.SetValue(head + items[0]) // a directory: go on into it
		return true
	}
	m.completeWith(word[1:], head, items)
	return true
}
