package images

import (
	"bytes"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func encoded(t testing.TB, format string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, nil)
	case "gif":
		err = gif.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webpVP8L is the header of a lossless WebP of w×h (RFC 9649 §3.6).
func webpVP8L(w, h int) []byte {
	d := []byte("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f")
	b := uint32(w-1) | uint32(h-1)<<14
	d = append(d, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
	return append(d, make([]byte, 16)...)
}

func webpVP8X(w, h int) []byte {
	d := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00")
	w, h = w-1, h-1
	d = append(d, byte(w), byte(w>>8), byte(w>>16), byte(h), byte(h>>8), byte(h>>16))
	return append(d, make([]byte, 8)...)
}

func webpVP8(w, h int) []byte {
	d := []byte("RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00\x00\x00\x00\x9d\x01\x2a")
	d = append(d, byte(w), byte(w>>8), byte(h), byte(h>>8))
	return append(d, make([]byte, 8)...)
}

func TestCheckRecognisesImagesByTheirBytes(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		data       []byte
		w, h       int
	}{
		{"png", PNG, encoded(t, "png", 3, 2), 3, 2},
		{"jpeg", JPEG, encoded(t, "jpeg", 5, 4), 5, 4},
		{"gif", GIF, encoded(t, "gif", 7, 1), 7, 1},
		{"webp lossless", WebP, webpVP8L(640, 480), 640, 480},
		{"webp extended", WebP, webpVP8X(9000, 10), 9000, 10},
		{"webp lossy", WebP, webpVP8(320, 200), 320, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, err := Check("x.bin", tc.data, Limit{})
			if err != nil {
				t.Fatal(err)
			}
			if img.MediaType != tc.want || !bytes.Equal(img.Data, tc.data) {
				t.Fatalf("got %s (%d bytes), want %s", img.MediaType, len(img.Data), tc.want)
			}
			w, h, err := Size(img.MediaType, img.Data)
			if err != nil || w != tc.w || h != tc.h {
				t.Fatalf("size %d×%d %v, want %d×%d", w, h, err, tc.w, tc.h)
			}
		})
	}
}

func TestCheckRefusesWhatTheProviderCannotTake(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		lim  Limit
		want string
	}{
		{"text", []byte("hello, not an image"), Limit{}, "is not a PNG, JPEG, GIF or WebP image"},
		{"too many bytes", encoded(t, "png", 2, 2), Limit{MaxBytes: 10}, "the provider takes images up to"},
		{"too wide for anthropic", webpVP8X(9000, 10), LimitFor("anthropic"), "9000×10 px; the provider takes images up to 8000 px"},
		{"broken webp", []byte("RIFF\x00\x00\x00\x00WEBPVP8Z"), Limit{}, "not a valid WebP"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check("shot.png", tc.data, tc.lim)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestLoadIgnoresTheExtension(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "really-a-png.jpg")
	if err := os.WriteFile(p, encoded(t, "png", 1, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := Load(p, "really-a-png.jpg", LimitFor("openai"))
	if err != nil || img.MediaType != PNG {
		t.Fatalf("%v %v", img.MediaType, err)
	}
	if _, err := Load(dir, "dir", Limit{}); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("dir: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.png"), "missing.png", Limit{}); err == nil || err.Error() != "missing.png: no such file" {
		t.Fatalf("missing file: %v", err)
	}
}

func FuzzCheck(f *testing.F) {
	f.Add(encoded(f, "png", 1, 1))
	f.Add(encoded(f, "gif", 1, 1))
	f.Add(webpVP8L(1, 1))
	f.Add(webpVP8X(1, 1))
	f.Add(webpVP8(1, 1))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBP"))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := Check("f", data, LimitFor("anthropic"))
		if err == nil && !bytes.Equal(img.Data, data) {
			t.Fatal("data changed")
		}
	})
}
