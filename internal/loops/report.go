package loops

import (
	"fmt"
	"strings"
	"text/tabwriter"
)

// Report is `zero loop list`'s table of the loops under root: name,
// status, wakes, tokens and the latest NEXT ACTION (the app's /loops
// prints the same).
func Report(root string) (string, error) {
	ls, err := List(root)
	if err != nil {
		return "", err
	}
	if len(ls) == 0 {
		return fmt.Sprintf("no loops in %s (zero loop new NAME makes one)\n", root), nil
	}
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATUS\tWAKES\tTOKENS\tNEXT ACTION")
	for _, l := range ls {
		led, err := l.Ledger()
		status := led.Status()
		switch {
		case err != nil:
			status = "unreadable: " + err.Error()
		case l.Running():
			status = "running"
		default:
			status = runnable(l, led, status)
		}
		st, _ := l.State()
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", l.Name, clip(status, 60), led.Wakes, led.Tokens, clip(orDash(st.NextAction()), 60))
	}
	tw.Flush()
	return sb.String(), nil
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// runnable is status, unless zero loop run would refuse the loop: a
// loop.toml that does not parse, or gates edited since it was armed.
func runnable(l *Loop, led Ledger, status string) string {
	cfg, err := l.Config()
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		return "broken " + ConfigFile + ": " + strings.TrimPrefix(strings.TrimPrefix(first, l.Path(ConfigFile)+": "), ConfigFile+": ")
	}
	if led.ArmedHash != "" && cfg.GatesHash() != led.ArmedHash {
		return "gates edited: zero loop arm " + l.Name
	}
	return status
}
