package report

import (
	"strings"
	"testing"
)

// Lockstep cases get their own JUnit suite and cucumber feature.
func TestReportsCarryLockstepCases(t *testing.T) {
	r := Run{Suite: "plankit diff", Cases: []Case{{ID: "lockstep-random", Kind: KindLockstep, Name: "lockstep", Clauses: []string{"PEND-3"}, Status: Failed, Message: "set outcome [PEND-3]"}}}
	j, err := JUnit(r)
	if err != nil || !strings.Contains(string(j), `<testsuite name="lockstep"`) || !strings.Contains(string(j), `classname="lockstep"`) {
		t.Fatalf("junit: %v\n%s", err, j)
	}
	c, err := Cucumber(r)
	if err != nil || !strings.Contains(string(c), `"name": "Lockstep"`) || !strings.Contains(string(c), `"@PEND-3"`) || !strings.Contains(string(c), `"status": "failed"`) {
		t.Fatalf("cucumber: %v\n%s", err, c)
	}
}
