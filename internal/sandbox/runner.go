package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/zero-agent/zero/internal/config"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Backends reported by Backend.
const (
	BackendBubblewrap = "bubblewrap"
	BackendLandlock   = "landlock"
	BackendSeatbelt   = "seatbelt"
	BackendNone       = "none"
)

// Policy is what a sandboxed shell command may touch. Reads are allowed
// everywhere except Hide; writes only in Workspace, Writable and TempDirs
// (under bubblewrap not in their .git/hooks, .git/config and .zero: see
// readOnlyControl); the network only when Network is set.
type Policy struct {
	// Workspace is the workspace root (writable).
	Workspace string
	// Writable are extra writable roots (--add-dir).
	Writable []string
	// TempDirs are writable temp directories; nil means /tmp, /var/tmp
	// and $TMPDIR.
	TempDirs []string
	// Network allows network access (granted by the user).
	Network bool
	// NetworkAsk is sandbox.network "ask": a command without Network was
	// not one the permission table knows to need it (Annotate says so).
	NetworkAsk bool
	// Hide are files and directories the command must not read (with
	// bubblewrap they are covered by an empty tmpfs or /dev/null); nil
	// means DefaultHidden of the user's home.
	Hide []string
	// Backend forces a backend (tests, `zero doctor` checks); empty means
	// the one Backend detects.
	Backend string
}

// DefaultHidden lists the secret directories under home that sandboxed
// commands cannot read: ~/.ssh, ~/.aws, ~/.gnupg, ~/.config/gcloud,
// ~/.azure, ~/.kube, ~/.docker, ~/.password-store and Zero's config dir.
func DefaultHidden(home, configDir string) []string {
	var out []string
	for _, d := range []string{".ssh", ".aws", ".gnupg", ".config/gcloud", ".azure", ".kube", ".docker", ".password-store"} {
		out = append(out, filepath.Join(home, d))
	}
	if configDir != "" {
		out = append(out, configDir)
	}
	return out
}

var (
	detectOnce     sync.Once
	detectedName   string
	detectedDetail string
)

// Backend returns the sandbox backend shell commands run under on this
// machine: "bubblewrap", "landlock", "seatbelt" or "none". It probes once
// (a bwrap that cannot create namespaces, as in some containers, falls
// back to Landlock).
func Backend() string {
	name, _ := BackendInfo()
	return name
}

// BackendInfo returns Backend and a sentence for `zero doctor` saying why
// (version, ABI, or what failed).
func BackendInfo() (name, detail string) {
	detectOnce.Do(func() { detectedName, detectedDetail = detect() })
	return detectedName, detectedDetail
}

func detect() (string, string) {
	switch runtime.GOOS {
	case "linux":
		bw, bwErr := exec.LookPath("bwrap")
		why := "bwrap is not installed (apt-get install bubblewrap)"
		if bwErr == nil {
			if err := probeBwrap(bw); err == nil {
				return BackendBubblewrap, "bubblewrap at " + bw + ": read-only root, writable workspace and temp, network cut off unless sandbox.network lets a command have it"
			} else {
				why = "bwrap cannot create namespaces here: " + err.Error()
			}
		}
		if abi := landlockABI(); abi > 0 {
			return BackendLandlock, fmt.Sprintf("%s; using Landlock ABI %d (writes confined; network confined from ABI 4)", why, abi)
		}
		return BackendNone, why + "; Landlock is not available in this kernel: shell commands are not sandboxed"
	case "darwin":
		if p, err := exec.LookPath("sandbox-exec"); err == nil {
			return BackendSeatbelt, "sandbox-exec at " + p + " with a generated profile"
		}
		return BackendNone, "sandbox-exec not found: shell commands are not sandboxed"
	}
	return BackendNone, "no sandbox for " + runtime.GOOS + ": shell commands are not sandboxed"
}

// probeBwrap runs true under the same namespace flags Wrap uses.
func probeBwrap(bw string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	args := append(bwrapBase(false, true), "--", "true")
	cmd := exec.CommandContext(ctx, bw, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return errors.New(msg)
		}
		return err
	}
	return nil
}

// bwrapBase is bubblewrap's namespace setup: read-only root, private /dev
// and /proc, new pid/ipc/uts namespaces (and net unless allowed), death
// with Zero, and with newSession bubblewrap's own new session (no TIOCSTI
// into the terminal; see innerSession for why Wrap prefers another).
func bwrapBase(network, newSession bool) []string {
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"}
	if newSession {
		args = append(args, "--new-session")
	}
	if !network {
		args = append(args, "--unshare-net")
	}
	return args
}

// temps returns the temp directories of p.
func (p Policy) temps() []string {
	if p.TempDirs == nil {
		return []string{"/tmp", "/var/tmp", os.TempDir()}
	}
	return p.TempDirs
}

// writable returns the existing writable roots of p, temp directories
// included (Landlock and Seatbelt grant the real ones).
func (p Policy) writable() []string {
	return existingDirs(append(append([]string{p.Workspace}, p.Writable...), p.temps()...))
}

// existingDirs returns the cleaned, de-duplicated dirs that exist.
func existingDirs(dirs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		d = filepath.Clean(d)
		if seen[d] {
			continue
		}
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// Wrap rewrites cmd (already built: Path, Args, Dir, Env) to run inside
// the sandbox; it is meant for tools.Options.CommandWrapper. With no
// sandbox backend it leaves cmd unchanged and returns nil (`zero doctor`
// reports that). An error means the command must not run.
func (p Policy) Wrap(cmd *exec.Cmd) error {
	if p.Workspace == "" {
		return errors.New("sandbox: policy has no workspace")
	}
	backend := p.Backend
	if backend == "" {
		backend = Backend()
	}
	dir := cmd.Dir
	if dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		dir = d
	}
	switch backend {
	case BackendBubblewrap:
		return p.wrapBwrap(cmd, dir)
	case BackendLandlock:
		return p.wrapLandlock(cmd)
	case BackendSeatbelt:
		return p.wrapSeatbelt(cmd)
	case BackendNone:
		return nil
	}
	return fmt.Errorf("sandbox: unknown backend %q", backend)
}

func (p Policy) wrapBwrap(cmd *exec.Cmd, dir string) error {
	bw, err := exec.LookPath("bwrap")
	if err != nil {
		return fmt.Errorf("sandbox: bubblewrap backend chosen but bwrap is missing: %w", err)
	}
	setsid := innerSession()
	args := append([]string{bw}, bwrapBase(p.Network, setsid == "")...)
	// Temp directories are private and empty for each command, so a
	// command cannot write into other projects or files that live under
	// /tmp; the workspace and writable roots are bound after them, so a
	// workspace under /tmp is still the real one.
	for _, t := range existingDirs(p.temps()) {
		args = append(args, "--tmpfs", t)
	}
	roots := existingDirs(append([]string{p.Workspace}, p.Writable...))
	for _, w := range roots {
		args = append(args, "--bind", w, w)
	}
	for _, w := range roots {
		args = append(args, readOnlyControl(w)...)
	}
	hide := p.Hide
	if hide == nil {
		h, _ := os.UserHomeDir()
		hide = DefaultHidden(h, config.Dir())
	}
	for _, h := range hide {
		st, err := os.Stat(h)
		switch {
		case err != nil:
			continue
		case st.IsDir():
			args = append(args, "--tmpfs", h)
		default:
			args = append(args, "--ro-bind", "/dev/null", h)
		}
	}
	args = append(args, "--chdir", dir, "--")
	if setsid != "" {
		args = append(args, setsid, "--wait")
	}
	args = append(args, cmd.Path)
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path, cmd.Args = bw, args
	return nil
}

// innerSession is util-linux's setsid, which Wrap runs inside the sandbox
// in front of the command instead of passing bubblewrap --new-session:
// the command still gets a session without a terminal (no TIOCSTI), but
// bubblewrap's process 1 of the pid namespace stays in the caller's
// process group, so killing that group always ends the namespace and
// everything in it. With --new-session process 1 calls setsid(2) itself,
// before it forks the command and before it binds its life to its parent
// (prctl PR_SET_PDEATHSIG in do_init, bubblewrap.c,
// https://github.com/containers/bubblewrap/blob/main/bubblewrap.c): a kill
// of the group in that window killed bubblewrap's outer process only, and
// the command ran on (TestKilledProcessGroupTakesTheSandboxedCommandWithIt).
// The system's copy comes first: the sandbox covers temp directories, so a
// setsid found there on PATH would be missing inside. "" when setsid is
// not installed (Wrap falls back to --new-session).
func innerSession() string {
	for _, p := range []string{"/usr/bin/setsid", "/bin/setsid"} {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	p, err := exec.LookPath("setsid")
	if err != nil {
		return ""
	}
	return p
}

// readOnlyControl returns the bubblewrap arguments that bind a writable
// root's code-running files read-only, after the root's writable bind:
// .git/hooks and .git/config (git runs hooks and what the config names:
// core.fsmonitor, core.hooksPath, filters) and .zero (Zero's hooks, rules
// and config, loaded next session). Objects, refs and the index stay
// writable, so git add and git commit still work. A repository without a
// hooks directory gets an empty read-only one (git init makes one
// anyway), so the command cannot create it. A missing .zero is not
// created; the trust check (TrustState) notices a .zero that appears.
// Landlock cannot take back part of a writable tree, so under Landlock
// only the permission engine (rule path.control-write) and the trust
// check guard these files.
func readOnlyControl(root string) []string {
	var args []string
	git := filepath.Join(root, ".git")
	if st, err := os.Stat(git); err == nil && st.IsDir() {
		hooks := filepath.Join(git, "hooks")
		if _, err := os.Stat(hooks); err == nil {
			args = append(args, "--ro-bind", hooks, hooks)
		} else if errors.Is(err, os.ErrNotExist) {
			args = append(args, "--tmpfs", hooks, "--remount-ro", hooks)
		}
		if cfg := filepath.Join(git, "config"); exists(cfg) {
			args = append(args, "--ro-bind", cfg, cfg)
		}
	}
	if z := filepath.Join(root, ".zero"); exists(z) {
		args = append(args, "--ro-bind", z, z)
	}
	return args
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Annotate returns a line (starting with a newline) to append to a
// sandboxed command's output when the output shows the sandbox refused
// something (a read-only file system, a permission error under Landlock,
// no network), so the model learns why and what to ask for; "" otherwise.
func (p Policy) Annotate(output string) string {
	backend := p.Backend
	if backend == "" {
		backend = Backend()
	}
	if backend == BackendNone {
		return ""
	}
	var why []string
	if strings.Contains(output, "Read-only file system") || backend != BackendBubblewrap && strings.Contains(output, "Permission denied") ||
		strings.Contains(output, "Operation not permitted") && backend == BackendSeatbelt {
		why = append(why, "writes outside the workspace and temp directories are blocked")
	}
	if !p.Network {
		for _, s := range []string{"Network is unreachable", "Could not resolve host", "Temporary failure in name resolution",
			"Name or service not known", "network is unreachable", "no such host", "Connection refused", "getaddrinfo",
			"Couldn't connect to server", "connect ECONNREFUSED", "ENETUNREACH", "EAI_AGAIN"} {
			if strings.Contains(output, s) {
				why = append(why, "network access is off")
				break
			}
		}
	}
	if len(why) == 0 {
		return ""
	}
	hint := "ask the user to grant it if it is needed"
	switch {
	case !p.Network && p.NetworkAsk && slices.Contains(why, "network access is off"):
		hint = `sandbox.network is "ask": only commands Zero knows to need the network (package installs such as npm install, pip install, go mod download; git clone, fetch, pull, push; curl, wget) ask the user to run with it, and this one ran offline. ` +
			`Run such a command on its own to be asked, or ask the user to set "sandbox": {"network": "on"} in ~/.config/zero/config.json`
	case !p.Network && slices.Contains(why, "network access is off"):
		hint = `if the command needs the network, ask the user to set "sandbox": {"network": "on"} (or "ask") in ~/.config/zero/config.json or to run Zero with --no-sandbox`
	}
	return fmt.Sprintf("\n[sandbox (%s): %s. This is a sandbox refusal, not a bug in the command; %s.]",
		backend, strings.Join(why, "; "), hint)
}
