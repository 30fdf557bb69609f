package conformance_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/proctest"
)

// docPage is the page a Go implementer follows.
const docPage = "../docs/checking-from-go-test.md"

// TestScratchModuleFromTheDocs does what docs/checking-from-go-test.md
// tells a Go implementer to do, in a new module outside the repository:
// the commands of its route from a checkout exactly as written (offline:
// GOPROXY=off, everything else from the module cache), its files as shown
// (go test builds them: the implementation compiles), then go test, which
// runs conformance.Test, Diff, Explore and the fuzz target's seed; then Go's fuzzer from an empty corpus, the failing input
// it keeps replayed by go test into a plankit trace, and that trace
// replayed by plankit sim --adapter through the page's adapter command.
// The page's implementation is minimal, so each fails, as the page says,
// naming a clause and how to replay what it wrote.
func TestScratchModuleFromTheDocs(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("the go command is not on PATH: %v", err)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("bash is not on PATH: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(docPage)
	if err != nil {
		t.Fatal(err)
	}
	route, files := docRoute(t, string(page))

	// The route, as written, in a directory of its own; the module it made
	// is where its last command left the shell.
	tmp := t.TempDir()
	// TMPDIR: what the module's tests write to a temporary directory (a
	// failing property's trace, where none is named) goes with this test.
	env := append(os.Environ(), "PLANKIT="+root, "GOFLAGS=", "GOWORK=", "GOPROXY=off", "GOTOOLCHAIN=local", "TMPDIR="+t.TempDir())
	sh := exec.Command("bash", "-euo", "pipefail", "-c", route+"\npwd")
	sh.Dir, sh.Env = tmp, env
	out, err := sh.CombinedOutput()
	if err != nil {
		t.Fatalf("the route of %s:\n%s\nfailed: %v\n%s", docPage, route, err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	mod := lines[len(lines)-1]
	if !strings.HasPrefix(mod, tmp) {
		t.Fatalf("the route left the shell in %s, outside %s", mod, tmp)
	}
	if gomod, _ := os.ReadFile(filepath.Join(mod, "go.mod")); bytes.Contains(gomod, []byte("plankit")) {
		t.Errorf("the route wrote plankit into go.mod (a workspace needs no require or replace):\n%s", gomod)
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(mod, strings.TrimPrefix(f, "conformance/testdata/planmode/"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goCmd := func(args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = mod, env
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			return exit.ExitCode(), string(out)
		case err != nil:
			t.Fatalf("go %s: %v", strings.Join(args, " "), err)
		}
		return 0, string(out)
	}
	code, stdout := goCmd("test", "-count=1", "./...")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`--- FAIL: TestPlanModeConforms/\S+ \(.*\n\s+testing\.go:\d+: \[[A-Z]+-\d`),
		regexp.MustCompile(`replay it against the implementation: conformance\.Replay\(t, newPort, "[^"]+\.yaml"\)`),
		regexp.MustCompile(`--- FAIL: TestPlanModeDiff[^\n]*\n\s+planmode_test\.go:\d+: divergence on [^\n]*\[[A-Z]+-\d`),
		regexp.MustCompile(`trace: testdata/plankit/diff/lockstep-seed1-case\d+\.yaml`),
		regexp.MustCompile(`--- FAIL: TestPlanModeExplore[^\n]*\n[^\n]*violation after \d+ actions[^\n]*\n\s+clauses: [A-Z]+-\d`),
	} {
		if !want.MatchString(stdout) {
			t.Errorf("go test in the scratch module (exit %d) does not say %s:\n%s", code, want, tail(stdout))
		}
	}
	if code != 1 || strings.Contains(stdout, "--- FAIL: FuzzPlanMode") {
		t.Errorf("go test: exit %d, want 1, the fuzz target's seed passing:\n%s", code, tail(stdout))
	}
	for _, dir := range []string{"testdata/plankit/diff", "testdata/plankit/explore"} {
		if traces, _ := filepath.Glob(filepath.Join(mod, dir, "*.yaml")); len(traces) != 1 {
			t.Errorf("%s holds %d traces, want the one the test wrote", dir, len(traces))
		}
	}

	// Go's fuzzer from an empty corpus (a fuzz cache of its own; the seed
	// passes), as the page shows it, with one worker and a short
	// minimization (it finds a divergence in seconds; 120 s is the bound).
	code, stdout = goCmd("test", "-run", "^$", "-fuzz", "^FuzzPlanMode$", "-fuzztime", "120s", "-fuzzminimizetime", "5s", "-parallel", "1", "-test.fuzzcachedir="+filepath.Join(tmp, "fuzzcache"))
	kept := regexp.MustCompile(`Failing input written to testdata/fuzz/FuzzPlanMode/([0-9a-f]+)`).FindStringSubmatch(stdout)
	if code != 1 || kept == nil || !strings.Contains(stdout, "divergence on ") {
		t.Fatalf("go test -fuzz: exit %d, want 1 with a failing input kept:\n%s", code, tail(stdout))
	}
	input := kept[1]
	code, stdout = goCmd("test", "-count=1", "-run", "FuzzPlanMode/"+input, ".")
	trace := "testdata/plankit/FuzzPlanMode/lockstep-fuzz-" + input + ".yaml"
	if code != 1 || !strings.Contains(stdout, "trace: "+trace) || !strings.Contains(stdout, "go test -run='^FuzzPlanMode/"+input+"$'") {
		t.Fatalf("go test -run=FuzzPlanMode/%s: exit %d, want 1 naming %s:\n%s", input, code, trace, tail(stdout))
	}

	// The trace through the plankit command: it fails against the
	// implementation behind the page's adapter, and passes against the
	// reference.
	if code, out := goCmd("build", "-o", "planmode-adapter", "./cmd/planmode-adapter"); code != 0 {
		t.Fatalf("go build ./cmd/planmode-adapter: exit %d\n%s", code, out)
	}
	var builds proctest.Builds
	defer builds.Remove()
	pk := builds.Program(t, "../cmd/plankit")
	plankit := exec.Command(pk, "sim", "--adapter", "./planmode-adapter", trace)
	plankit.Dir = mod
	if out, err := plankit.CombinedOutput(); exitCode(err) != 1 || !strings.Contains(string(out), "FAIL ") {
		t.Errorf("plankit sim --adapter ./planmode-adapter %s: %v, want exit 1 with the failing expectation\n%s", trace, err, out)
	}
	reference := exec.Command(pk, "sim", trace)
	reference.Dir = mod
	if out, err := reference.CombinedOutput(); err != nil {
		t.Errorf("plankit sim %s against the reference: %v\n%s", trace, err, out)
	}
}

// docRoute is the shell block after the page's route marker, and the files
// the page shows (file markers under conformance/testdata/planmode).
func docRoute(t *testing.T, page string) (string, []string) {
	t.Helper()
	_, after, ok := strings.Cut(page, "<!-- route: go work -->\n```sh\n")
	if !ok {
		t.Fatalf("%s has no shell block after <!-- route: go work -->", docPage)
	}
	route, _, ok := strings.Cut(after, "```")
	if !ok {
		t.Fatalf("%s: the route's block is not closed", docPage)
	}
	var files []string
	for _, m := range regexp.MustCompile(`<!-- file: (conformance/testdata/planmode/\S+) -->`).FindAllStringSubmatch(page, -1) {
		files = append(files, m[1])
	}
	if len(files) != 3 {
		t.Fatalf("%s shows %d files of the implementation, want planmode.go, planmode_test.go and the adapter command", docPage, len(files))
	}
	return route, files
}

func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// tail is the end of a long output.
func tail(s string) string {
	if len(s) > 6000 {
		return "…" + s[len(s)-6000:]
	}
	return s
}
