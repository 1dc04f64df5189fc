package acp

import (
	"context"
	"time"
	"unicode/utf8"

	acpsdk "github.com/coder/acp-go-sdk"
)

// fsConn is the client's file system, when it offers one.
type fsConn interface {
	ReadTextFile(ctx context.Context, p acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error)
	WriteTextFile(ctx context.Context, p acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error)
}

// editorTimeout bounds one fs/* request: an editor that does not answer
// leaves a read to the disk and fails a write.
const editorTimeout = 30 * time.Second

// editorFS is a workspace.Editor over the client's fs/read_text_file and
// fs/write_text_file (https://agentclientprotocol.com/protocol/file-system):
// file tools see unsaved buffers and their edits show in the editor. The
// workspace confines every path first, and the gate has allowed the call.
type editorFS struct {
	conn        fsConn
	id          acpsdk.SessionId
	read, write bool
}

func (e *editorFS) ReadText(abs string) (string, bool) {
	if !e.read {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.Background(), editorTimeout)
	defer cancel()
	resp, err := e.conn.ReadTextFile(ctx, acpsdk.ReadTextFileRequest{SessionId: e.id, Path: abs})
	if err != nil {
		return "", false
	}
	return resp.Content, true
}

func (e *editorFS) WriteText(abs string, data []byte) (bool, error) {
	if !e.write || !utf8.Valid(data) {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), editorTimeout)
	defer cancel()
	if _, err := e.conn.WriteTextFile(ctx, acpsdk.WriteTextFileRequest{SessionId: e.id, Path: abs, Content: string(data)}); err != nil {
		return true, err
	}
	return true, nil
}
