package trace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any input is a trace or an *Error saying where; never a panic.
// The seed corpus is every example trace and every malformed fixture.
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"../examples/*.yaml", "testdata/bad/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse("fuzz.yaml", data)
		if err == nil {
			if tr == nil || tr.Name == "" {
				t.Fatalf("parsed without a name: %+v", tr)
			}
			return
		}
		var te *Error
		if !errors.As(err, &te) {
			t.Fatalf("error of type %T: %v", err, err)
		}
	})
}
