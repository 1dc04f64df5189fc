package redact

import (
	"strings"
	"testing"
)

// TestAssignments: secret KEY=value and YAML lines the QA pass found
// unmasked are masked (key kept), and ordinary code and config pass.
func TestAssignments(t *testing.T) {
	tests := []struct {
		in, want string
		n        int
	}{
		{"password: hunter2", "password: [REDACTED:password]", 1},
		{"  db_password: hunter2  # prod", "  db_password: [REDACTED:password]  # prod", 1},
		{"- password: hunter2", "- password: [REDACTED:password]", 1},
		{"clientSecret: abc123def", "clientSecret: [REDACTED:password]", 1},
		{"api-token: t0k3n", "api-token: [REDACTED:password]", 1},
		{"ADMIN_PIN=482193", "ADMIN_PIN=[REDACTED:password]", 1},
		{"SMTP_PASS=hunter2", "SMTP_PASS=[REDACTED:password]", 1},
		{"SESSION_SIGNING=9f8e7d6c", "SESSION_SIGNING=[REDACTED:password]", 1},
		{"export SESSION_SIGNING='a b c d'", "export SESSION_SIGNING='[REDACTED:password]'", 1},
		{`AWS_CREDENTIAL="xyz987"`, `AWS_CREDENTIAL="[REDACTED:password]"`, 1},
		{"STRIPE_KEY=abc", "STRIPE_KEY=[REDACTED:password]", 1},
		{"JWT_SECRET_KEY = s3cr3t", "JWT_SECRET_KEY = [REDACTED:password]", 1},
		{"DB_PASSWORD: pw1234", "DB_PASSWORD: [REDACTED:password]", 1},
		{"A=1\r\nSMTP_PASS=hunter2\r\nB=2\n", "A=1\r\nSMTP_PASS=[REDACTED:password]\r\nB=2\n", 1},
		{"ADMIN_PIN=482193\nSMTP_PASS=hunter2\nHOST=mail\n", "ADMIN_PIN=[REDACTED:password]\nSMTP_PASS=[REDACTED:password]\nHOST=mail\n", 2},
		// left alone
		{`password := r.FormValue("password")`, "", 0},
		{"for key := range m {", "", 0},
		{"key := range m", "", 0},
		{"key: value", "", 0},
		{"password: string", "", 0},
		{"  password: str", "", 0},
		{"password: ${DB_PASSWORD}", "", 0},
		{"token_count: 42", "", 0},
		{"max_tokens: 4096", "", 0},
		{"SSH_KEY_PATH=~/.ssh/id_ed25519", "", 0},
		{"TOKEN_TTL=3600", "", 0},
		{"PASSWORD_MIN_LENGTH=12", "", 0},
		{"SMTP_HOST=mail.example.com", "", 0},
		{"MONKEY=banana", "", 0},
		{"SMTP_PASS=$SMTP_PASS_FROM_VAULT", "", 0},
		{"SMTP_PASS=", "", 0},
		{"ADMIN_PIN=<your pin>", "", 0},
		{"TOKEN_REQUIRED=true", "", 0},
		{"if x.Password == password {", "", 0},
		{"echo SMTP_PASS=hunter2 is set", "", 0},
		{"passwordHash: bcrypt(p)", "", 0},
		{"token: getToken();", "", 0},
		{"  token: token", "", 0},
		{"  apiToken: token", "", 0},
		{"  secret: config.secret", "", 0},
		{"  secret: s3cr3t.v4lue-9", "  secret: [REDACTED:password]", 1},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			want := tt.want
			if tt.n == 0 {
				want = tt.in
			}
			got, n := String(tt.in)
			if got != want || n != tt.n {
				t.Errorf("String(%q) = %q, %d; want %q, %d", tt.in, got, n, want, tt.n)
			}
			if again, m := String(got); again != got || m != 0 {
				t.Errorf("redacting twice changed %q: %q (%d)", got, again, m)
			}
			if tt.n > 0 && strings.Contains(got, "hunter2") {
				t.Errorf("value survived: %q", got)
			}
		})
	}
}
