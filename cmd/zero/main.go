// Command zero is Zero's entry point; all behaviour lives in internal/cli.
package main

import (
	"os"

	"github.com/zero-agent/zero/internal/cli"
	"github.com/zero-agent/zero/internal/sandbox"
)

func main() {
	// The Landlock sandbox re-executes zero as its helper (see
	// sandbox.HelperArg); that must happen before anything else runs.
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.HelperMain(os.Args[2:]))
	}
	os.Exit(cli.Main(os.Args[1:]))
}
