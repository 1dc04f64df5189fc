// Package images owns the images a user attaches to a prompt: it reads a
// file, recognises PNG, JPEG, GIF and WebP by their bytes (not the file's
// extension), and checks a provider's limits on size and dimensions. It
// does not decide which models take images (the run layer asks the
// catalog) and does not touch the network or the session log.
package images

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers GIF for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/llm"
)

// Media types Zero attaches.
const (
	PNG  = "image/png"
	JPEG = "image/jpeg"
	GIF  = "image/gif"
	WebP = "image/webp"
)

// Limit is what a provider accepts for one image; zero fields mean no
// limit.
type Limit struct {
	// MaxBytes is the most bytes of one image (before base64).
	MaxBytes int
	// MaxEdge is the most pixels of its longer side.
	MaxEdge int
}

// LimitFor is the limit of a provider kind ("anthropic", "openai",
// "gemini"; anything else is an OpenAI-compatible server). Sources:
// Anthropic 5 MB and 8000×8000 px per image
// (https://docs.anthropic.com/en/docs/build-with-claude/vision);
// OpenAI 20 MB per image (https://platform.openai.com/docs/guides/images-vision);
// Gemini 20 MB of inline data per request
// (https://ai.google.dev/gemini-api/docs/image-understanding).
func LimitFor(kind string) Limit {
	if kind == "anthropic" {
		return Limit{MaxBytes: 5 << 20, MaxEdge: 8000}
	}
	return Limit{MaxBytes: 20 << 20}
}

// Sniff returns the media type of data when it is a PNG, JPEG, GIF or
// WebP image, by its leading bytes.
func Sniff(data []byte) (string, bool) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, true
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return JPEG, true
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return GIF, true
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return WebP, true
	}
	return "", false
}

// Size returns an image's width and height in pixels, read from its
// header without decoding it.
func Size(mediaType string, data []byte) (w, h int, err error) {
	if mediaType == WebP {
		return webpSize(data)
	}
	c, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0, err
	}
	return c.Width, c.Height, nil
}

// webpSize reads the canvas size of a WebP file from its first chunk:
// VP8 (lossy), VP8L (lossless) or VP8X (extended), as RFC 9649 lays them
// out (https://www.rfc-editor.org/rfc/rfc9649).
func webpSize(d []byte) (int, int, error) {
	bad := fmt.Errorf("not a valid WebP file")
	if len(d) < 30 {
		return 0, 0, bad
	}
	switch string(d[12:16]) {
	case "VP8 ":
		if d[23] != 0x9d || d[24] != 0x01 || d[25] != 0x2a {
			return 0, 0, bad
		}
		return int(binary.LittleEndian.Uint16(d[26:]) & 0x3fff), int(binary.LittleEndian.Uint16(d[28:]) & 0x3fff), nil
	case "VP8L":
		if d[20] != 0x2f {
			return 0, 0, bad
		}
		b := binary.LittleEndian.Uint32(d[21:])
		return int(b&0x3fff) + 1, int(b>>14&0x3fff) + 1, nil
	case "VP8X":
		w := int(d[24]) | int(d[25])<<8 | int(d[26])<<16
		h := int(d[27]) | int(d[28])<<8 | int(d[29])<<16
		return w + 1, h + 1, nil
	}
	return 0, 0, bad
}

// Check returns data as an image part's payload when it is an image
// within lim, or an error saying what is wrong with it; name is how the
// error names it (a path).
func Check(name string, data []byte, lim Limit) (llm.Image, error) {
	mt, ok := Sniff(data)
	if !ok {
		return llm.Image{}, fmt.Errorf("%s is not a PNG, JPEG, GIF or WebP image", name)
	}
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return llm.Image{}, fmt.Errorf("%s is %s; the provider takes images up to %s (make it smaller and attach it again)",
			name, mb(len(data)), mb(lim.MaxBytes))
	}
	w, h, err := Size(mt, data)
	if err != nil {
		return llm.Image{}, fmt.Errorf("%s: %v", name, err)
	}
	if lim.MaxEdge > 0 && max(w, h) > lim.MaxEdge {
		return llm.Image{}, fmt.Errorf("%s is %d×%d px; the provider takes images up to %d px on the longer side (scale it down and attach it again)",
			name, w, h, lim.MaxEdge)
	}
	return llm.Image{MediaType: mt, Data: data}, nil
}

// Load reads path and checks it (Check); errors name the file name (the
// path as the user typed it).
func Load(path, name string, lim Limit) (llm.Image, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return llm.Image{}, fmt.Errorf("%s: no such file", name)
		}
		return llm.Image{}, err
	}
	if fi.IsDir() {
		return llm.Image{}, fmt.Errorf("%s is a directory, not an image", name)
	}
	if lim.MaxBytes > 0 && fi.Size() > int64(lim.MaxBytes) {
		return llm.Image{}, fmt.Errorf("%s is %s; the provider takes images up to %s (make it smaller and attach it again)",
			name, mb(int(fi.Size())), mb(lim.MaxBytes))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return llm.Image{}, err
	}
	return Check(name, data, lim)
}

// LooksLikePath reports whether s (a pasted line) names an image file by
// its extension: the app then checks the bytes with Load.
func LooksLikePath(s string) bool {
	switch strings.ToLower(filepath.Ext(s)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}

func mb(n int) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }
