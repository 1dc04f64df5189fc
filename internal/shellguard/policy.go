package shellguard

import "sort"

// The policy is data: every finding a matcher makes names a rule id, and
// the id alone decides the verdict (policy below). To make something
// stricter or looser, change its row here, not the matcher.

// Rule ids. They are stable: people see them in `zero guard` output and
// may refer to them in project rules.
const (
	RuleDefault          = "default"               // nothing dangerous found
	RuleParseError       = "parse.error"           // the command does not parse
	RuleParseDepth       = "parse.depth"           // nested code deeper than Options.MaxDepth
	RuleDeleteProtected  = "delete.protected"      // recursive delete of /, ~, the workspace root or a system path
	RuleDeleteWorkspace  = "delete.workspace"      // recursive delete of the workspace root itself or everything in it
	RuleDeleteRecursive  = "delete.recursive"      // any other recursive delete
	RuleDeleteFiles      = "delete.files"          // a delete of files outside, by a glob, computed at run time, or shred
	RuleDeleteUndoable   = "delete.undoable"       // a recursive or glob delete inside the workspace that checkpoints can rewind
	RuleWrappedCommand   = "wrapped.command"       // a command unknown to the guard whose arguments are a dangerous command line
	RuleMoveProtected    = "move.protected"        // mv of /, ~, the workspace root or a system path
	RuleDiskWrite        = "disk.write"            // writing a block device (dd of=/dev/sda, > /dev/sda)
	RuleDiskFormat       = "disk.format"           // mkfs, wipefs, partitioning
	RuleForkBomb         = "forkbomb"              // a function that spawns itself repeatedly
	RulePermSystem       = "perm.recursive-system" // chmod/chown/chgrp -R on / or a system path
	RuleWriteOutside     = "write.outside"         // a write outside the workspace, added roots and temp
	RuleWriteUnknown     = "write.unknown"         // a write to a path computed at run time
	RuleWriteDevice      = "write.device"          // a write to a device that is not a known disk
	RuleSecretAccess     = "secret.access"         // a command names a secret file (~/.ssh, .env, ...)
	RuleDownloadExec     = "download.exec"         // downloaded content run by a shell or interpreter
	RuleCodeStdin        = "code.stdin"            // a shell or interpreter reading code from stdin
	RuleCodeDynamic      = "code.dynamic"          // code or a command name computed at run time
	RuleInterpreter      = "interpreter.inline"    // python -c, node -e, perl -e, awk system()
	RuleScriptRecent     = "script.recent"         // running a script written by this session or command
	RulePrivilege        = "privilege.escalation"  // sudo, doas, su, pkexec, run0, runuser
	RuleSystemPower      = "system.power"          // shutdown, reboot, halt, poweroff, kill -1
	RuleGitResetHard     = "git.reset-hard"        // git reset --hard / --merge / --keep loses work
	RuleGitPushForce     = "git.push-force"        // force, mirror, delete or +refspec pushes
	RuleGitClean         = "git.clean"             // git clean -f and variants
	RuleGitCheckout      = "git.checkout-discard"  // git checkout -- <paths>, checkout ., checkout -f
	RuleGitRestore       = "git.restore"           // git restore touching the worktree
	RuleGitBranchDelete  = "git.branch-delete"     // git branch -D / --delete --force
	RuleGitStashDrop     = "git.stash-drop"        // git stash drop / clear
	RuleGitHistory       = "git.history-rewrite"   // filter-branch, filter-repo, reflog expire, update-ref -d
	RuleGitOutside       = "git.outside-workspace" // git -C / --git-dir / --work-tree outside the workspace
	RuleGitConfigCommand = "git.config-command"    // git -c with a key that runs a program
	RuleNetUpload        = "network.upload"        // curl/wget sending a local file (-d @f, -F x=@f, -T f)
	RuleNetShell         = "network.shell"         // nc -e, ncat --exec, socat EXEC:: a program on a socket
	RuleRemoteExec       = "remote.exec"           // ssh host COMMAND, ssh -o ProxyCommand=...
	RuleContainerHost    = "container.host"        // docker run -v /:/h, -v ~:..., --privileged, --pid=host
	RuleCrontab          = "crontab.change"        // crontab -r, crontab -, crontab FILE, crontab -e
	RuleWriteControl     = "write.control"         // a write to .git/hooks, .git/config or .zero of a root
)

// policy maps each rule id to its verdict and a one-line description.
var policy = map[string]struct {
	level Level
	doc   string
}{
	RuleDefault:          {Allow, "no dangerous command found"},
	RuleParseError:       {Ask, "the command could not be parsed, so it cannot be checked"},
	RuleParseDepth:       {Ask, "code nested deeper than the guard follows"},
	RuleDeleteProtected:  {Deny, "recursive delete of /, the home directory, the workspace root or a system path"},
	RuleDeleteWorkspace:  {Ask, "recursive delete of the workspace root itself"},
	RuleDeleteRecursive:  {Ask, "recursive delete"},
	RuleDeleteFiles:      {Ask, "file delete outside the workspace, by a glob or of a path computed at run time"},
	RuleDeleteUndoable:   {Ask, "recursive or glob delete inside the workspace that checkpoints can rewind (auto-accept runs it)"},
	RuleWrappedCommand:   {Ask, "a command the guard does not know, given a dangerous command line as arguments"},
	RuleMoveProtected:    {Deny, "moving /, the home directory, the workspace root or a system path"},
	RuleDiskWrite:        {Deny, "raw write to a disk device"},
	RuleDiskFormat:       {Deny, "formatting, wiping or partitioning a disk"},
	RuleForkBomb:         {Deny, "fork bomb"},
	RulePermSystem:       {Deny, "recursive chmod/chown/chgrp of / or a system path"},
	RuleWriteOutside:     {Ask, "write outside the workspace"},
	RuleWriteUnknown:     {Ask, "write to a path computed at run time"},
	RuleWriteDevice:      {Ask, "write to a device"},
	RuleSecretAccess:     {Ask, "touches a secret file"},
	RuleDownloadExec:     {Ask, "downloaded content run as code"},
	RuleCodeStdin:        {Ask, "a shell or interpreter reads code from its input"},
	RuleCodeDynamic:      {Ask, "code or command name computed at run time"},
	RuleInterpreter:      {Ask, "interpreter one-liner that cannot be checked"},
	RuleScriptRecent:     {Ask, "runs a script written in this session"},
	RulePrivilege:        {Ask, "privilege escalation"},
	RuleSystemPower:      {Ask, "shuts down or restarts the machine, or kills every process"},
	RuleGitResetHard:     {Ask, "git reset that discards uncommitted work"},
	RuleGitPushForce:     {Ask, "git push that rewrites or deletes remote history"},
	RuleGitClean:         {Ask, "git clean that deletes untracked files"},
	RuleGitCheckout:      {Ask, "git checkout that discards uncommitted changes"},
	RuleGitRestore:       {Ask, "git restore that discards uncommitted changes"},
	RuleGitBranchDelete:  {Ask, "forced git branch delete"},
	RuleGitStashDrop:     {Ask, "git stash drop/clear loses stashed work"},
	RuleGitHistory:       {Ask, "git history rewrite"},
	RuleGitOutside:       {Ask, "git run on a repository outside the workspace"},
	RuleGitConfigCommand: {Ask, "git -c setting that runs a program or alias"},
	RuleNetUpload:        {Ask, "uploads a local file to the network"},
	RuleNetShell:         {Ask, "serves a program (a shell) on a network connection"},
	RuleRemoteExec:       {Ask, "runs a command on another machine, or a local proxy command"},
	RuleContainerHost:    {Ask, "container given the host: its root, home, docker socket, privileges or namespaces"},
	RuleCrontab:          {Ask, "replaces or removes the user's scheduled jobs"},
	RuleWriteControl:     {Ask, "writes a file that runs code later (.git/hooks, .git/config, .zero)"},
}

// RuleInfo describes one rule of the guard's policy.
type RuleInfo struct {
	ID      string `json:"id"`
	Verdict Level  `json:"verdict"`
	Doc     string `json:"doc"`
}

// Rules returns the guard's rule table sorted by id, for `zero guard`
// help and `zero rules doctor`.
func Rules() []RuleInfo {
	out := make([]RuleInfo, 0, len(policy))
	for id, p := range policy {
		out = append(out, RuleInfo{ID: id, Verdict: p.level, Doc: p.doc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// systemRoots are top-level directories whose recursive delete (or the
// delete of everything inside them) is refused.
var systemRoots = set("/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
	"/lost+found", "/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys",
	"/tmp", "/usr", "/var", "/var/tmp", "/var/lib", "/var/log", "/usr/local", "/nix", "/private",
	"/Applications", "/Library", "/System", "/Users", "/Volumes", "/cores")

// systemTrees are directories where a recursive delete of anything
// inside is refused too (it breaks the operating system). The carve-outs
// in systemTreeExceptions are places people install things by hand.
var systemTrees = []string{"/bin", "/boot", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/sbin",
	"/usr", "/System", "/proc", "/sys"}

var systemTreeExceptions = []string{"/usr/local"}

// shells run their -c argument, a script file, or code read from stdin.
var shells = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash")

// interpreters maps an interpreter to the flags whose value is inline code
// and the flags that print information and run nothing.
var interpreters = map[string]struct {
	codeFlags []string
	argFlags  []string // flags that take a value that is not code
	info      []string
}{
	"python":     {[]string{"-c"}, []string{"-W", "-X", "-Q"}, []string{"-V", "--version", "-h", "--help"}},
	"pypy":       {[]string{"-c"}, []string{"-W", "-X"}, []string{"-V", "--version", "-h", "--help"}},
	"node":       {[]string{"-e", "--eval", "-p", "--print"}, []string{"-r", "--require", "--import", "--loader"}, []string{"-v", "--version", "-h", "--help"}},
	"bun":        {[]string{"-e", "--eval", "-p", "--print"}, nil, []string{"-v", "--version", "-h", "--help"}},
	"deno":       {[]string{"eval"}, nil, []string{"-V", "--version", "-h", "--help"}},
	"perl":       {[]string{"-e", "-E"}, []string{"-I", "-M", "-m"}, []string{"-v", "--version", "-h"}},
	"ruby":       {[]string{"-e"}, []string{"-I", "-r"}, []string{"-v", "--version", "-h", "--help"}},
	"php":        {[]string{"-r"}, []string{"-d", "-c"}, []string{"-v", "--version", "-h"}},
	"lua":        {[]string{"-e"}, []string{"-l"}, []string{"-v"}},
	"luajit":     {[]string{"-e"}, []string{"-l"}, []string{"-v"}},
	"Rscript":    {[]string{"-e"}, nil, []string{"--version"}},
	"osascript":  {[]string{"-e"}, nil, nil},
	"pwsh":       {[]string{"-c", "-command", "-e", "-ec", "-encodedcommand"}, nil, []string{"-v", "-version", "--version"}},
	"powershell": {[]string{"-c", "-command", "-e", "-ec", "-encodedcommand"}, nil, []string{"-version"}},
	"tclsh":      {nil, nil, nil},
	"jshell":     {nil, nil, []string{"--version"}},
}

// downloaders fetch content from the network; their output piped or
// substituted into a shell is never run unprompted (case B19).
var downloaders = set("curl", "wget", "fetch", "aria2c", "http", "https", "xh", "httpie", "lwp-request",
	"GET", "nc", "ncat", "netcat", "socat", "ftp", "tftp", "scp", "rsync", "lynx", "links", "w3m", "iwr",
	"Invoke-WebRequest", "irm", "Invoke-RestMethod")

// formatters format, wipe or partition disks. Listing flags make the
// partition tools harmless (fdisk -l).
var formatters = set("mkfs", "mke2fs", "mkswap", "mkdosfs", "mkntfs", "wipefs", "blkdiscard", "fdisk",
	"sfdisk", "cfdisk", "gdisk", "sgdisk", "cgdisk", "parted", "diskutil", "format", "zpool", "newfs")

var formatterListFlags = set("-l", "--list", "-p", "--print", "-s")

// powerCommands shut down or restart the machine.
var powerCommands = set("shutdown", "reboot", "halt", "poweroff")

// harmlessDevices may be written freely.
var harmlessDevices = set("/dev/null", "/dev/zero", "/dev/full", "/dev/stdout", "/dev/stderr", "/dev/stdin",
	"/dev/tty", "/dev/random", "/dev/urandom", "/dev/ptmx", "/dev/console")

var harmlessDevicePrefixes = []string{"/dev/fd/", "/dev/pts/", "/dev/shm/"}

// diskDevicePrefixes name block devices and raw memory: a write there
// destroys data below the file system.
var diskDevicePrefixes = []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk",
	"/dev/disk", "/dev/rdisk", "/dev/loop", "/dev/md", "/dev/dm-", "/dev/mapper/", "/dev/sr", "/dev/nbd",
	"/dev/zram", "/dev/mtd", "/dev/ubi", "/dev/block/", "/dev/root", "/dev/mem", "/dev/kmem", "/dev/port",
	"/dev/fb", "/dev/bcache", "/dev/rbd", "/dev/zd", "/dev/cciss/", "/dev/ram"}

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
