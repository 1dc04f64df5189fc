package skills

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zero-agent/zero/internal/rules"
	"github.com/zero-agent/zero/internal/tools"
)

// ToolName is the skill tool's name.
const ToolName = "skill"

// maxFile caps a file the tool returns, in bytes; maxFiles the files it
// lists beside a SKILL.md.
const (
	maxFile  = 256 << 10
	maxFiles = 50
)

// NewTool returns the skill tool over set: the model calls it with a
// skill's name to read its instructions, with a file to read one beside
// SKILL.md, or with a query to search skills the listing left out.
func NewTool(set *Set) tools.Tool { return &tool{set: set} }

type tool struct{ set *Set }

func (t *tool) Name() string { return ToolName }
func (t *tool) Description() string {
	return "Use a skill: {name} returns its instructions and the files beside them, {name, file} one of those files, {query} searches all skills."
}
func (t *tool) SideEffect() tools.SideEffect { return tools.SideRead }
func (t *tool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"skill name"},"file":{"type":"string","description":"path relative to the skill's folder"},"query":{"type":"string","description":"words to search skill names and descriptions"}}}`)
}

type toolArgs struct {
	Name  string `json:"name"`
	File  string `json:"file"`
	Query string `json:"query"`
}

// Run answers one call; a mistake is a Result the model can act on.
func (t *tool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a toolArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return failf("arguments are not a JSON object with name, file or query: %v", err), nil
	}
	switch {
	case a.Name == "" && a.Query == "":
		return failf("give a skill name, or a query to search skills"), nil
	case a.Name == "":
		return t.search(a.Query), nil
	}
	sk, ok := t.set.Get(a.Name)
	if !ok {
		msg := fmt.Sprintf("no skill %q.", a.Name)
		if hits := t.set.Search(a.Name, 5); len(hits) > 0 {
			msg += " Closest: " + names(hits) + "."
		}
		return failf("%s Call skill with {\"query\": \"words\"} to search.", msg), nil
	}
	if a.File != "" {
		return readBeside(sk, a.File), nil
	}
	return body(sk), nil
}

// Text is a skill's instructions as the tool returns them: the body, its
// folder and the files beside it. The app's /<skill> sends the same.
func Text(sk Skill) (string, error) {
	b, err := sk.Body()
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "<skill name=%q folder=%q>\n%s\n</skill>", sk.Name, sk.Dir, strings.TrimSpace(rules.Sanitize(b)))
	if files := beside(sk.Dir); len(files) > 0 {
		fmt.Fprintf(&sb, "\nFiles beside SKILL.md (read one with the skill tool: {\"name\": %q, \"file\": PATH}): %s", sk.Name, strings.Join(files, ", "))
	}
	return sb.String(), nil
}

func body(sk Skill) tools.Result {
	text, err := Text(sk)
	if err != nil {
		return failf("skill %s cannot be read: %v", sk.Name, err)
	}
	return tools.Result{Content: text}
}

// beside lists the files in dir but SKILL.md, relative, at most maxFiles.
func beside(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) > maxFiles {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != dir {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if rel != File {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(out) > maxFiles {
		out = append(out[:maxFiles], "…")
	}
	return out
}

// readBeside reads file inside the skill's folder: no absolute path, no
// way out through .. or a symbolic link, text only, capped.
func readBeside(sk Skill, file string) tools.Result {
	if filepath.IsAbs(file) || !filepath.IsLocal(filepath.FromSlash(file)) {
		return failf("file must be a path inside the skill's folder, relative to it (%q is not)", file)
	}
	root, err := filepath.EvalSymlinks(sk.Dir)
	if err != nil {
		return failf("skill %s: %v", sk.Name, err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(sk.Dir, filepath.FromSlash(file)))
	if err != nil {
		return failf("no file %s in skill %s (its files: %s)", file, sk.Name, strings.Join(beside(sk.Dir), ", "))
	}
	if rel, err := filepath.Rel(root, real); err != nil || !filepath.IsLocal(rel) {
		return failf("%s leads outside the skill's folder", file)
	}
	f, err := os.Open(real)
	if err != nil {
		return failf("%v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return failf("%v", err)
	}
	n := len(data)
	if bytes.IndexByte(data, 0) >= 0 {
		return failf("%s is a binary file", file)
	}
	text := rules.Sanitize(string(data))
	if n > maxFile {
		text = text[:min(len(text), maxFile)] + fmt.Sprintf("\n[cut at %d bytes]", maxFile)
	}
	return tools.Result{Content: text}
}

func (t *tool) search(q string) tools.Result {
	hits := t.set.Search(q, 10)
	if len(hits) == 0 {
		return tools.Result{Content: fmt.Sprintf("no skill matches %q (%d skills in all)", q, t.set.Len())}
	}
	var sb strings.Builder
	for _, sk := range hits {
		fmt.Fprintf(&sb, "- %s: %s\n", sk.Name, rules.Sanitize(sk.Description))
	}
	return tools.Result{Content: strings.TrimRight(sb.String(), "\n")}
}

func names(list []Skill) string {
	n := make([]string, len(list))
	for i, sk := range list {
		n[i] = sk.Name
	}
	return strings.Join(n, ", ")
}

func failf(format string, args ...any) tools.Result {
	return tools.Result{Content: fmt.Sprintf(format, args...), IsError: true}
}
