package run

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/zero-agent/zero/internal/images"
	"github.com/zero-agent/zero/internal/lazyregexp"
	"github.com/zero-agent/zero/internal/llm"
)

// fileMention is "@path" in a prompt: an @ at the start or after white
// space or an opening bracket or quote (so an e-mail address is not
// one), then a path without spaces.
var fileMention = lazyregexp.New(`(?:^|[\s(\[{'"])@([^\s@]+)`)

// expandMentions is the one place a prompt's mentions are expanded: MCP
// prompts and "@server:uri" resources (expandMCP), then "@path" files,
// "@dir/" listings and "@image.png" images (expandFiles). warn reports a
// mention left as typed: the runtime's warnings before a turn (zero
// exec's ExpandPrompt writes them on stderr), a warning event during one
// (the app shows it, the session log keeps it). imgs, when not nil,
// collects the images mentioned (Prompt sends them; ExpandPrompt leaves
// them for Prompt).
func (s *Session) expandMentions(ctx context.Context, prompt string, warn func(string), imgs *[]llm.Image) (string, error) {
	prompt, err := s.expandMCP(ctx, prompt, warn)
	if err != nil {
		return "", err
	}
	return s.expandFiles(ctx, prompt, warn, imgs), nil
}

// stderrWarn is expandMentions' warn outside a turn.
func (s *Session) stderrWarn(text string) { fmt.Fprintf(s.rt.warnings(), "zero: warning: %s\n", text) }

// expandFiles attaches, after the prompt, each file an "@path" names as
// read_file shows it (numbered lines, the same caps, the read cache) and
// each directory ("@dir/" or "@dir") as list_dir does; a path named like
// an image is loaded as one (LoadImage) into imgs instead. A mention that
// names nothing (a handle, a missing file) stays as typed; one that
// looks like a path gets a warning. "@server:uri" is expandMCP's. Text
// expanded already (ExpandPrompt, then Prompt) is not expanded again.
func (s *Session) expandFiles(ctx context.Context, prompt string, warn func(string), imgs *[]llm.Image) string {
	typed, _, expanded := strings.Cut(prompt, filesHeader)
	var attached []string
	seen := map[string]bool{}
	for _, sm := range fileMention.FindAllStringSubmatch(typed, -1) {
		path := mentionPath(sm[1])
		if path == "" || seen[path] || isResourceMention(path) {
			continue
		}
		seen[path] = true
		switch {
		case images.LooksLikePath(path):
			if imgs == nil {
				continue
			}
			img, err := s.LoadImage(path)
			if err != nil {
				warn(fmt.Sprintf("@%s not attached: %v", path, err))
				continue
			}
			*imgs = append(*imgs, img)
		case expanded:
		default:
			if text, ok := s.attachPath(ctx, path, warn); ok {
				attached = append(attached, text)
			}
		}
	}
	if len(attached) == 0 {
		return prompt
	}
	return prompt + filesHeader + strings.Join(attached, "\n")
}

// filesHeader opens the attached files.
const filesHeader = "\n\nFiles the prompt names (@path):\n"

// mentionPath is the path of a mention without the punctuation that
// ends a sentence around it ("see @main.go." names main.go).
func mentionPath(m string) string {
	m = strings.TrimRight(m, ".,;:!?)]}'\"")
	return strings.TrimLeft(m, "([{'\"")
}

// isResourceMention: "server:uri" is an MCP resource, not a path.
func isResourceMention(m string) bool {
	i := strings.IndexByte(m, ':')
	return i > 0 && !strings.ContainsAny(m[:i], "/\\")
}

// attachPath runs read_file (a file) or list_dir (a directory) on path
// and fits the result like a tool result; false when path names
// nothing the tools can show, with a warning unless it does not look
// like a path at all (a bare word: "@alice").
func (s *Session) attachPath(ctx context.Context, path string, warn func(string)) (string, bool) {
	tool, tag := "read_file", "file"
	if dir := strings.HasSuffix(path, "/"); dir || s.isDir(path) {
		tool, tag = "list_dir", "directory"
	}
	t, ok := s.tools.Get(tool)
	if !ok {
		return "", false
	}
	args, _ := json.Marshal(map[string]string{"path": path})
	res, err := t.Run(ctx, args)
	if err != nil || res.IsError {
		why := res.Content
		if err != nil {
			why = err.Error()
		}
		if strings.ContainsAny(path, "./") {
			warn(fmt.Sprintf("@%s not attached: %s", path, firstLine(why)))
		}
		return "", false
	}
	abs := ""
	if tool == "read_file" && len(res.Paths) > 0 {
		abs = res.Paths[0]
	}
	kept, err := s.agent.CapAttached(fmt.Sprintf("attach_%d", time.Now().UnixNano()), abs, res.Content)
	if err != nil {
		warn(fmt.Sprintf("@%s: %v", path, err))
	}
	return fmt.Sprintf("<%s path=%q>\n%s\n</%s>", tag, path, strings.TrimRight(kept, "\n"), tag), true
}

// isDir reports whether path is a directory of the workspace.
func (s *Session) isDir(path string) bool {
	abs, err := s.rt.Workspace.Resolve(path, false)
	if err != nil {
		return false
	}
	fi, err := s.rt.Workspace.Stat(abs)
	return err == nil && fi.IsDir()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
