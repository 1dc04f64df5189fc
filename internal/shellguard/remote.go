package shellguard

import (
	"fmt"
	"path/filepath"
	"strings"
)

// This file classifies commands that move data or control off the
// machine or out of a container's walls: curl/wget uploading a local
// file, netcat/socat serving a shell, ssh running a remote command,
// docker mounting the host or running privileged, and crontab replacing
// the user's schedule (QA report: each ran unprompted in auto-accept).

// curlUploadFlags take a value that names a local file to send when it
// starts with '@' (or '<' for -F); curlFileFlags always name one.
var (
	curlDataLong  = []string{"--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json"}
	curlFormLong  = []string{"--form", "--form-string"}
	curlFileLong  = []string{"--upload-file"}
	curlValueLong = []string{"--output", "--header", "--user", "--user-agent", "--request", "--url", "--cookie",
		"--cookie-jar", "--config", "--cert", "--key", "--cacert", "--proxy", "--referer", "--max-time",
		"--connect-timeout", "--retry", "--write-out", "--resolve", "--data-raw", "--output-dir", "--range"}
)

// curlShortValue are curl's short flags that take a value.
const curlShortValue = "dFTohuAXeEbcKrxmwYyzCQtLP"

// uploadValue reports whether a curl data/form/upload value sends a
// local file (or stdin) and which.
func uploadValue(flag, v string) (string, bool) {
	switch flag {
	case "-T", "--upload-file":
		return v, v != ""
	case "-F", "--form":
		_, val, ok := strings.Cut(v, "=")
		if ok && (strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<")) {
			f, _, _ := strings.Cut(val[1:], ";")
			return f, true
		}
		return "", false
	case "--data-urlencode":
		if strings.HasPrefix(v, "@") {
			return v[1:], true
		}
		if _, f, ok := strings.Cut(v, "@"); ok && !strings.Contains(v[:strings.Index(v, "@")], "=") {
			return f, true
		}
		return "", false
	case "--form-string":
		return "", false
	}
	if strings.HasPrefix(v, "@") {
		return v[1:], true
	}
	return "", false
}

// curlUpload asks when curl sends a local file: -d @f, --data-binary @f,
// --json @f, -F x=@f, -T f, --upload-file f (also @- from stdin).
func (c *checker) curlUpload(cmd command) {
	args := cmd.args
	report := func(flag, v string) bool {
		if f, ok := uploadValue(flag, v); ok {
			what := quote(f)
			if f == "-" || f == "." {
				what = "its standard input"
			}
			c.add(RuleNetUpload, fmt.Sprintf("curl %s uploads %s", flag, what), cmd.part)
			return true
		}
		return false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known() || !strings.HasPrefix(a.s, "-") || a.s == "-" {
			continue
		}
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i].s, true
			}
			return "", false
		}
		if strings.HasPrefix(a.s, "--") {
			name, val, hasVal := strings.Cut(a.s, "=")
			switch {
			case contains(curlDataLong, name) || contains(curlFormLong, name) || contains(curlFileLong, name):
				if !hasVal {
					if val, hasVal = next(); !hasVal {
						continue
					}
				}
				if report(name, val) {
					return
				}
			case contains(curlValueLong, name) && !hasVal:
				next()
			}
			continue
		}
		for j := 1; j < len(a.s); j++ {
			f := a.s[j]
			if strings.IndexByte(curlShortValue, f) < 0 {
				continue
			}
			val := a.s[j+1:]
			if val == "" {
				var ok bool
				if val, ok = next(); !ok {
					break
				}
			}
			if strings.IndexByte("dFT", f) >= 0 && report("-"+string(f), val) {
				return
			}
			break
		}
	}
}

// wgetUpload asks for wget --post-file / --body-file.
func (c *checker) wgetUpload(cmd command) {
	for i, a := range cmd.args {
		for _, flag := range []string{"--post-file", "--body-file"} {
			f, ok := "", false
			switch {
			case a.s == flag && i+1 < len(cmd.args):
				f, ok = cmd.args[i+1].s, true
			case strings.HasPrefix(a.s, flag+"="):
				f, ok = a.s[len(flag)+1:], true
			}
			if ok {
				c.add(RuleNetUpload, fmt.Sprintf("wget %s uploads %s", flag, quote(f)), cmd.part)
				return
			}
		}
	}
}

// netcat asks for nc/ncat/netcat -e, -c, --exec, --sh-exec, --lua-exec:
// a shell served on a socket.
func (c *checker) netcat(cmd command) {
	for _, a := range cmd.args {
		if !a.known() {
			continue
		}
		if strings.HasPrefix(a.s, "--") {
			name, _, _ := strings.Cut(a.s, "=")
			if name == "--exec" || name == "--sh-exec" || name == "--lua-exec" {
				c.add(RuleNetShell, cmd.base+" "+name+" runs a program on a network connection", cmd.part)
				return
			}
			continue
		}
		if strings.HasPrefix(a.s, "-") && len(a.s) > 1 && strings.ContainsAny(a.s[1:2], "ec") {
			c.add(RuleNetShell, cmd.base+" "+a.s[:2]+" runs a program on a network connection", cmd.part)
			return
		}
	}
}

// socat asks when an address runs a program (EXEC:, SYSTEM:).
func (c *checker) socat(cmd command) {
	for _, a := range cmd.args {
		l := strings.ToLower(strings.TrimSpace(a.s))
		if strings.HasPrefix(l, "exec:") || strings.HasPrefix(l, "system:") || !a.known() && strings.HasPrefix(l, "exec") {
			c.add(RuleNetShell, "socat address "+quote(clip(a.s))+" runs a program on a connection", cmd.part)
			return
		}
	}
}

// sshValueFlags are ssh's short flags that take a value.
const sshValueFlags = "BbcDEeFIiJLlmOoPpQRSWw"

// ssh asks when a remote command follows the destination, or when -o
// sets a ProxyCommand/LocalCommand/KnownHostsCommand (run locally).
func (c *checker) ssh(cmd command) {
	args := cmd.args
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.known() || !strings.HasPrefix(a.s, "-") || a.s == "-" {
			break
		}
		if a.s == "--" {
			i++
			break
		}
		for j := 1; j < len(a.s); j++ {
			f := a.s[j]
			if strings.IndexByte(sshValueFlags, f) < 0 {
				continue
			}
			val := a.s[j+1:]
			if val == "" && i+1 < len(args) {
				i++
				val = args[i].s
			}
			if f == 'o' {
				key, _, _ := strings.Cut(strings.TrimSpace(val), "=")
				key, _, _ = strings.Cut(key, " ")
				key = strings.ToLower(key)
				if key == "proxycommand" || key == "localcommand" || key == "knownhostscommand" || key == "permitlocalcommand" {
					c.add(RuleRemoteExec, "ssh -o "+key+" runs a local command", cmd.part)
					return
				}
			}
			break
		}
	}
	if i+1 < len(args) {
		c.add(RuleRemoteExec, fmt.Sprintf("ssh runs a command on %s", quote(args[i].s)), cmd.part)
	}
}

// containerEngines run containers with docker's flags.
var containerEngines = set("docker", "podman", "nerdctl")

// dockerValueFlags are `docker run` flags that take a value (the ones
// the guard must skip to find the image; others are booleans).
var dockerValueFlags = set("-e", "--env", "--env-file", "-p", "--publish", "--name", "-w", "--workdir", "-u", "--user",
	"--network", "--net", "--entrypoint", "-l", "--label", "--label-file", "-h", "--hostname", "--platform",
	"--memory", "-m", "--cpus", "--restart", "--add-host", "--dns", "--log-driver", "--log-opt", "--ulimit",
	"--tmpfs", "--shm-size", "--stop-signal", "--cidfile", "--ipc", "--uts", "--pull", "--gpus", "--expose",
	"--health-cmd", "--device", "--security-opt", "--cap-drop", "--group-add", "--runtime", "--init-path")

// docker asks when `docker run`/`create` mounts the host's root, home,
// a system path or the docker socket, or runs privileged (--privileged,
// --pid=host, --cap-add SYS_ADMIN/ALL, --userns=host): each hands the
// container the host.
func (c *checker) docker(cmd command) {
	args := cmd.args
	k := 0
	for k < len(args) && args[k].known() && strings.HasPrefix(args[k].s, "-") {
		k++ // engine flags (docker --context x run ...) without values
	}
	if k < len(args) && args[k].s == "container" {
		k++
	}
	if k >= len(args) || args[k].s != "run" && args[k].s != "create" {
		return
	}
	args = args[k+1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known() || !strings.HasPrefix(a.s, "-") {
			if a.known() {
				return // the image: the rest is the container's command
			}
			continue
		}
		name, val, hasVal := strings.Cut(a.s, "=")
		if !hasVal && (name == "-v" || name == "--volume" || name == "--mount" || name == "--cap-add" || name == "--pid" ||
			name == "--userns" || name == "--network" || name == "--net" || dockerValueFlags[name]) {
			if i+1 < len(args) {
				i++
				val = args[i].s
			}
		}
		if !hasVal && strings.HasPrefix(name, "-v") && len(name) > 2 {
			name, val = "-v", name[2:]
		}
		why := ""
		switch name {
		case "--privileged":
			why = "runs a privileged container"
		case "--pid", "--userns", "--uts", "--ipc":
			if strings.EqualFold(val, "host") {
				why = "shares the host's " + name[2:] + " namespace"
			}
		case "--cap-add":
			if v := strings.ToUpper(strings.TrimPrefix(strings.ToUpper(val), "CAP_")); v == "ALL" || v == "SYS_ADMIN" || v == "SYS_PTRACE" || v == "SYS_MODULE" {
				why = "adds capability " + val
			}
		case "-v", "--volume":
			src, _, _ := strings.Cut(val, ":")
			why = c.hostMount(src)
		case "--mount":
			for _, kv := range strings.Split(val, ",") {
				key, v, _ := strings.Cut(kv, "=")
				if key == "source" || key == "src" {
					why = c.hostMount(v)
				}
			}
		}
		if why != "" {
			c.add(RuleContainerHost, cmd.base+" "+why, cmd.part)
			return
		}
	}
}

// hostMount says why bind-mounting src into a container hands it the
// host, or "" (named volumes, project folders).
func (c *checker) hostMount(src string) string {
	if strings.Contains(src, unknown) {
		return "mounts a host path computed at run time"
	}
	if src == "" || !strings.ContainsAny(src[:1], "/~.") {
		return "" // a named volume
	}
	p := c.resolve(src)
	switch {
	case p == "/":
		return `mounts the host's root "/"`
	case p == c.opts.Home || within(c.opts.Home, p):
		return "mounts the home directory " + quote(src)
	case strings.HasSuffix(p, "docker.sock"):
		return "mounts the container engine's socket " + quote(src)
	case c.isSystem(p) && !c.strictlyInside(p):
		return "mounts the system path " + quote(src)
	}
	if kind, ok := SecretPath(p, c.opts.Home, ""); ok {
		return "mounts " + quote(src) + " (" + kind + ")"
	}
	return ""
}

// crontab asks for anything but listing: -r removes every job, `-` and a
// file replace the table, -e edits it.
func (c *checker) crontab(cmd command) {
	flags, ops := splitFlags(cmd.args)
	for _, a := range cmd.args {
		if a.known() && a.s == "-" {
			c.add(RuleCrontab, "crontab - replaces the user's scheduled jobs with its input", cmd.part)
			return
		}
	}
	switch {
	case hasFlag(flags, 'r'):
		c.add(RuleCrontab, "crontab -r removes every scheduled job", cmd.part)
	case hasFlag(flags, 'e'):
		c.add(RuleCrontab, "crontab -e edits the scheduled jobs", cmd.part)
	case hasFlag(flags, 'l'):
	case len(ops) > 0 && !(hasFlag(flags, 'u') && len(ops) == 1):
		c.add(RuleCrontab, "crontab "+quote(filepath.Base(ops[len(ops)-1].s))+" replaces the user's scheduled jobs", cmd.part)
	case len(flags) == 0 && len(ops) == 0:
		c.add(RuleCrontab, "crontab with no file replaces the scheduled jobs with its input", cmd.part)
	}
}
