package proctest_test

import (
	"testing"

	"github.com/plankit/plankit/internal/proctest"
)

func TestWithoutIdentity(t *testing.T) {
	a := "trace t (t.yaml)\nimplementation reference 1 (go)\n\n1 prompt main\n"
	b := "trace t (t.yaml)\nimplementation plankit-serve 1 (go)\n\n1 prompt main\n"
	if proctest.WithoutIdentity(a) != proctest.WithoutIdentity(b) {
		t.Errorf("timelines that differ only in the implementation line differ:\n%q\n%q", proctest.WithoutIdentity(a), proctest.WithoutIdentity(b))
	}
	if got, want := proctest.WithoutIdentity(a), "trace t (t.yaml)\n\n1 prompt main\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
