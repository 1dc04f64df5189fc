package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// HelperArg is the first argument that makes the zero binary act as the
// Landlock helper: Landlock restricts the calling process, and Go cannot
// run code between fork and exec, so Wrap re-executes Zero itself as
// `zero __zero-sandbox-landlock --rw DIR ... [--net] -- CMD ARGS...`; the
// helper restricts itself and then execs CMD. cmd/zero's main must call
// HelperMain when os.Args[1] == HelperArg (before anything else).
const HelperArg = "__zero-sandbox-landlock"

func landlockABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

func (p Policy) wrapLandlock(cmd *exec.Cmd) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("sandbox: cannot find the zero binary for the Landlock helper: %w", err)
	}
	args := []string{exe, HelperArg}
	for _, w := range p.writable() {
		args = append(args, "--rw", w)
	}
	if p.Network {
		args = append(args, "--net")
	}
	args = append(args, "--", cmd.Path)
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path, cmd.Args = exe, args
	return nil
}

// HelperMain runs the Landlock helper with the arguments after HelperArg
// and returns an exit status only when it fails (on success it execs the
// command and never returns). Failures print to stderr prefixed
// "zero sandbox:" and return 126, the shell's "cannot execute" status.
func HelperMain(args []string) int {
	var rw []string
	net := false
	i := 0
	for ; i < len(args); i++ {
		switch args[i] {
		case "--rw":
			if i+1 < len(args) {
				rw = append(rw, args[i+1])
				i++
			}
		case "--net":
			net = true
		case "--":
			i++
			goto run
		default:
			return helperFail(fmt.Errorf("unknown helper argument %q", args[i]))
		}
	}
run:
	if i >= len(args) {
		return helperFail(errors.New("no command to run"))
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(rw...),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx").IgnoreIfMissing().WithIoctlDev(),
		landlock.RWDirs("/dev/pts", "/dev/shm").IgnoreIfMissing().WithIoctlDev(),
	}
	cfg := landlock.V11.BestEffort()
	var err error
	if net {
		err = cfg.RestrictPaths(rules...)
	} else {
		err = cfg.Restrict(rules...)
	}
	if err != nil {
		return helperFail(fmt.Errorf("landlock: %w", err))
	}
	path, err := exec.LookPath(args[i])
	if err != nil {
		return helperFail(err)
	}
	return helperFail(syscall.Exec(path, args[i:], os.Environ()))
}

func helperFail(err error) int {
	fmt.Fprintln(os.Stderr, "zero sandbox:", err)
	return 126
}
