package inputlimit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFileBound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(p, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 14); err != nil || string(b) != "one\ntwo\nthree\n" {
		t.Fatalf("at the bound: %q %v", b, err)
	}
	_, err := ReadFile(p, 6)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) || tl.Line != 2 || tl.Limit != 6 {
		t.Fatalf("over the bound: %v", err)
	}
	if !strings.Contains(err.Error(), p+":2:") || !strings.Contains(err.Error(), FlagBytes) {
		t.Fatalf("message %q does not name file, line and flag", err)
	}
}

func TestInvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		in        string
		line, col int
		ok        bool
	}{
		{"name: ok\nä: ü\n", 0, 0, true},
		{"name: x\nbad: \xff\n", 2, 6, false},
		{"\xc3", 1, 1, false},
		{"a: é\nb: \xed\xa0\x80\n", 2, 4, false}, // a surrogate
	} {
		line, col, ok := InvalidUTF8([]byte(tc.in))
		if line != tc.line || col != tc.col || ok != tc.ok {
			t.Errorf("%q: got %d:%d %v, want %d:%d %v", tc.in, line, col, ok, tc.line, tc.col, tc.ok)
		}
	}
}
