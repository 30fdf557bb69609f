package render_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/trace"
)

func exampleTraces(t *testing.T) []string {
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

// TestSameTraceSameBytes runs every example twice in every format.
func TestSameTraceSameBytes(t *testing.T) {
	for _, f := range exampleTraces(t) {
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
