package report

import "testing"

// A failure counts only under its attributed clauses; a pass under every
// tag; a failure with nothing attributed under its tags.
func TestTableCountsFailuresUnderAttributedClauses(t *testing.T) {
	rows := Table([]Case{
		{ID: "a", Clauses: []string{"STEP-6", "EXIT-5"}, Attributed: []string{"EXIT-6"}, Status: Failed},
		{ID: "b", Clauses: []string{"STEP-6", "EXIT-5"}, Attributed: []string{"STEP-1"}, Status: ExpectedFailed},
		{ID: "c", Clauses: []string{"CFG-1"}, Status: Failed},
		{ID: "d", Clauses: []string{"STEP-6", "EXIT-5"}, Status: Passed},
	}, nil)
	got := map[string]ClauseRow{}
	for _, r := range rows {
		got[r.Clause] = r
	}
	want := map[string]ClauseRow{
		"STEP-1": {Clause: "STEP-1", ExpectedFailed: 1},
		"STEP-6": {Clause: "STEP-6", Passed: 1},
		"CFG-1":  {Clause: "CFG-1", Failed: 1},
		"EXIT-5": {Clause: "EXIT-5", Passed: 1},
		"EXIT-6": {Clause: "EXIT-6", Failed: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("rows %v, want %v", rows, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %+v, want %+v", k, got[k], w)
		}
	}
}
