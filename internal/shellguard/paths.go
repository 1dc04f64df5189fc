package shellguard

import (
	"path/filepath"
	"strings"
)

// resolve makes p absolute against the command's working directory and
// cleans it lexically ("../../.." from the workspace can reach /: case
// B19). It does not follow symlinks: the guard never touches the disk.
// When the working directory is unknown (after cd $X) a relative path
// comes back holding the unknown mark.
func (c *checker) resolve(p string) string {
	if strings.HasPrefix(p, "~") {
		p = c.expandTilde(p)
	}
	if !filepath.IsAbs(p) {
		if strings.Contains(c.opts.Cwd, unknown) {
			return unknown + "/" + p
		}
		p = filepath.Join(c.opts.Cwd, p)
	}
	return filepath.Clean(p)
}

// cd follows cd and pushd so later relative paths resolve where the
// command really is (`cd / && rm -rf *`). A directory computed at run time
// makes relative paths unknown from then on.
func (c *checker) cd(cmd command) {
	_, ops := splitFlags(cmd.args)
	switch {
	case len(ops) == 0:
		c.opts.Cwd = c.opts.Home
	case !ops[0].known() || ops[0].s == "-":
		c.opts.Cwd = unknown
	default:
		c.opts.Cwd = c.resolve(ops[0].s)
	}
}

// within reports whether p is root or inside it, component-wise (never a
// string prefix: /t/project-evil is not inside /t/project, case B23).
func within(p, root string) bool {
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// everything reports whether a glob base is made of glob characters
// only ("*", "??*", "[a-z]*"), so it matches (nearly) every entry of its
// directory.
func everything(base string) bool {
	inClass := false
	for _, r := range base {
		switch {
		case r == '[':
			inClass = true
		case r == ']':
			inClass = false
		case inClass || r == '*' || r == '?' || r == '!' || r == '^':
		default:
			return false
		}
	}
	return true
}

// protected says why deleting p recursively is refused, or "" when it is
// not. A glob that matches everything in a directory counts as the
// directory. filtered is true for a find expression that narrows what is
// deleted; then only / and system paths are protected.
func (c *checker) protected(p string, glob, filtered bool) string {
	what := ""
	if glob {
		dir, base := filepath.Split(p)
		dir = filepath.Clean(dir)
		// Any glob directly under / reaches system directories (/e* is
		// /etc); elsewhere only a glob of wildcards alone counts.
		if !everything(base) && dir != "/" {
			return ""
		}
		p = dir
		what = "everything in "
		if !everything(base) {
			what = "entries matching " + quote(base) + " in "
		}
	}
	if p == "/" {
		return what + `the filesystem root "/"`
	}
	if c.strictlyInside(p) {
		return ""
	}
	if c.isSystem(p) {
		return what + "the system path " + quote(p)
	}
	if filtered {
		return ""
	}
	switch {
	case p == c.opts.Home:
		return what + "the home directory " + quote(p)
	case p == c.opts.Workspace:
		return what + "the workspace root " + quote(p)
	case within(c.opts.Workspace, p):
		return what + quote(p) + ", which contains the workspace"
	case within(c.opts.Home, p):
		return what + quote(p) + ", which contains the home directory"
	}
	for _, r := range c.opts.Roots {
		if within(filepath.Clean(r), p) {
			return what + quote(p) + ", which contains the added directory " + quote(r)
		}
	}
	return ""
}

// strictlyInside reports whether p is below (not at) the workspace root or
// an added root: such paths are the user's project, even when the
// workspace itself lives under a system path such as /usr/src/app.
func (c *checker) strictlyInside(p string) bool {
	for _, r := range append([]string{c.opts.Workspace}, c.opts.Roots...) {
		if r != "" && p != filepath.Clean(r) && within(p, filepath.Clean(r)) {
			return true
		}
	}
	return false
}

// isSystem reports whether p is a system root or inside a system tree.
func (c *checker) isSystem(p string) bool {
	if systemRoots[p] {
		return true
	}
	for _, ex := range systemTreeExceptions {
		if within(p, ex) {
			return false
		}
	}
	for _, t := range systemTrees {
		if within(p, t) {
			return true
		}
	}
	return false
}

// writable reports whether p lies in the workspace, an added root or a
// temp directory.
func (c *checker) writable(p string) bool {
	if within(p, c.opts.Workspace) {
		return true
	}
	for _, r := range c.opts.Roots {
		if within(p, filepath.Clean(r)) {
			return true
		}
	}
	for _, t := range c.opts.TempDirs {
		if t != "" && within(p, filepath.Clean(t)) {
			return true
		}
	}
	return false
}

// deviceKind classifies a path under /dev: "" (not a device), "harmless",
// "disk" or "other".
func deviceKind(p string) string {
	if !strings.HasPrefix(p, "/dev/") {
		return ""
	}
	if harmlessDevices[p] {
		return "harmless"
	}
	for _, pre := range harmlessDevicePrefixes {
		if strings.HasPrefix(p, pre) {
			return "harmless"
		}
	}
	for _, pre := range diskDevicePrefixes {
		if strings.HasPrefix(p, pre) {
			return "disk"
		}
	}
	return "other"
}

// SecretPath reports whether path names a secret file or directory and
// which kind: SSH and cloud credentials under home, Zero's own
// credentials under configDir (normally ~/.config/zero), .env files
// anywhere, private keys by their usual names. The match ignores case so
// ~/.SSH counts on case-insensitive file systems. path must be absolute
// and clean; home and configDir may be empty.
func SecretPath(path, home, configDir string) (string, bool) {
	lp := strings.ToLower(path)
	base := filepath.Base(lp)
	if home != "" {
		lh := strings.ToLower(filepath.Clean(home))
		for _, d := range []string{".ssh", ".aws", ".gnupg", ".azure", ".config/gcloud", ".kube", ".docker/config.json",
			".netrc", ".git-credentials", ".pypirc", ".npmrc", ".config/gh/hosts.yml", ".password-store", ".vault-token"} {
			if within(lp, filepath.Join(lh, d)) {
				return "~/" + d, true
			}
		}
	}
	if configDir != "" {
		lc := strings.ToLower(filepath.Clean(configDir))
		if within(lp, lc) && isCredentialName(base) {
			return "Zero credentials", true
		}
	}
	if base == ".env" || strings.HasPrefix(base, ".env.") && !envTemplate[strings.TrimPrefix(base, ".env.")] {
		return ".env file", true
	}
	switch base {
	case "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", ".pgpass", ".netrc":
		return "private key or password file", true
	}
	return "", false
}

var envTemplate = set("example", "sample", "template", "dist", "defaults", "schema")

func isCredentialName(base string) bool {
	for _, k := range []string{"credential", "auth", "token", "secret", "key"} {
		if strings.Contains(base, k) {
			return true
		}
	}
	return false
}

func quote(s string) string { return `"` + s + `"` }
