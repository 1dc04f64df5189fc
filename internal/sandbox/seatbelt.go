package sandbox

import (
	"fmt"
	"os/exec"
	"strings"
)

// seatbeltProfile is the macOS sandbox-exec profile for p: everything is
// allowed except writes outside the writable roots, reads of hidden
// paths and, unless granted, the network.
func (p Policy) seatbeltProfile() string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write*\n")
	for _, w := range p.writable() {
		fmt.Fprintf(&b, "  (subpath %s)\n", sbQuote(w))
	}
	b.WriteString("  (subpath \"/private/tmp\") (subpath \"/private/var/folders\")\n")
	b.WriteString("  (literal \"/dev/null\") (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+$\"))\n")
	for _, h := range p.Hide {
		fmt.Fprintf(&b, "(deny file-read* (subpath %s))\n", sbQuote(h))
	}
	if !p.Network {
		b.WriteString("(deny network*)\n(allow network* (remote unix-socket))\n")
	}
	return b.String()
}

func sbQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func (p Policy) wrapSeatbelt(cmd *exec.Cmd) error {
	sb, err := exec.LookPath("sandbox-exec")
	if err != nil {
		return fmt.Errorf("sandbox: seatbelt backend chosen but sandbox-exec is missing: %w", err)
	}
	args := []string{sb, "-p", p.seatbeltProfile(), cmd.Path}
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path, cmd.Args = sb, args
	return nil
}
