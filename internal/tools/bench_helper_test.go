package tools

import "github.com/zero-agent/zero/internal/workspace"

func newBenchWS(dir string) (*workspace.Workspace, error) { return workspace.New(dir) }
