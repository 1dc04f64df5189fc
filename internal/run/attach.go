package run

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/images"
	"github.com/zero-agent/zero/internal/llm"
	"github.com/zero-agent/zero/internal/providers/catalog"
	"github.com/zero-agent/zero/internal/providers/discovery"
)

// LoadImage reads an image the user attaches to the next prompt (zero
// exec --image, the app's /image or a pasted path): PNG, JPEG, GIF or
// WebP by its bytes, within the active provider's limits, for a model
// that takes images. A relative path is the workspace's.
func (s *Session) LoadImage(path string) (llm.Image, error) {
	if err := s.takesImages(nil); err != nil {
		return llm.Image{}, err
	}
	abs := path
	if !filepath.IsAbs(path) {
		abs = filepath.Join(s.rt.Workspace.Root(), path)
	}
	return images.Load(abs, path, images.LimitFor(string(s.rt.Active.Kind)))
}

// takesImages refuses images for a model the catalog lists as text-only
// or a llama.cpp server says is (its /props, asked only when an image is
// attached); any other model gets them, with a warning through warn (nil:
// none; Prompt passes the turn's, once a session), since only the server
// can say.
func (s *Session) takesImages(warn func(string)) error {
	model := s.agent.Model()
	m, _ := catalog.Resolve(string(s.rt.Active.Kind), model)
	textOnly := m.Known && !m.ImageInput
	if !m.Known && s.rt.Active.Kind == config.KindOpenAICompatible {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		vision, known := (&discovery.Prober{}).Vision(ctx, discovery.Server{BaseURL: s.rt.Active.BaseURL})
		cancel()
		if known {
			textOnly, m.Known = !vision, true
		}
	}
	switch {
	case textOnly:
		return fmt.Errorf("%s takes text only: it cannot see images (pick a model that does with /model or --model)", model)
	case !m.Known && warn != nil && !s.warnedImages:
		s.warnedImages = true
		warn(fmt.Sprintf("the catalog does not know whether %s takes images; sending them (a text-only server will refuse the request)", model))
	}
	return nil
}

// AttachImage checks image bytes a surface received (an editor's prompt
// over ACP) as LoadImage checks a file: a model that takes images, a
// known format within the provider's limits; name is how errors name it.
func (s *Session) AttachImage(name string, data []byte) (llm.Image, error) {
	if err := s.takesImages(nil); err != nil {
		return llm.Image{}, err
	}
	return images.Check(name, data, images.LimitFor(string(s.rt.Active.Kind)))
}
