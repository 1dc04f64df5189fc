package redact

import (
	"strings"

	"github.com/zero-agent/zero/internal/lazyregexp"
)

// Line-shaped assignments the prefix patterns miss (QA report): .env and
// shell lines whose KEY names a secret (ADMIN_PIN=482193, SMTP_PASS=…,
// SESSION_SIGNING=…) and YAML lines `password: hunter2`. They are matched
// only as whole lines, so code (`password := r.FormValue("password")`,
// `for key := range m`) is left alone; the key is kept and the value
// masked as "password".

// envLine is `[export ]NAME=value` or `NAME: value` with an upper-case
// NAME, the value quoted or running to the end of the line (a trailing
// comment after whitespace is kept).
var envLine = lazyregexp.New(`^(\s*(?:export\s+)?([A-Z][A-Z0-9_]*)\s*(?:=|:\s)\s*)(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'#]+))\s*(?:#.*)?$`)

// yamlLine is `key: value` (optionally a list item) with a lower- or
// mixed-case key, the value unquoted (quoted YAML values are the
// password pattern's) and alone on the line.
var yamlLine = lazyregexp.New(`^(\s*(?:-\s+)?([A-Za-z][A-Za-z0-9_.-]*):[ \t]+)([^\s"'#][^\s#]*)[ \t]*(?:#.*)?$`)

// envSecretWords mark a secret when one of them is a segment of an
// upper-case NAME (split on '_').
var envSecretWords = set("PASS", "PASSWD", "PASSWORD", "PASSPHRASE", "SECRET", "SECRETS", "TOKEN", "PIN", "KEY",
	"APIKEY", "SIGNING", "CREDENTIAL", "CREDENTIALS", "CREDS")

// envNotSecretLast are final NAME segments that describe a secret rather
// than hold it (SSH_KEY_PATH, TOKEN_TTL, PASSWORD_MIN_LENGTH).
var envNotSecretLast = set("PATH", "FILE", "DIR", "NAME", "ID", "URL", "URI", "LENGTH", "LEN", "SIZE", "COUNT", "TYPE",
	"HEADER", "FIELD", "ENV", "VAR", "PREFIX", "SUFFIX", "TTL", "TIMEOUT", "EXPIRY", "EXPIRES", "LIFETIME", "ENABLED",
	"REQUIRED", "MODE", "ALGORITHM", "ALG", "ISSUER", "AUDIENCE", "FORMAT", "VERSION", "HOST", "PORT", "USER",
	"USERNAME", "EMAIL", "LOCATION", "REGION", "ENDPOINT", "MIN", "MAX", "BITS", "ROTATION", "HASH", "SALT_ROUNDS",
	"POLICY", "STORE", "BACKEND", "PROVIDER", "KIND", "FILES", "DIRS", "PATHS")

// yamlSecretSuffixes end a YAML key that holds a secret (password,
// db_password, clientSecret, api-token).
var yamlSecretSuffixes = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "api_key", "api-key"}

// notValues are right-hand sides that are types, booleans or empty
// markers, not secrets (`password: string` in a TypeScript interface).
var notValues = set("str", "string", "int", "bool", "boolean", "number", "any", "bytes", "none", "null", "nil",
	"true", "false", "yes", "no", "on", "off", "optional", "required", "secret", "password", "string?", "unknown", "object")

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// envSecretName reports whether an upper-case NAME holds a secret.
func envSecretName(name string) bool {
	segs := strings.Split(name, "_")
	if envNotSecretLast[segs[len(segs)-1]] {
		return false
	}
	for _, s := range segs {
		if envSecretWords[s] {
			return true
		}
	}
	return false
}

func yamlSecretName(key string) bool {
	l := strings.ToLower(key)
	for _, s := range yamlSecretSuffixes {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// secretValue reports whether v may be a secret: not a placeholder, a
// type or boolean, a number of 1-2 digits, or code (parentheses, dots
// into fields, brackets).
func secretValue(v string) bool {
	l := strings.ToLower(v)
	switch {
	case len(v) < 3, placeholder(v), notValues[l],
		strings.ContainsAny(v, "()[]{};,"), strings.HasPrefix(v, "&"), strings.HasPrefix(v, "*"):
		return false
	}
	return true
}

// assignments masks the values of secret assignment lines in s.
func assignments(s string) (string, int) {
	if !strings.ContainsAny(s, "=:") {
		return s, 0
	}
	var b strings.Builder
	n, last := 0, 0
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		line := s[start:end]
		line = strings.TrimSuffix(line, "\r")
		if vs, ve, ok := secretAssignment(line); ok {
			b.WriteString(s[last : start+vs])
			b.WriteString(Mask("password"))
			last = start + ve
			n++
		}
		start = end + 1
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// secretAssignment returns the value's byte range in line when line is a
// secret assignment.
func secretAssignment(line string) (int, int, bool) {
	if len(line) > 4096 || !strings.ContainsAny(line, "=:") || !secretKeyFirst(line) {
		return 0, 0, false
	}
	if m := envLine.FindStringSubmatchIndex(line); m != nil && envSecretName(line[m[4]:m[5]]) {
		for g := 3; g <= 5; g++ {
			if m[2*g] >= 0 {
				if v := line[m[2*g]:m[2*g+1]]; secretValue(v) {
					return m[2*g], m[2*g+1], true
				}
				return 0, 0, false
			}
		}
	}
	if m := yamlLine.FindStringSubmatchIndex(line); m != nil && yamlSecretName(line[m[4]:m[5]]) {
		if v := line[m[6]:m[7]]; secretValue(v) && !codeValue(line[m[4]:m[5]], v) {
			return m[6], m[7], true
		}
	}
	return 0, 0, false
}

// secretKeyFirst is a cheap filter before the regular expressions: the
// line's first word (after indentation, "- " or "export ") must be a
// secret name followed by '=' or ':'.
func secretKeyFirst(line string) bool {
	i := 0
	skip := func() {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	skip()
	if strings.HasPrefix(line[i:], "- ") {
		i += 2
		skip()
	}
	if strings.HasPrefix(line[i:], "export ") {
		i += 7
		skip()
	}
	j := i
	for j < len(line) && (isWordByte(line[j]) || line[j] == '_' || line[j] == '-' || line[j] == '.') {
		j++
	}
	name := line[i:j]
	k := j
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	if name == "" || k >= len(line) || line[k] != '=' && line[k] != ':' {
		return false
	}
	return envSecretName(name) || yamlSecretName(name)
}

// codeValue reports a YAML-looking line that is more likely code: the
// value names the key again (a JS property `token: token`, `apiToken:
// token`) or is a member access (`secret: config.secret`).
func codeValue(key, v string) bool {
	lk, lv := strings.ToLower(key), strings.ToLower(v)
	if strings.HasSuffix(lk, lv) {
		return true
	}
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || !(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z' || p[0] == '_') {
			return false
		}
		for i := 0; i < len(p); i++ {
			if !isWordByte(p[i]) && p[i] != '_' {
				return false
			}
		}
	}
	return true
}
