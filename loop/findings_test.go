package loop

import (
	"slices"
	"testing"
)

// The first finding is the observation that diverged first: a failure
// counts under its clause.
func TestFindingsAttributeTheFirst(t *testing.T) {
	fs := Findings{{Clause: "STEP-6", Message: "a"}, {Clause: "LOG-1", Message: "b"}}
	if got := fs.AttributedClauses(); !slices.Equal(got, []string{"STEP-6"}) {
		t.Fatalf("AttributedClauses = %v", got)
	}
	if fs.Error() != "STEP-6: a\nLOG-1: b" {
		t.Fatalf("Error = %q", fs.Error())
	}
	if got := (Findings{}).AttributedClauses(); got != nil {
		t.Fatalf("no findings attribute %v", got)
	}
}
