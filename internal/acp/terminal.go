package acp

import (
	"context"
	"fmt"
	"strings"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/zero-agent/zero/internal/tools"
)

// The editor's terminal (https://agentclientprotocol.com/protocol/terminals):
// when the user's config opts in (`"acp": {"terminal": true}`, user file
// only) and the client's initialize offers terminal/*, bash runs its
// commands there (tools.ShellRunner): terminal/create runs `bash -c`
// in the workspace root, the terminal is embedded in the call's content
// (the editor shows it live), terminal/wait_for_exit waits, and the
// output the model reads comes from terminal/output before
// terminal/release. That terminal is the editor's process, outside
// Zero's OS sandbox: the shell guard, the rules and the permission mode
// still decide each command first, but nothing confines what it then
// touches. Without the opt-in, commands run in Zero's sandbox and stream
// as tool content (stream.go).

// termConn is the client's terminal/* methods.
type termConn interface {
	CreateTerminal(ctx context.Context, p acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error)
	TerminalOutput(ctx context.Context, p acpsdk.TerminalOutputRequest) (acpsdk.TerminalOutputResponse, error)
	WaitForTerminalExit(ctx context.Context, p acpsdk.WaitForTerminalExitRequest) (acpsdk.WaitForTerminalExitResponse, error)
	KillTerminal(ctx context.Context, p acpsdk.KillTerminalRequest) (acpsdk.KillTerminalResponse, error)
	ReleaseTerminal(ctx context.Context, p acpsdk.ReleaseTerminalRequest) (acpsdk.ReleaseTerminalResponse, error)
}

// Limits of a command in the editor's terminal.
const (
	terminalOutputLimit = 1 << 20
	// terminalKillWait bounds the wait for a killed command to exit.
	terminalKillWait = 5 * time.Second
)

// editorTerminal is a session's tools.ShellRunner over the client.
type editorTerminal struct {
	conn    termConn
	id      acpsdk.SessionId
	updates *updates
}

// RunShell implements tools.ShellRunner.
func (e *editorTerminal) RunShell(ctx context.Context, command, dir string) (tools.ShellOutput, error) {
	limit := terminalOutputLimit
	created, err := e.conn.CreateTerminal(ctx, acpsdk.CreateTerminalRequest{
		SessionId: e.id, Command: "bash", Args: []string{"-c", command}, Cwd: &dir, OutputByteLimit: &limit,
	})
	if err != nil {
		return tools.ShellOutput{}, fmt.Errorf("the editor's terminal did not start it: %w", err)
	}
	term := created.TerminalId
	// Background contexts from here: a cancelled call still kills and
	// releases its terminal.
	bg := context.Background()
	defer func() {
		_, _ = e.conn.ReleaseTerminal(bg, acpsdk.ReleaseTerminalRequest{SessionId: e.id, TerminalId: term})
	}()
	if call := tools.CallID(ctx); call != "" {
		e.updates.inTerminal(call, term)
	}
	exited := make(chan acpsdk.WaitForTerminalExitResponse, 1)
	waitErr := make(chan error, 1)
	go func() {
		r, err := e.conn.WaitForTerminalExit(bg, acpsdk.WaitForTerminalExitRequest{SessionId: e.id, TerminalId: term})
		if err != nil {
			waitErr <- err
			return
		}
		exited <- r
	}()
	var status acpsdk.WaitForTerminalExitResponse
	select {
	case status = <-exited:
	case err := <-waitErr:
		return tools.ShellOutput{}, fmt.Errorf("the editor's terminal: %w", err)
	case <-ctx.Done():
		_, _ = e.conn.KillTerminal(bg, acpsdk.KillTerminalRequest{SessionId: e.id, TerminalId: term})
		select {
		case status = <-exited:
		case <-waitErr:
		case <-time.After(terminalKillWait):
		}
	}
	out, err := e.conn.TerminalOutput(bg, acpsdk.TerminalOutputRequest{SessionId: e.id, TerminalId: term})
	res := tools.ShellOutput{Output: out.Output, Truncated: out.Truncated, ExitCode: exitStatus(status)}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if err != nil {
		return res, fmt.Errorf("the editor's terminal did not give the output: %w", err)
	}
	return res, nil
}

// exitStatus is a terminal's exit as a shell status: the code, or
// 128+signal for a signal clients name (with or without "SIG"; -1 when
// neither is known).
func exitStatus(r acpsdk.WaitForTerminalExitResponse) int {
	if r.ExitCode != nil {
		return *r.ExitCode
	}
	if r.Signal != nil {
		if n, ok := signalNumbers[strings.TrimPrefix(*r.Signal, "SIG")]; ok {
			return 128 + n
		}
	}
	return -1
}

// signalNumbers are POSIX's numbers of the signals that end commands.
var signalNumbers = map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "PIPE": 13, "TERM": 15}
