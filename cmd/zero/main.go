// Command zero is Zero's entry point; all behaviour lives in internal/cli.
package main

import (
	"os"

	"github.com/zero-agent/zero/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
