package attribution

import (
	"slices"
	"testing"
)

func TestForScenario(t *testing.T) {
	for _, tc := range []struct {
		obs  string
		tags []string
		want []string
	}{
		{ObsListener, []string{"CFG-1"}, []string{"STEP-1"}},           // one clause: the observation's
		{ObsNotices, []string{"PEND-5", "STEP-6"}, []string{"STEP-6"}}, // the tags the observation names
		{ObsGet, []string{"EXIT-6", "SVC-3"}, []string{"EXIT-6"}},
		{ObsNotices, []string{"CMD-3"}, []string{"CMD-3"}}, // nothing in common: the tags
		{"no such observation", []string{"LOG-1"}, []string{"LOG-1"}},
	} {
		if got := ForScenario(tc.obs, tc.tags); !slices.Equal(got, tc.want) {
			t.Errorf("ForScenario(%q, %v) = %v, want %v", tc.obs, tc.tags, got, tc.want)
		}
	}
}

func TestEveryRuleNamesClauses(t *testing.T) {
	for _, r := range Table {
		if r.Observation == "" || r.When == "" || len(r.Clauses) == 0 {
			t.Errorf("incomplete rule %+v", r)
		}
	}
}
