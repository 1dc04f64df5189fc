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
