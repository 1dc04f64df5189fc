package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/zero-agent/zero/internal/atomicfile"
)

// historyFile is the prompt history beside the sessions: every prompt the
// user typed, in every session, as typed (`/greet Ann`, not the template
// it expanded to), one JSON line each, for ↑/↓ and ^R in the app.
const historyFile = "history.jsonl"

// historyKeep and historyTrimBytes bound the file: once it is larger
// than historyTrimBytes, an append rewrites it with its newest
// historyKeep lines (so appends stay cheap: one stat each).
var (
	historyKeep      = 2000
	historyTrimBytes = int64(1 << 20)
)

type historyLine struct {
	Time      time.Time `json:"time"`
	Workspace string    `json:"workspace"`
	Text      string    `json:"text"`
}

// AddPrompt records a prompt typed in workspace. The file is the user's
// only (0600: prompts may hold anything); a failure to write it loses
// only recall, so it is returned for a warning and never stops a run.
//
// Many processes may share the file (several apps, a fleet of runs on one
// ZERO_SESSION_DIR): the append and the trim run under an flock on
// history.jsonl.lock, so a trim's rewrite never drops a line another
// process appended after the trim read the file.
func (st *Store) AddPrompt(workspace, text string) error {
	if err := os.MkdirAll(st.dir, 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(historyLine{Time: time.Now().UTC(), Workspace: workspace, Text: text})
	if err != nil {
		return err
	}
	path := filepath.Join(st.dir, historyFile)
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := waitLock(lock); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n')) // one write: lines of concurrent processes do not interleave
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = st.trimHistory(path)
	}
	return err
}

// Prompts returns the prompts typed in workspace, oldest first, the
// newest limit of them; consecutive repeats are kept once. A damaged
// line (a crash mid-write) is skipped.
func (st *Store) Prompts(workspace string, limit int) ([]string, error) {
	lines, err := readHistory(filepath.Join(st.dir, historyFile))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range lines {
		if l.Workspace != workspace || l.Text == "" || (len(out) > 0 && out[len(out)-1] == l.Text) {
			continue
		}
		out = append(out, l.Text)
	}
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

func readHistory(path string) ([]historyLine, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []historyLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var l historyLine
		if json.Unmarshal(sc.Bytes(), &l) == nil {
			out = append(out, l)
		}
	}
	return out, nil
}

// trimHistory rewrites the file with its newest historyKeep lines once it
// is larger than historyTrimBytes.
func (st *Store) trimHistory(path string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() <= historyTrimBytes {
		return err
	}
	lines, err := readHistory(path)
	if err != nil || len(lines) <= historyKeep {
		return err
	}
	var buf bytes.Buffer
	for _, l := range lines[len(lines)-historyKeep:] {
		b, _ := json.Marshal(l)
		buf.Write(append(b, '\n'))
	}
	return atomicfile.Write(path, buf.Bytes(), 0o600)
}
