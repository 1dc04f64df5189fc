package run

// Instruction files (internal/instructions): AGENTS.md, CLAUDE.md,
// CLAUDE.local.md, ZERO.md and the user's own, loaded per session so a
// new session sees edited files, and a nested AGENTS.md added to the tool
// result the first time the model works in its folder.

import (
	"context"
	"encoding/json"
	"os"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/instructions"
	"github.com/zero-agent/zero/internal/tools"
)

// LoadInstructions finds the instruction files of workspace root; trusted
// is the folder's trust (imports from outside the project need it).
func LoadInstructions(root string, trusted bool) *instructions.Set {
	home, _ := os.UserHomeDir()
	return instructions.Load(instructions.Options{Workdir: root, Home: home, ConfigDir: config.Dir(), Trusted: trusted})
}

// Instructions is the session's instruction files: what its system prompt
// carries and the nested ones added since (/memory lists them).
func (s *Session) Instructions() *instructions.Set { return s.instructions }

// withNested wraps each tool of reg so a successful call's paths add the
// instruction files of folders the model had not worked in yet (set.Nested)
// to its result, once per session.
func withNested(reg *tools.Registry, set *instructions.Set) {
	for _, name := range reg.Names() {
		t, _ := reg.Get(name)
		reg.Add(&nestedInstructions{Tool: t, set: set})
	}
}

type nestedInstructions struct {
	tools.Tool
	set *instructions.Set
}

// Run runs the tool and appends the text of instruction files new to the
// session from the folders of the paths it read or changed.
func (n *nestedInstructions) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	res, err := n.Tool.Run(ctx, args)
	if err != nil || res.IsError {
		return res, err
	}
	for _, p := range res.Paths {
		if text := n.set.Nested(p); text != "" {
			res.Content += "\n\n" + text
		}
	}
	return res, err
}
