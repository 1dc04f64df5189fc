// Package cli wires Zero's commands (exec, sessions, logs, config, guard,
// the interactive app) from flags and configuration to the agent loop and
// its consumers. It holds no agent logic of its own.
package cli

import (
	"fmt"
	"os"
)

// Main runs zero with args (without the program name) and returns the exit
// code: 0 ok, 1 crash, 2 usage, 3 provider error, 4 incomplete, 130
// interrupted.
func Main(args []string) int {
	fmt.Fprintln(os.Stderr, "zero: under construction")
	return 2
}
