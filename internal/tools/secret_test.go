package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zero-agent/zero/internal/workspace"
)

func TestGrepSkipsSecretFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".env"), []byte("API_TOKEN=needle-secret\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("// needle-secret is mentioned here\n"), 0o644)
	ws, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	var grep Tool
	for _, tl := range Core(ws, Options{}) {
		if tl.Name() == "grep" {
			grep = tl
		}
	}
	args, _ := json.Marshal(map[string]string{"pattern": "needle-secret"})
	res, err := grep.Run(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Content, ".env") || !strings.Contains(res.Content, "main.go") {
		t.Fatalf("grep result %q", res.Content)
	}
}
