package render_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/trace"
	"github.com/sebdah/goldie/v2"
)

func examples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return files
}

func runExample(t *testing.T, file, format string) []byte {
	t.Helper()
	tr, err := trace.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tr.File = filepath.ToSlash(filepath.Join("examples", filepath.Base(file)))
	run := trace.Execute(tr, reference.NewPort(reference.Options{}))
	var b bytes.Buffer
	if err := render.Write(&b, format, run); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTimelineGolden keeps every example's text timeline under review: a
// change in what the log or the requests contain shows up as a diff.
// Regenerate with `go test ./render -update` and review the diff.
func TestTimelineGolden(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata/timelines"), goldie.WithNameSuffix(".txt"))
	for _, f := range examples(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			g.Assert(t, name, runExample(t, f, "text"))
		})
	}
}

// TestSameTraceSameBytes runs every example twice in every format.
func TestSameTraceSameBytes(t *testing.T) {
	for _, f := range examples(t) {
		for _, format := range render.Formats {
			a, b := runExample(t, f, format), runExample(t, f, format)
			if !bytes.Equal(a, b) {
				t.Errorf("%s --format %s: two runs differ", f, format)
			}
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := render.Write(&bytes.Buffer{}, "yaml", &trace.Run{Trace: &trace.Trace{}}); err == nil {
		t.Fatal("unknown format accepted")
	}
}
