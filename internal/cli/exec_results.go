package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/zero-agent/zero/internal/headless"
)

// resultFlags are zero exec's flags about what a run leaves behind for CI
// (docs/stream-json.md "Results"): the final answer's shape and file, a
// cost budget, and whether the session is kept.
type resultFlags struct {
	schemaFile  string
	schema      *headless.Schema
	lastMessage string
	maxBudget   float64
	ephemeral   bool
}

func (r *resultFlags) register(c *cobra.Command) {
	fs := c.Flags()
	fs.StringVar(&r.schemaFile, "output-schema", "", "the final answer must be JSON that validates against the JSON Schema in `FILE` (retried twice, else exit 8)")
	fs.StringVar(&r.lastMessage, "output-last-message", "", "write the final answer to `FILE` (its folder must exist; with --output-schema, only an answer that validated)")
	fs.Float64Var(&r.maxBudget, "max-budget-usd", 0, "stop (exit 6) once the estimated cost passes `USD` (the model must be priced in the catalog)")
	fs.BoolVar(&r.ephemeral, "ephemeral", false, "keep no session: nothing is written to the sessions directory")
}

// check validates the flags and loads the schema; o is the rest of exec's
// options (--ephemeral cannot resume).
func (r *resultFlags) check(o *execOptions) error {
	if r.maxBudget < 0 || math.IsNaN(r.maxBudget) || math.IsInf(r.maxBudget, 0) {
		return usagef("--max-budget-usd must be a positive amount of US dollars")
	}
	if r.ephemeral && (o.resume.set || o.fork != "") {
		return usagef("--ephemeral keeps no session, so it cannot --resume or --fork one")
	}
	if r.lastMessage != "" {
		if err := checkOutputFile(r.lastMessage); err != nil {
			return usagef("--output-last-message %s: %v", r.lastMessage, err)
		}
	}
	if r.schemaFile != "" {
		s, err := headless.LoadSchema(r.schemaFile)
		if err != nil {
			return usagef("%v", err)
		}
		r.schema = s
	}
	return nil
}

// ephemeralStore points the session store at a fresh temporary directory
// that the returned function removes: the run works as usual (the log,
// piped input kept whole) and nothing stays in the sessions directory.
func ephemeralStore() (func(), error) {
	dir, err := os.MkdirTemp("", "zero-ephemeral-")
	if err != nil {
		return nil, err
	}
	old, had := os.LookupEnv("ZERO_SESSION_DIR")
	if err := os.Setenv("ZERO_SESSION_DIR", dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return func() {
		if had {
			os.Setenv("ZERO_SESSION_DIR", old)
		} else {
			os.Unsetenv("ZERO_SESSION_DIR")
		}
		os.RemoveAll(dir)
	}, nil
}

// checkOutputFile says why path cannot be written once the run is over,
// checked before anything is sent: its folder is missing or is no
// folder, or path is a folder.
func checkOutputFile(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("no folder %s", dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("a folder, not a file")
	}
	return nil
}
