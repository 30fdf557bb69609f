package main

import (
	"bytes"
	"path/filepath"
	"testing"
)

// run invokes plankit through its real entry point.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestEveryExamplePasses(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, out, errs := run(t, "sim", f)
			if code != ExitPass {
				t.Fatalf("plankit sim %s: exit %d\n%s\n%s", f, code, out, errs)
			}
		})
	}
}
