package redact

import (
	"strings"
	"testing"
)

// Fake secrets with the real shapes. None of these is a live credential.
const (
	fakeOpenAI     = "sk-proj-Q1w2E3r4T5y6U7i8O9p0AaSsDdFfGgHhJjKkLl"
	fakeOpenAIOld  = "sk-4f7GhT2kLmNpQrStUvWxYz0123456789AbCdEfGh"
	fakeAnthropic  = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEfGhIjKlMn-AAAA"
	fakeAWSID      = "AKIAIOSFODNN7EXAMPLE"
	fakeAWSSecret  = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	fakeGitHub     = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	fakeGitHubPAT  = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
	fakeSlack      = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUv"
	fakeJWT        = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	fakeGoogle     = "AIzaSyA1b2C3d4E5f6G7h8I9j0KkLlMmNnOoPpQ"
	fakeHF         = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"
	fakePEMPrivate = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDdummydummydummydummydummydummydummydummyAAAA\n-----END OPENSSH PRIVATE KEY-----"
)

func TestString(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string
		wantN  int
		absent []string // must not survive
	}{
		{"openai project key", "OPENAI_API_KEY=" + fakeOpenAI + "\n", "OPENAI_API_KEY=[REDACTED:openai-key]\n", 1, []string{fakeOpenAI}},
		{"openai legacy key in json", `{"key": "` + fakeOpenAIOld + `"}`, `{"key": "[REDACTED:openai-key]"}`, 1, []string{fakeOpenAIOld}},
		{"anthropic key", "using " + fakeAnthropic + " now", "using [REDACTED:anthropic-key] now", 1, []string{"api03"}},
		{"aws pair", "aws_access_key_id = " + fakeAWSID + "\naws_secret_access_key = " + fakeAWSSecret + "\n",
			"aws_access_key_id = [REDACTED:aws-access-key-id]\naws_secret_access_key = [REDACTED:aws-secret-key]\n", 2,
			[]string{fakeAWSID, fakeAWSSecret}},
		{"github classic", "token: " + fakeGitHub, "token: [REDACTED:github-token]", 1, []string{fakeGitHub}},
		{"github fine-grained", "GH=" + fakeGitHubPAT, "GH=[REDACTED:github-token]", 1, []string{fakeGitHubPAT}},
		{"slack bot token", "SLACK_TOKEN=" + fakeSlack, "SLACK_TOKEN=[REDACTED:slack-token]", 1, []string{fakeSlack}},
		{"jwt in header", "Cookie: session=" + fakeJWT + "; path=/", "Cookie: session=[REDACTED:jwt]; path=/", 1, []string{"SflKxw"}},
		{"bearer token", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345", "Authorization: Bearer [REDACTED:bearer-token]", 1, nil},
		{"google key", "key=" + fakeGoogle, "key=[REDACTED:google-api-key]", 1, []string{fakeGoogle}},
		{"hugging face", "HF_TOKEN=" + fakeHF, "HF_TOKEN=[REDACTED:huggingface-token]", 1, []string{fakeHF}},
		{"pem private key", "before\n" + fakePEMPrivate + "\nafter", "before\n[REDACTED:private-key]\nafter", 1, []string{"b3BlbnNzaC1rZXkt"}},
		{"truncated pem", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAdummy", "[REDACTED:private-key]", 1, []string{"MIIEow"}},
		{"url password", "postgres://app:s3cr3tP4ss@db.internal:5432/app", "postgres://app:[REDACTED:url-password]@db.internal:5432/app", 1, []string{"s3cr3tP4ss"}},
		{"password env assignment", "DB_PASSWORD=Tr0ub4dor-3x", "DB_PASSWORD=[REDACTED:password]", 1, []string{"Tr0ub4dor"}},
		{"token in url query", "GET /cb?token=abcdefgh1234&page=2", "GET /cb?token=[REDACTED:password]&page=2", 1, nil},
		{"word ending in password", "mypassword=abcdefghijkl", "mypassword=abcdefghijkl", 0, nil},
		{"password assignment long", "password=correct-horse-battery", "password=[REDACTED:password]", 1, []string{"correct-horse"}},
		{"password in yaml quoted", `  password: "hunter2!!"`, `  password: "[REDACTED:password]"`, 1, []string{"hunter2"}},
		{"api_key in json", `{"api_key": "0123456789abcdef"}`, `{"api_key": "[REDACTED:password]"}`, 1, nil},
		{"two secrets one line", fakeGitHub + " " + fakeOpenAI, "[REDACTED:github-token] [REDACTED:openai-key]", 2, nil},
		// things that must pass unchanged
		{"password read from env", `password = os.getenv("DB_PASSWORD")`, `password = os.getenv("DB_PASSWORD")`, 0, nil},
		{"password from variable", `password: ${DB_PASSWORD}`, `password: ${DB_PASSWORD}`, 0, nil},
		{"masked stars", "password=********", "password=********", 0, nil},
		{"short password", "password=abc", "password=abc", 0, nil},
		{"password field name", `hash := bcrypt(passwordHash)`, `hash := bcrypt(passwordHash)`, 0, nil},
		{"public key", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
			"-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----", 0, nil},
		{"code mentioning sk-", "// keys look like sk-... see docs", "// keys look like sk-... see docs", 0, nil},
		{"task ids", "task-0123456789abcdefghijk done", "task-0123456789abcdefghijk done", 0, nil},
		{"git sha", "commit 3d9c65f1a2b3c4d5e6f708192a3b4c5d6e7f8091", "commit 3d9c65f1a2b3c4d5e6f708192a3b4c5d6e7f8091", 0, nil},
		{"go code", "max_tokens := 4096\ntokens: 12", "max_tokens := 4096\ntokens: 12", 0, nil},
		{"already masked", "key=[REDACTED:openai-key]", "key=[REDACTED:openai-key]", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := String(tt.in)
			if got != tt.want || n != tt.wantN {
				t.Errorf("String(%q) =\n  %q, %d\nwant\n  %q, %d", tt.in, got, n, tt.want, tt.wantN)
			}
			for _, a := range tt.absent {
				if strings.Contains(got, a) {
					t.Errorf("output still holds %q", a)
				}
			}
			if again, m := String(got); again != got || m != 0 {
				t.Errorf("redacting twice changed the text: %q (%d)", again, m)
			}
		})
	}
}

func TestNewKnown(t *testing.T) {
	r := New("my-local-server-key-123", "short")
	got, n := r.String("key my-local-server-key-123 and short text")
	if got != "key [REDACTED:configured-key] and short text" || n != 1 {
		t.Errorf("got %q, %d", got, n)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{fakeOpenAI, fakeAnthropic, fakeJWT, fakePEMPrivate, "password=correct-horse", "a://b:c@d", "ADMIN_PIN=482193\nSMTP_PASS=hunter2", "  password: hunter2 # x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, n := String(s)
		if n == 0 && out != s {
			t.Fatalf("no secrets counted but text changed: %q -> %q", s, out)
		}
		if n > 0 && !strings.Contains(out, "[REDACTED:") {
			t.Fatalf("counted %d secrets but masked none: %q", n, out)
		}
	})
}

// BenchmarkString1MB redacts 1 MB of log-like text holding a few secrets.
func BenchmarkString1MB(b *testing.B) {
	var sb strings.Builder
	line := "2026-11-30T05:00:00Z INFO handler served /api/v1/items status=200 bytes=5120 user=dev token_count=42\n"
	for i := 0; sb.Len() < 1<<20; i++ {
		sb.WriteString(line)
		if i%2000 == 0 {
			sb.WriteString("env OPENAI_API_KEY=" + fakeOpenAI + " password=correct-horse-battery\n")
		}
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		String(s)
	}
}
