package tools

import (
	"os"
	"sync"

	"github.com/zero-agent/zero/internal/shellguard"
)

var home = sync.OnceValue(func() string {
	h, _ := os.UserHomeDir()
	return h
})

// isSecret reports whether abs is a secret file (.env files, private keys,
// cloud and SSH credentials: shellguard.SecretPath). grep skips them so a
// search of the tree never copies a secret into the context; the
// permission engine decides when one is asked for by name.
func isSecret(abs string) bool {
	_, ok := shellguard.SecretPath(abs, home(), "")
	return ok
}
