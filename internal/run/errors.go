package run

import "fmt"

// ConfigError is a problem with how Zero was set up or called (a bad
// config file, a missing key, an unknown session): the command line exits
// 2 with its text, which says what to do next.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return e.Msg }

func configErrorf(format string, a ...any) error { return &ConfigError{fmt.Sprintf(format, a...)} }

// UnconfiguredError is the ConfigError of a start with nothing
// configured (no provider, key or profile) and no server on the usual
// local ports: the app offers its setup instead of exiting.
type UnconfiguredError struct{ *ConfigError }

// Unwrap makes it a ConfigError to errors.As.
func (e *UnconfiguredError) Unwrap() error { return e.ConfigError }

// KeyError is the ConfigError of a hosted API chosen without its key
// (NeedKey): Provider is the profile, Env the variable to set. `zero acp`
// answers it with auth_required.
type KeyError struct {
	*ConfigError
	Provider, Env string
}

// Unwrap makes it a ConfigError to errors.As.
func (e *KeyError) Unwrap() error { return e.ConfigError }
