package instructions

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/zero-agent/zero/internal/rules"
)

// tree copies testdata/tree to a temporary folder and makes project/ a
// repository root (a .git folder cannot be committed inside this one).
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/tree")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "project", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func names(s *Set) []string {
	var out []string
	for _, f := range s.Files() {
		out = append(out, string(f.Origin)+" "+f.Name)
	}
	return out
}

func TestUserFilesFirstThenProjectFromRootToNearest(t *testing.T) {
	dir := tree(t)
	home := filepath.Join(dir, "home")
	s := Load(Options{Workdir: filepath.Join(dir, "project", "pkg"), Home: home, ConfigDir: filepath.Join(home, ".config", "zero")})
	want := []string{
		"user ~/.claude/CLAUDE.md",
		"import ~/notes.md",
		"user ~/.config/zero/AGENTS.md",
		"project " + filepath.Join(dir, "project", "AGENTS.md"),
		"project " + filepath.Join(dir, "project", "CLAUDE.md"),
		"import " + filepath.Join(dir, "project", "docs", "style.md"),
		"import " + filepath.Join(dir, "project", "docs", "more.md"),
		"project " + filepath.Join(dir, "project", "CLAUDE.local.md"),
		"project " + filepath.Join(dir, "project", "ZERO.md"),
		"project AGENTS.md", // pkg/AGENTS.md, the nearest, speaks last
	}
	if got := names(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	text := s.Text()
	last := -1
	for _, frag := range []string{"User Claude", "User notes from home", "User Zero", "Run go test", "Follow @docs/style.md", "Style: tabs", "More style", "Personal:", "Always run gofmt", "keep the API small"} {
		i := strings.Index(text, frag)
		if i <= last {
			t.Fatalf("%q out of order (at %d, previous at %d) in:\n%s", frag, i, last, text)
		}
		last = i
	}
}

func TestNearestFileIsLoadedOnceWhenItIsTheRoots(t *testing.T) {
	dir := tree(t)
	s := Load(Options{Workdir: filepath.Join(dir, "project")})
	want := []string{"project AGENTS.md", "project CLAUDE.md", "import docs/style.md", "import docs/more.md", "project CLAUDE.local.md", "project ZERO.md"}
	if got := names(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("files = %v, want %v", got, want)
	}
	if strings.Contains(s.Text(), "Package pkg") {
		t.Fatal("a nested AGENTS.md below the working directory is in the system prompt")
	}
}

func TestImportsSkipCodeSpansFencesMentionsAndCycles(t *testing.T) {
	dir := tree(t)
	s := Load(Options{Workdir: filepath.Join(dir, "project")})
	text := s.Text()
	for _, never := range []string{"SPAN SHOULD NOT LOAD", "FENCED SHOULD NOT LOAD", "OUTSIDE THE PROJECT"} {
		if strings.Contains(text, never) {
			t.Fatalf("%q reached the prompt:\n%s", never, text)
		}
	}
	if !strings.Contains(text, "Instructions imported by CLAUDE.md (docs/style.md):\nStyle: tabs") ||
		!strings.Contains(text, "Instructions imported by docs/style.md (docs/more.md):") {
		t.Fatalf("imports missing or unnamed:\n%s", text)
	}
	if strings.Count(text, "Style: tabs") != 1 {
		t.Fatalf("the cycle style.md → more.md → style.md was not broken:\n%s", text)
	}
	notes := strings.Join(s.Notes(), "\n")
	for _, want := range []string{"@style.md in docs/more.md: not imported, it imports docs/more.md again (a cycle)", "@../outside.md in CLAUDE.md: outside the project; imports from outside it are read after `zero trust`"} {
		if !strings.Contains(notes, want) {
			t.Fatalf("notes lack %q:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "alice") || strings.Contains(notes, "example.com") {
		t.Fatalf("a mention or an e-mail address was taken for an import:\n%s", notes)
	}
}

func TestImportOutsideTheProjectLoadsInATrustedFolder(t *testing.T) {
	dir := tree(t)
	s := Load(Options{Workdir: filepath.Join(dir, "project"), Trusted: true})
	if !strings.Contains(s.Text(), "OUTSIDE THE PROJECT") {
		t.Fatalf("trusted folder: the outside import is missing:\n%s", s.Text())
	}
	f := s.Files()
	if got := f[len(f)-3]; got.Origin != Import || got.ImportedBy != "CLAUDE.md" || got.Name != filepath.Join(dir, "outside.md") {
		t.Fatalf("outside import listed as %+v", got)
	}
}

func TestImportsGoAtMostFourLevelsDeep(t *testing.T) {
	dir := tree(t)
	s := Load(Options{Workdir: filepath.Join(dir, "deep")})
	want := []string{"project AGENTS.md", "import 1.md", "import 2.md", "import 3.md", "import 4.md"}
	if got := names(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("files = %v, want %v", got, want)
	}
	if n := strings.Join(s.Notes(), "\n"); !strings.Contains(n, "@5.md in 4.md: not imported, imports go at most 4 levels deep") {
		t.Fatalf("notes = %s", n)
	}
}

func TestOnlyZeroMDGivesTheSameTextAsBefore(t *testing.T) {
	dir := tree(t)
	work := filepath.Join(dir, "zeroonly")
	prose, err := rules.LoadProse(work)
	if err != nil {
		t.Fatal(err)
	}
	before := "Project rules (ZERO.md):\n" + rules.Project(prose, 0)
	if got := Load(Options{Workdir: work}).Text(); got != before {
		t.Fatalf("text = %q\nwant  %q", got, before)
	}
}

func TestBudgetCutsWithAMarkerNamingTheFile(t *testing.T) {
	dir := tree(t)
	s := Load(Options{Workdir: filepath.Join(dir, "project"), Budget: 220})
	text := s.Text()
	if !strings.Contains(text, "[CLAUDE.md cut at ") || !strings.Contains(text, "read_file CLAUDE.md for the rest]") {
		t.Fatalf("no cut marker for CLAUDE.md:\n%s", text)
	}
	for _, later := range []string{"docs/style.md", "docs/more.md", "CLAUDE.local.md", "ZERO.md"} {
		if !strings.Contains(text, "["+later+" (") || !strings.Contains(text, "read_file "+later+" for it]") {
			t.Fatalf("no pointer to %s after the budget ran out:\n%s", later, text)
		}
	}
	head, _, _ := strings.Cut(text, "\n\n[docs/style.md")
	if len(head) > 220 {
		t.Fatalf("%d bytes of file text past a budget of 220:\n%s", len(head), head)
	}
	for _, f := range s.Files() {
		if f.Name == "CLAUDE.md" && (f.Shown == 0 || f.Shown >= f.Bytes) {
			t.Fatalf("CLAUDE.md listed with %d of %d bytes shown", f.Shown, f.Bytes)
		}
	}
	if r := s.Report(); !strings.Contains(r, "of 220 budget bytes") || !strings.Contains(r, "shown") {
		t.Fatalf("report does not show the budget and the cut:\n%s", r)
	}
}

func TestInstructionTextIsSanitized(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("be\x1b[31m red\u200b hidden\r\nok\n"), 0o644)
	if got := Load(Options{Workdir: dir}).Text(); got != "Project instructions (AGENTS.md):\nbe red hidden\nok" {
		t.Fatalf("text = %q", got)
	}
}

func TestNestedAddsAFoldersAgentsMDOnceWhenTheModelFirstWorksThere(t *testing.T) {
	dir := tree(t)
	work := filepath.Join(dir, "project")
	s := Load(Options{Workdir: work})
	if got := s.Nested(filepath.Join(work, "ZERO.md")); got != "" {
		t.Fatalf("a file in the working directory added %q", got)
	}
	if got := s.Nested(filepath.Join(dir, "outside.md")); got != "" {
		t.Fatalf("a file outside the working directory added %q", got)
	}
	got := s.Nested("pkg/sub/sub.go")
	want := "Instructions for this folder (pkg/AGENTS.md):\nPackage pkg: keep the API small.\n\n" +
		"Instructions for this folder (pkg/sub/AGENTS.md):\nPackage sub: no globals."
	if got != want {
		t.Fatalf("Nested = %q\nwant     %q", got, want)
	}
	if again := s.Nested(filepath.Join(work, "pkg", "sub")); again != "" {
		t.Fatalf("the second time in the folder added %q", again)
	}
	f := s.Files()
	if last := f[len(f)-1]; last.Origin != Nested || last.Name != "pkg/sub/AGENTS.md" {
		t.Fatalf("nested file listed as %+v", last)
	}
	if strings.Contains(s.Text(), "Package pkg") {
		t.Fatal("Nested changed the system prompt's text")
	}
}

func TestReportListsEveryFileWithOriginAndImporter(t *testing.T) {
	dir := tree(t)
	s := Load(Options{Workdir: filepath.Join(dir, "project")})
	r := s.Report()
	for _, want := range []string{
		"instruction files (",
		"  project  AGENTS.md  ",
		"  import   docs/more.md  42 bytes  (imported by docs/style.md)",
		"  note: @../outside.md in CLAUDE.md: outside the project",
	} {
		if !strings.Contains(r, want) {
			t.Fatalf("report lacks %q:\n%s", want, r)
		}
	}
	if r := Load(Options{Workdir: t.TempDir()}).Report(); !strings.HasPrefix(r, "no instruction files") {
		t.Fatalf("empty report = %q", r)
	}
}

func TestImports(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"line and word", "@AGENTS.md\nsee @docs/a.md, then @./b.md.", []string{"AGENTS.md", "docs/a.md", "./b.md"}},
		{"home and absolute", "@~/x.md and @/etc/y.md", []string{"~/x.md", "/etc/y.md"}},
		{"mentions and e-mail are not imports", "ask @alice, mail a@b.md", nil},
		{"code span", "use `@a.md` or ``x @b.md`` but @c.md", []string{"c.md"}},
		{"unclosed backtick is text", "a ` @d.md", []string{"d.md"}},
		{"fenced block", "```\n@a.md\n```\n~~~~\n@b.md\n~~~\n~~~~\n@c.md", []string{"c.md"}},
		{"indented four spaces is not a fence", "    ```\n@a.md", []string{"a.md"}},
		{"each once", "@a.md @a.md", []string{"a.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Imports(tt.text); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Imports = %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzImports(f *testing.F) {
	f.Add("see @a.md `@b.md`\n```\n@c.md\n```")
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range Imports(text) {
			if p == "" || strings.ContainsAny(p, " \t\n`") {
				t.Fatalf("import %q from %q", p, text)
			}
		}
	})
}

func TestSecretFilesAreNeverImported(t *testing.T) {
	dir := tree(t)
	home := filepath.Join(dir, "home")
	work := filepath.Join(dir, "project")
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("PRIVATE KEY\n"), 0o600)
	os.WriteFile(filepath.Join(work, ".env"), []byte("TOKEN=SECRET\n"), 0o600)
	os.WriteFile(filepath.Join(work, "AGENTS.md"), []byte("@.env and @~/.ssh/id_ed25519\n"), 0o644)
	s := Load(Options{Workdir: work, Home: home, Trusted: true})
	if text := s.Text(); strings.Contains(text, "SECRET") || strings.Contains(text, "PRIVATE KEY") {
		t.Fatalf("a secret reached the prompt:\n%s", text)
	}
	notes := strings.Join(s.Notes(), "\n")
	if strings.Count(notes, "it is a secret file") != 2 {
		t.Fatalf("notes:\n%s", notes)
	}
}

func TestNestedIsSafeFromParallelToolCalls(t *testing.T) {
	dir := tree(t)
	s := Load(Options{Workdir: filepath.Join(dir, "project")})
	texts := make(chan string, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { texts <- s.Nested("pkg/sub/sub.go") })
	}
	wg.Wait()
	close(texts)
	added := 0
	for text := range texts {
		if text != "" {
			added++
		}
	}
	if added != 1 {
		t.Fatalf("%d of 8 parallel calls added the folder's instructions, want 1", added)
	}
}
