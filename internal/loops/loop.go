package loops

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/zero-agent/zero/internal/xdg"
)

// The files of a loop's folder.
const (
	SpecFile   = "spec.md"
	ConfigFile = "loop.toml"
	StateFile  = "state.md"
	RulesFile  = "rules.md"
	TicksFile  = "ticks.jsonl"
)

// Root is the folder loops live in: $ZERO_LOOPS_DIR, else
// $XDG_DATA_HOME/zero/loops, else ~/.local/share/zero/loops.
func Root() (string, error) {
	if d := os.Getenv("ZERO_LOOPS_DIR"); d != "" {
		return d, nil
	}
	data, err := xdg.DataDir()
	if err != nil {
		return "", fmt.Errorf("loops: no home directory; set ZERO_LOOPS_DIR: %w", err)
	}
	return filepath.Join(data, "loops"), nil
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Loop is one loop's folder.
type Loop struct {
	Name string
	Dir  string
}

// Open returns the loop called name under root; it must exist.
func Open(root, name string) (*Loop, error) {
	if !namePattern.MatchString(name) {
		return nil, fmt.Errorf("loop name %q: use letters, digits, '.', '_' and '-' (at most 64)", name)
	}
	l := &Loop{Name: name, Dir: filepath.Join(root, name)}
	if _, err := os.Stat(filepath.Join(l.Dir, ConfigFile)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no loop %q in %s (zero loop list shows them; zero loop new %s makes it)", name, root, name)
		}
		return nil, err
	}
	return l, nil
}

// Path is the path of one of the loop's files.
func (l *Loop) Path(file string) string { return filepath.Join(l.Dir, file) }

// Config reads and checks loop.toml.
func (l *Loop) Config() (*Config, error) {
	data, err := os.ReadFile(l.Path(ConfigFile))
	if err != nil {
		return nil, err
	}
	c, err := ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.Path(ConfigFile), err)
	}
	return c, nil
}

// read returns a file of the loop ("" when it does not exist).
func (l *Loop) read(file string) ([]byte, error) {
	data, err := os.ReadFile(l.Path(file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// State reads state.md.
func (l *Loop) State() (State, error) {
	data, err := l.read(StateFile)
	return ParseState(data), err
}

// Ledger reads ticks.jsonl and adds it up.
func (l *Loop) Ledger() (Ledger, error) {
	data, err := l.read(TicksFile)
	if err != nil {
		return Ledger{}, err
	}
	ticks, err := ParseTicks(data)
	if err != nil {
		return Ledger{}, fmt.Errorf("%s: %w", l.Path(TicksFile), err)
	}
	return Sum(ticks), nil
}

// Record appends one row to ticks.jsonl.
func (l *Loop) Record(t Tick) error {
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(l.Path(TicksFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Arm locks the gates' definitions as loop.toml has them now: later runs
// refuse gates that differ until the loop is armed again. It returns the
// gates armed.
func (l *Loop) Arm(now time.Time) (*Config, error) {
	c, err := l.Config()
	if err != nil {
		return nil, err
	}
	return c, l.Record(Tick{Kind: KindArm, Time: now, GatesHash: c.GatesHash()})
}

// Create makes the loop called name under root from a template, its
// workdir recorded in loop.toml. An existing loop is never overwritten.
func Create(root, name, template, workdir string) (*Loop, error) {
	if !namePattern.MatchString(name) {
		return nil, fmt.Errorf("loop name %q: use letters, digits, '.', '_' and '-' (at most 64)", name)
	}
	if template == "" {
		template = DefaultTemplate
	}
	t, ok := templates[template]
	if !ok {
		return nil, fmt.Errorf("no template %q (templates: %s)", template, TemplateNames())
	}
	l := &Loop{Name: name, Dir: filepath.Join(root, name)}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	if err := os.Mkdir(l.Dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("loop %q exists already (%s)", name, l.Dir)
		}
		return nil, err
	}
	files := map[string]string{
		SpecFile:   t.spec,
		ConfigFile: t.config + "\n[run]\nworkdir = " + strconv.Quote(workdir) + "\n",
		StateFile:  t.state,
		RulesFile:  rulesStart,
	}
	for file, text := range files {
		if err := os.WriteFile(l.Path(file), []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// List returns the loops under root, by name (none when root does not
// exist yet).
func List(root string) ([]*Loop, error) {
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Loop
	for _, e := range ents {
		if !e.IsDir() || !namePattern.MatchString(e.Name()) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err == nil {
			out = append(out, &Loop{Name: e.Name(), Dir: dir})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// lockFile is held (flock) by the one zero loop run driving the loop.
const lockFile = ".run.lock"

// lock takes the loop's run lock, or fails with ErrRunning.
func (l *Loop) lock() (unlock func(), err error) {
	f, err := os.OpenFile(l.Path(lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	held, err := tryLock(f)
	if err != nil || held {
		f.Close()
		if held {
			err = fmt.Errorf("%w: another zero loop run %s holds %s", ErrRunning, l.Name, l.Path(lockFile))
		}
		return nil, err
	}
	return func() { f.Close() }, nil
}

// Running reports whether a zero loop run is driving the loop now.
func (l *Loop) Running() bool {
	unlock, err := l.lock()
	if err != nil {
		return errors.Is(err, ErrRunning)
	}
	unlock()
	return false
}
