package spec

import (
	"strings"
	"testing"
)

func TestCheckChoices(t *testing.T) {
	for _, tc := range []struct {
		declared map[string]string
		want     string // "" for accepted
	}{
		{nil, ""},
		{map[string]string{"fold-end": "slice", "plan-heading": "level-1"}, ""},
		{map[string]string{"fold-end": "wrap"}, `fold-end="wrap"`},
		{map[string]string{"fold-end": ""}, "known values: clamp, error, slice"},
		{map[string]string{"cancel-pending": "clear", "section-order": "50"}, `choice "section-order", which plankit does not know (known choices: cancel-pending, empty-step, fault-scope, fold-end, idle-append-failure, idle-revert-notice, logged-pending, plan-argument, plan-heading, plan-mode-data, plan-mode-malformed, reload-pending, section-source, unloaded-header)`},
	} {
		err := CheckChoices(tc.declared)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckChoices(%v) = %v, want %q", tc.declared, err, tc.want)
		}
	}
}

// Readings follows every value of the followed choices left undeclared at
// the level, the reference's first, and none of a declared one.
func TestReadings(t *testing.T) {
	got := Readings(map[string]string{ChoiceIdleRevertNotice: IdleRevertNoticeNet, ChoiceFoldEnd: FoldEndSlice}, LevelPlugin)
	if len(got) != 2*3*2 {
		t.Fatalf("%d readings, want 12 (plan-argument, unloaded-header, logged-pending): %v", len(got), got)
	}
	first := got[0]
	if first[ChoicePlanArgument] != PlanArgumentTrimmed || first[ChoiceUnloadedHeader] != UnloadedHeaderFold || first[ChoiceLoggedPending] != LoggedPendingKeep {
		t.Errorf("the first reading is not the reference's: %v", first)
	}
	for _, r := range got {
		if r[ChoiceIdleRevertNotice] != IdleRevertNoticeNet || r[ChoiceFoldEnd] != FoldEndSlice || r[ChoiceFaultScope] != "" {
			t.Errorf("a reading changes a declared choice or one of another level: %v", r)
		}
	}
	if n := len(Readings(nil, LevelRuntime)); n != 2*2*3*2*2 {
		t.Errorf("%d runtime readings of nothing declared, want 48", n)
	}
}
