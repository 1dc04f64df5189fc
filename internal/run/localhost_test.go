package run

import "testing"

func TestLocalHostDecidesWindowProbing(t *testing.T) {
	for base, want := range map[string]bool{
		"http://127.0.0.1:8080": true, "http://localhost:11434/v1": true, "http://192.168.1.20:8000": true,
		"https://openrouter.ai/api/v1": false, "https://api.example.com": false,
	} {
		if got := localHost(base); got != want {
			t.Errorf("localHost(%q) = %v", base, got)
		}
	}
}
