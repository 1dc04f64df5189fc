package run

import (
	"github.com/zero-agent/zero/internal/commands"
	"github.com/zero-agent/zero/internal/skills"
)

// initCommand is the built-in /init (and `zero init`): one turn in which
// the model studies the project and writes or improves its AGENTS.md
// (https://agents.md). Writing that one file is allowed for the prompt,
// so it runs without a question in normal mode and headless; anything
// else it tries asks or is refused as usual. A project or user command
// named init takes its place.
var initCommand = commands.Command{
	Name:         "init",
	Description:  "Study the project and write (or improve) its AGENTS.md",
	ArgumentHint: "[what to focus on]",
	AllowedTools: []string{"Write(AGENTS.md)", "Edit(AGENTS.md)"},
	Path:         "(built in)",
	Scope:        skills.User,
	Template: `Write the AGENTS.md of this repository: the instructions coding agents read before they work here (https://agents.md). If AGENTS.md exists at the repository root, read it and improve it in place instead of starting over.

First find out, by reading rather than guessing: what the project is; its layout (the main folders and what each holds); how to build it and run it; how to run the whole test suite and one test (exact commands, taken from the README, build files, CI configuration, Makefile or package scripts); the conventions the code follows (formatting, naming, error handling, where tests go); and anything surprising a newcomer would trip on. Read existing agent instructions too (CLAUDE.md, .cursorrules, .github/copilot-instructions.md) and keep what still holds.

Then write AGENTS.md at the repository root: short sections, concrete commands in code blocks, no filler, under about 150 lines. Only write AGENTS.md; change no other file. End with one line saying what you wrote.

$ARGUMENTS`,
}

// builtinCommand is the built-in command called name, if any.
func builtinCommand(name string) (commands.Command, bool) {
	if name == initCommand.Name {
		return initCommand, true
	}
	return commands.Command{}, false
}
