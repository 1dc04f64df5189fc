package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
	"github.com/zero-agent/zero/internal/tools"
)

// benchTree writes 10,000 small files in 100 directories with a
// .gitignore, and returns a tracker over it whose index is built
// (noWatch: one that scans before every command, as without inotify).
func benchTree(b *testing.B, noWatch bool) (string, *Tracker, *int) {
	root := b.TempDir()
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.o\nnode_modules/\n"), 0o644)
	for d := 0; d < 100; d++ {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", d))
		os.MkdirAll(dir, 0o755)
		for f := 0; f < 100; f++ {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%02d.go", f)), []byte(fmt.Sprintf("package pkg%02d\n\nvar V%d = %d\n", d, f, f)), 0o644)
		}
	}
	events := 0
	tr := NewTracker(Options{Root: root, Store: Open(b.TempDir()),
		Ignore: func(root string) Ignorer { return tools.NewIgnore(root) },
		Emit:   func(event.Event) { events++ }, NoWatch: noWatch})
	if err := tr.BeforeShell(); err != nil {
		b.Fatal(err)
	}
	if len(tr.idx) != 10001 { // and the .gitignore
		b.Fatalf("the tree holds %d files", len(tr.idx))
	}
	return root, tr, &events
}

// modes are the two ways a checkpoint finds what a command changed: the
// default (inotify says which directories to read) and scanning the
// whole tree before and after every command (where inotify is missing
// or overflowed), the goal applying to the first.
var modes = []struct {
	name    string
	noWatch bool
	goal    bool
}{{"watched", false, true}, {"scanned", true, false}}

// BenchmarkShellCheckpointUnchanged10k is one shell command's whole
// checkpoint (BeforeShell and AfterShell: with inotify, the directories
// it saw change read again, else the tree scanned before and after) on
// 10,000 files none of which changed. Goal: under 50 ms.
func BenchmarkShellCheckpointUnchanged10k(b *testing.B) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) { benchUnchanged(b, m.noWatch, m.goal) })
	}
}

func benchUnchanged(b *testing.B, noWatch, goal bool) {
	_, tr, events := benchTree(b, noWatch)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := cpuTime()
		if err := tr.BeforeShell(); err != nil {
			b.Fatal(err)
		}
		if err := tr.AfterShell(); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c
	}
	b.StopTimer()
	if *events != 0 {
		b.Fatalf("%d checkpoints of an unchanged tree", *events)
	}
	reportGoal(b, goal, 50*time.Millisecond, cpu)
}

// BenchmarkShellCheckpointThreeChanged10k is the same with three files
// in three directories changed by the "command" (their content read,
// hashed and stored). Goal: under 100 ms.
func BenchmarkShellCheckpointThreeChanged10k(b *testing.B) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) { benchThreeChanged(b, m.noWatch, m.goal) })
	}
}

func benchThreeChanged(b *testing.B, noWatch, goal bool) {
	root, tr, events := benchTree(b, noWatch)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := cpuTime()
		if err := tr.BeforeShell(); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c
		b.StopTimer() // the command's own writes are not the checkpoint's cost
		for f := 0; f < 3; f++ {
			os.WriteFile(filepath.Join(root, fmt.Sprintf("pkg%02d", f), "file00.go"), []byte(fmt.Sprintf("package x // %d\n", i)), 0o644)
		}
		b.StartTimer()
		c = cpuTime()
		if err := tr.AfterShell(); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c
	}
	b.StopTimer()
	if *events != b.N {
		b.Fatalf("%d checkpoints for %d commands", *events, b.N)
	}
	reportGoal(b, goal, 100*time.Millisecond, cpu)
}

// BenchmarkPromptSettle10k is the full scan that ends a prompt that ran
// shell commands (Settle), on 10,000 unchanged files: what inotify's
// skipping saves each command, paid once a prompt.
func BenchmarkPromptSettle10k(b *testing.B) {
	_, tr, events := benchTree(b, false)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr.settle = true
		c := cpuTime()
		if err := tr.Settle(); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c
	}
	b.StopTimer()
	if *events != 0 {
		b.Fatalf("%d checkpoints of an unchanged tree", *events)
	}
	reportGoal(b, false, 0, cpu)
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportGoal reports the CPU time a checkpoint used as cpu-ms/op (a
// figure a loaded machine inflates less) and, when check is set, fails
// the benchmark when one took longer than goal (wall time).
func reportGoal(b *testing.B, check bool, goal time.Duration, cpu time.Duration) {
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	per := b.Elapsed() / time.Duration(b.N)
	if check && per > goal {
		b.Errorf("%v per checkpoint (CPU %v), goal %v", per, cpu/time.Duration(b.N), goal)
	}
}
