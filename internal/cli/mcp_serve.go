package cli

import (
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/mcpserve"
	"github.com/zero-agent/zero/internal/run"
)

const mcpServeLong = `Serves Zero over MCP on stdin and stdout, for other agents and MCP clients
(Claude Code, Claude Desktop, Codex, an SDK's client). Nothing but the
protocol is written to stdout; warnings go to stderr.

Agent mode (the default) offers two tools: zero {prompt, cwd, permission_mode,
model} runs a task in a new session and answers with threadId, answer,
status and changedFiles; zero_reply {threadId, prompt} continues it. With
--tools, Zero's core tools (read_file, grep, edit_file, bash, ...) are
offered instead, over the workspace (--cd); they need no model, so none need
be configured. Agent mode looks for the model at each task: with none, the
call answers with the error.

In normal mode an edit or a command asks first: the question goes to the
calling client as an elicitation, and is denied (the model is told why)
when the client cannot elicit.`

const mcpServeExample = `  claude mcp add zero -- zero mcp serve
  zero mcp serve --tools -C ~/src/project --permission-mode plan`

// mcpServeCmd is `zero mcp serve`.
func mcpServeCmd(s stdio) *cobra.Command {
	var over overrides
	var mode string
	var coreTools bool
	c := &cobra.Command{
		Use:     "serve",
		Short:   "Serve Zero as an MCP server on stdio (agent tools, or --tools: the core tools)",
		Long:    mcpServeLong,
		Example: mcpServeExample,
		Args:    cobra.NoArgs,
		RunE: ran(func(*cobra.Command, []string) error {
			return mcpServe(s, &over, mode, coreTools)
		}),
	}
	over.register(c)
	registerMode(c, &mode)
	c.Flags().BoolVar(&coreTools, "tools", false, "serve Zero's core tools instead of the agent")
	return c
}

// mcpServe runs the server until the client disconnects or a signal
// arrives.
func mcpServe(s stdio, over *overrides, mode string, coreTools bool) error {
	ctx, stop := signalContext()
	defer stop()
	out := s.out
	if out == io.Writer(os.Stdout) {
		// Keep stdout for the protocol: whatever else would print there
		// (a stray fmt.Println) lands on stderr instead of corrupting
		// the JSON-RPC stream.
		os.Stdout = os.Stderr
		defer func() { os.Stdout = out.(*os.File) }()
	}
	srv, err := mcpserve.New(mcpserve.Options{
		Tools:   coreTools,
		Version: Version,
		Run: run.Options{
			Workdir: over.workdir, AddDirs: over.addDirs, Overrides: over.config(),
			Mode: mode, AutoApprove: over.autoApprove, CompletionCheck: true, Stderr: s.err,
		},
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	err = srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(s.in), Writer: nopCloser{out}})
	if ctx.Err() != nil {
		return nil // a signal: a clean stop, runs under way interrupted and resumable
	}
	return err
}

// nopCloser is a writer the transport may close without closing stdout.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
