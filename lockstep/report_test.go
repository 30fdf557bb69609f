package lockstep

import (
	"slices"
	"testing"

	"github.com/plankit/plankit/report"
)

// TestReportCasesOfAnInterruptedSearch: a search ctx cut short is not run,
// a search finished before it keeps its verdict, never a failure.
func TestReportCasesOfAnInterruptedSearch(t *testing.T) {
	for _, tc := range []struct {
		interrupted string
		cases       int
		want        []string
	}{
		{"", 10, []string{report.Passed, report.Passed}},
		{"random", 10, []string{report.NotRun, report.NotRun}},
		{"depth", 10, []string{report.Passed, report.NotRun}},
		{"depth", 0, []string{report.NotRun}},
	} {
		r := Result{Cases: tc.cases, Steps: 5, Depth: 3, Interrupted: tc.interrupted}
		var got []string
		for _, c := range r.ReportCases() {
			got = append(got, c.Status)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("interrupted %q with %d cases: %v, want %v", tc.interrupted, tc.cases, got, tc.want)
		}
	}
}
