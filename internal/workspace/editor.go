package workspace

import (
	"bytes"
	"io"
)

// Editor is an editor that holds the workspace's files, unsaved buffers
// included (ACP's fs/read_text_file and fs/write_text_file:
// https://agentclientprotocol.com/protocol/file-system). With one set, the
// file tools read and write writable roots' files through it, after the
// same confinement; ok false means it does not (or could not) and the
// disk is used.
type Editor interface {
	ReadText(abs string) (text string, ok bool)
	WriteText(abs string, data []byte) (ok bool, err error)
}

type editorBox struct{ e Editor }

// SetEditor sends file reads and writes of writable roots through e (nil:
// the disk again).
func (w *Workspace) SetEditor(e Editor) {
	w.editor.Store(&editorBox{e})
}

// editorFor is the editor for abs: set, and abs in a writable root.
func (w *Workspace) editorFor(abs string) Editor {
	b := w.editor.Load()
	if b == nil || b.e == nil {
		return nil
	}
	if r, ok := w.rootOf(abs); !ok || r.readOnly {
		return nil
	}
	return b.e
}

// ReadSource opens the resolved path abs for reading: the editor's
// buffer when an editor holds it, else the file.
func (w *Workspace) ReadSource(abs string) (io.ReadCloser, error) {
	if e := w.editorFor(abs); e != nil {
		if _, _, err := w.handle(abs); err != nil {
			return nil, err
		}
		if text, ok := e.ReadText(abs); ok {
			return io.NopCloser(bytes.NewReader([]byte(text))), nil
		}
	}
	return w.Open(abs)
}
