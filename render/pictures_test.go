package render_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/examples"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/trace"
)

// execute runs an example trace against the reference, with the mutant if
// any.
func execute(t *testing.T, file string, mutant reference.Mutant) *trace.Run {
	t.Helper()
	run, err := examples.Picture{Trace: file, Mutant: mutant}.Run("..")
	if err != nil {
		t.Fatal(err)
	}
	if run.Err != nil {
		t.Fatal(run.Err)
	}
	return run
}

func rendered(t *testing.T, format string, run *trace.Run) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := render.Write(&b, format, run); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The golden pictures beside the examples are generated (examples.Goldens)
// and kept fresh by the module's freshness test; here: the mutant run fails
// and the others pass, so the pictures show both.
func TestPictureRunsFailExactlyForMutants(t *testing.T) {
	for _, p := range examples.Pictures {
		run := execute(t, p.Trace, p.Mutant)
		if failed := run.Failed(); failed != (p.Mutant != "") {
			t.Errorf("%s: failed=%v, want a failure exactly for a mutant run", p.Base(), failed)
		}
	}
}

func TestPicturesAreDeterministic(t *testing.T) {
	for _, format := range []string{"mermaid", "html"} {
		a := rendered(t, format, execute(t, "step-narration-header-mismatch.yaml", reference.NarrateTwice))
		b := rendered(t, format, execute(t, "step-narration-header-mismatch.yaml", reference.NarrateTwice))
		if !bytes.Equal(a, b) {
			t.Fatalf("%s differs between two renders of the same run", format)
		}
	}
}

func TestMermaidShape(t *testing.T) {
	out := string(rendered(t, "mermaid", execute(t, "step-narration-header-mismatch.yaml", reference.NarrateTwice)))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "sequenceDiagram" {
		t.Fatalf("first line %q, want sequenceDiagram", lines[0])
	}
	for _, p := range []string{"user", "runtime", "plugin", "log", "model"} {
		if !strings.Contains(out, "\n    participant "+p+"\n") {
			t.Errorf("no participant %s", p)
		}
	}
	// Every statement is one line with no raw '#' or ';' in its message
	// (both would end or garble a Mermaid statement), and rect blocks close.
	open := 0
	for i, l := range lines[1:] {
		l = strings.TrimSpace(l)
		switch {
		case l == "end":
			open--
		case strings.HasPrefix(l, "rect "):
			open++
		case strings.HasPrefix(l, "%%"), strings.HasPrefix(l, "participant "):
		default:
			_, msg, ok := strings.Cut(l, ": ")
			if !ok {
				t.Fatalf("line %d: %q is no statement", i+2, l)
			}
			if strings.ContainsAny(strings.ReplaceAll(strings.ReplaceAll(msg, "#35;", ""), "#59;", ""), ";") {
				t.Errorf("line %d: raw ';' in %q", i+2, l)
			}
		}
	}
	if open != 0 {
		t.Fatalf("unbalanced rect/end: %d", open)
	}
	if !strings.Contains(out, "rect rgb(255, 221, 221)") || !strings.Contains(out, "FAIL notices: expected 1, got 2") {
		t.Fatalf("the failed action is not shaded and noted:\n%s", out)
	}
}

// One lane per agent: a fork adds the child's lane, and the child's events
// sit in it.
func TestHTMLLanePerAgent(t *testing.T) {
	out := string(rendered(t, "html", execute(t, "log-fork-and-compaction.yaml", "")))
	if !strings.Contains(out, "<th>agent main</th><th>agent child</th>") {
		t.Fatalf("want lanes main and child:\n%s", out)
	}
	row := out[strings.Index(out, `<tr id="a7"`):]
	row = row[:strings.Index(row, "</tr>")]
	lanes := strings.Split(row, `<td class="lane">`)
	if len(lanes) != 3 || strings.Contains(lanes[1], "compaction/start") || !strings.Contains(lanes[2], "compaction/start") {
		t.Fatalf("compact child: the compaction events belong in the child's lane:\n%s", row)
	}
}

func TestHTMLIsSelfContained(t *testing.T) {
	out := string(rendered(t, "html", execute(t, "step-narration-header-mismatch.yaml", reference.NarrateTwice)))
	for _, banned := range []string{"<script", "src=", "<link", "@import", "url(", "http://", "https://"} {
		if strings.Contains(out, banned) {
			t.Errorf("the page contains %q: it must need no script and no external resource", banned)
		}
	}
	for _, want := range []string{`<tr id="a5" class="failed first">`, `<a href="#a5">FAIL action 5 (step)`, "<th>agent main</th>", "get() active=true pending=false → active=false"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

var refreshScreenshot = flag.Bool("screenshot", false, "refresh docs/img/timeline.png from headless Chromium")

// chromium is where Debian's package installs the browser.
const chromium = "/usr/bin/chromium"

// screenshot renders page in headless Chromium and returns the image.
func screenshot(t *testing.T, page []byte, width, height int) image.Image {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "timeline.html")
	shot := filepath.Join(dir, "timeline.png")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", width, height), "file://"+file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return img
}

// count returns how many pixels have exactly the colour r,g,b.
func count(img image.Image, r, g, b uint8) int {
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if uint8(pr>>8) == r && uint8(pg>>8) == g && uint8(pb>>8) == b {
				n++
			}
		}
	}
	return n
}

// The HTML timeline renders in a real browser: the failed action's row is
// painted in its highlight colour, and a passing run has no such row.
// With -screenshot it also refreshes docs/img/timeline.png, a capture of a
// browser (not a generated file: its pixels depend on the browser).
func TestHTMLRendersInChromium(t *testing.T) {
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("headless Chromium not found at %s (install Debian's chromium package to run this render test)", chromium)
	}
	const w, h = 1400, 1800
	failed := screenshot(t, rendered(t, "html", execute(t, "step-narration-header-mismatch.yaml", reference.NarrateTwice)), w, h)
	if b := failed.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), w, h)
	}
	// #ffe3e0 is the failed row's background, #b3261e its border and the
	// failing verdict; #ffe9b3 a plan/mode event.
	if n := count(failed, 0xff, 0xe3, 0xe0); n < 20000 {
		t.Errorf("failed row: %d highlight pixels, want a painted row (>= 20000)", n)
	}
	if n := count(failed, 0xb3, 0x26, 0x1e); n < 2000 {
		t.Errorf("failing verdict: %d pixels of its colour, want >= 2000", n)
	}
	if n := count(failed, 0xff, 0xe9, 0xb3); n < 1000 {
		t.Errorf("plan/mode events: %d pixels of their colour, want >= 1000", n)
	}
	passed := screenshot(t, rendered(t, "html", execute(t, "step-narration-header-mismatch.yaml", "")), w, h)
	if n := count(passed, 0xff, 0xe3, 0xe0); n != 0 {
		t.Errorf("passing run: %d highlight pixels, want none", n)
	}
	if *refreshScreenshot {
		var b bytes.Buffer
		if err := png.Encode(&b, failed); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("../docs/img/timeline.png", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
