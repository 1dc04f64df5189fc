package cli

func runInteractive(s stdio, args []string) error {
	return usagef("the interactive app is not wired yet; use zero exec")
}
