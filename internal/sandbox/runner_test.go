package sandbox

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMain lets the test binary act as the Landlock helper, as the zero
// binary does (Wrap re-executes os.Executable()).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(HelperMain(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// sandboxDirs is a workspace, a private temp dir, a directory outside
// both and a fake secret directory, none of them under a writable root
// except ws and tmp.
type sandboxDirs struct{ ws, tmp, outside, secret string }

func newSandboxDirs(t *testing.T) sandboxDirs {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := sandboxDirs{ws: filepath.Join(root, "ws"), tmp: filepath.Join(root, "tmp"),
		outside: filepath.Join(root, "outside"), secret: filepath.Join(root, "home", ".ssh")}
	for _, p := range []string{d.ws, d.tmp, d.outside, d.secret} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d.secret, "id_ed25519"), []byte("PRIVATE"), 0o600); err != nil {
		t.Fatal(err)
	}
	return d
}

// run wraps `sh -c script` with p and returns combined output and error.
func run(t *testing.T, p Policy, dir, script string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = dir
	if err := p.Wrap(cmd); err != nil {
		t.Fatalf("Wrap: %v", err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// backendsToTest returns the real backends available here. bubblewrap is
// tested when it works; Landlock whenever the kernel has it. The detected
// reason is printed so a CI log shows what ran.
func backendsToTest(t *testing.T) []string {
	name, detail := BackendInfo()
	t.Logf("detected sandbox backend: %s (%s)", name, detail)
	if runtime.GOOS != "linux" {
		t.Logf("not Linux: only the seatbelt profile text is tested")
		return nil
	}
	var out []string
	if name == BackendBubblewrap {
		out = append(out, BackendBubblewrap)
	} else {
		fmt.Printf("sandbox: bubblewrap not tested here: %s\n", detail)
	}
	if landlockABI() > 0 {
		out = append(out, BackendLandlock)
	} else {
		fmt.Println("sandbox: Landlock not tested here: the kernel has no Landlock")
	}
	return out
}

func TestWrapConfinesWrites(t *testing.T) {
	for _, backend := range backendsToTest(t) {
		t.Run(backend, func(t *testing.T) {
			d := newSandboxDirs(t)
			p := Policy{Workspace: d.ws, TempDirs: []string{d.tmp}, Hide: []string{d.secret}, Backend: backend}

			if out, err := run(t, p, d.ws, "echo hi > inside.txt && echo t > "+d.tmp+"/t.txt && cat inside.txt"); err != nil || strings.TrimSpace(out) != "hi" {
				t.Fatalf("write inside: %v %q", err, out)
			}
			out, err := run(t, p, d.ws, "echo x > "+d.outside+"/escape.txt")
			if err == nil {
				t.Fatalf("write outside succeeded: %q", out)
			}
			if _, statErr := os.Stat(filepath.Join(d.outside, "escape.txt")); statErr == nil {
				t.Fatal("file outside the workspace was created")
			}
			if note := p.Annotate(out); !strings.Contains(note, "writes outside the workspace") {
				t.Errorf("Annotate(%q) = %q, want a sandbox explanation", out, note)
			}
			if note := p.Annotate("ok\n"); note != "" {
				t.Errorf("Annotate of clean output = %q", note)
			}
		})
	}
}

func TestWrapNetwork(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	// bash's /dev/tcp connects without needing curl or nc.
	script := fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && head -1 <&3`, port)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bash is needed for /dev/tcp: %v", err)
	}
	for _, backend := range backendsToTest(t) {
		if backend == BackendLandlock && landlockABI() < 4 {
			fmt.Printf("sandbox: Landlock ABI %d cannot confine TCP; network test skipped for it\n", landlockABI())
			continue
		}
		t.Run(backend, func(t *testing.T) {
			d := newSandboxDirs(t)
			off := Policy{Workspace: d.ws, TempDirs: []string{d.tmp}, Hide: []string{}, Backend: backend}
			cmd := exec.Command("bash", "-c", script)
			cmd.Dir = d.ws
			if err := off.Wrap(cmd); err != nil {
				t.Fatal(err)
			}
			if out, err := cmd.CombinedOutput(); err == nil {
				t.Errorf("connected with network off: %q", out)
			}
			on := off
			on.Network = true
			cmd = exec.Command("bash", "-c", script)
			cmd.Dir = d.ws
			if err := on.Wrap(cmd); err != nil {
				t.Fatal(err)
			}
			if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "hello" {
				t.Errorf("network granted: %v %q", err, out)
			}
		})
	}
}

func TestWrapHidesSecrets(t *testing.T) {
	d := newSandboxDirs(t)
	if Backend() != BackendBubblewrap {
		fmt.Println("sandbox: hiding secrets needs bubblewrap; Landlock allows reads (the permission engine still refuses read_file of secrets)")
		return
	}
	p := Policy{Workspace: d.ws, TempDirs: []string{d.tmp}, Hide: []string{d.secret}, Backend: BackendBubblewrap}
	out, _ := run(t, p, d.ws, "cat "+filepath.Join(d.secret, "id_ed25519")+" 2>&1; ls -A "+d.secret)
	if strings.Contains(out, "PRIVATE") || strings.Contains(out, "id_ed25519\n") {
		t.Errorf("secret visible in the sandbox: %q", out)
	}
}

func TestWrapNone(t *testing.T) {
	cmd := exec.Command("/bin/true")
	if err := (Policy{Workspace: "/w", Backend: BackendNone}).Wrap(cmd); err != nil || cmd.Path != "/bin/true" {
		t.Errorf("none backend changed cmd: %v %v", err, cmd.Args)
	}
	if err := (Policy{Backend: BackendNone}).Wrap(cmd); err == nil {
		t.Error("policy without workspace accepted")
	}
}

func TestSeatbeltProfile(t *testing.T) {
	d := newSandboxDirs(t)
	prof := Policy{Workspace: d.ws, TempDirs: []string{d.tmp}, Hide: []string{d.secret}}.seatbeltProfile()
	for _, want := range []string{"(deny file-write*)", `(subpath "` + d.ws + `")`, "(deny network*)",
		`(deny file-read* (subpath "` + d.secret + `"))`} {
		if !strings.Contains(prof, want) {
			t.Errorf("profile lacks %q:\n%s", want, prof)
		}
	}
	if strings.Contains(Policy{Workspace: d.ws, Network: true}.seatbeltProfile(), "deny network") {
		t.Error("network denied although granted")
	}
}
