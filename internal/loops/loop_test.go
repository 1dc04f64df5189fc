package loops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRootIsZeroLoopsDirElseTheDataDirectory(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ZERO_LOOPS_DIR", "/srv/loops")
	t.Setenv("XDG_DATA_HOME", "/data")
	if got, _ := Root(); got != "/srv/loops" {
		t.Errorf("with ZERO_LOOPS_DIR: %s", got)
	}
	t.Setenv("ZERO_LOOPS_DIR", "")
	if got, _ := Root(); got != "/data/zero/loops" {
		t.Errorf("with XDG_DATA_HOME: %s", got)
	}
	t.Setenv("XDG_DATA_HOME", "relative") // not absolute: ignored, as the XDG spec says
	if got, _ := Root(); got != filepath.Join(home, ".local/share/zero/loops") {
		t.Errorf("default: %s", got)
	}
}

func TestCreateWritesEveryFileAndArmRecordsTheGates(t *testing.T) {
	root := t.TempDir()
	l, err := Create(root, "bench", "", "/src/app")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{SpecFile, ConfigFile, StateFile, RulesFile} {
		if _, err := os.Stat(l.Path(f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	cfg, err := l.Config()
	if err != nil || cfg.Run.Workdir != "/src/app" || len(cfg.Gates) != 2 {
		t.Fatalf("config %+v %v", cfg, err)
	}
	led, _ := l.Ledger()
	if led.Status() != "new (not armed)" {
		t.Fatalf("status %q", led.Status())
	}
	if _, err := l.Arm(time.Now()); err != nil {
		t.Fatal(err)
	}
	if led, _ = l.Ledger(); led.ArmedHash != cfg.GatesHash() || led.Status() != "armed" {
		t.Fatalf("after arm: %+v", led)
	}
	if ls, _ := List(root); len(ls) != 1 || ls[0].Name != "bench" {
		t.Fatalf("list %+v", ls)
	}
}

func TestArmRefusesABrokenLoopToml(t *testing.T) {
	l, _ := Create(t.TempDir(), "x", "watcher", "/w")
	os.WriteFile(l.Path(ConfigFile), []byte("[[gate]]\nname = \"q\"\nrun = \"m\"\nparse = \"json:.v\"\n"), 0o644)
	if _, err := l.Arm(time.Now()); err == nil || !strings.Contains(err.Error(), "needs a pass bar") {
		t.Fatalf("arm: %v", err)
	}
	if _, err := os.Stat(l.Path(TicksFile)); err == nil {
		t.Fatal("a refused arm wrote a tick")
	}
}

func TestParseTicksNamesABrokenLine(t *testing.T) {
	_, err := ParseTicks([]byte("{\"kind\":\"arm\",\"gatesHash\":\"h\"}\nnot json\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("error %v", err)
	}
}

// TestReportSaysWhenRunWouldRefuse: zero loop list shows a loop whose
// loop.toml does not parse, or whose gates changed since it was armed,
// as such (run refuses both), not as "armed" or "new".
func TestReportSaysWhenRunWouldRefuse(t *testing.T) {
	l := newLoop(t, "[[gate]]\nname = \"t\"\nrun = \"true\"\nparse = \"exit\"\npass = \"== 0\"\n")
	report := func() string {
		r, err := Report(filepath.Dir(l.Dir))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := report(); !strings.Contains(r, "demo  armed") {
		t.Fatalf("armed loop:\n%s", r)
	}
	os.WriteFile(l.Path(ConfigFile), []byte("[[gate]]\nname = \"t\"\nrun = \"false\"\nparse = \"exit\"\npass = \"== 0\"\n"), 0o644)
	if r := report(); !strings.Contains(r, "demo  gates edited: zero loop arm demo") {
		t.Fatalf("edited gates:\n%s", r)
	}
	os.WriteFile(l.Path(ConfigFile), []byte("[schedule\n"), 0o644)
	if r := report(); !strings.Contains(r, "demo  broken loop.toml: toml: ") || strings.Contains(r, l.Dir) {
		t.Fatalf("broken loop.toml:\n%s", r)
	}
}
