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
		{map[string]string{"cancel-pending": "clear", "section-order": "50"}, `choice "section-order", which plankit does not know (known choices: cancel-pending, empty-step, fold-end, idle-append-failure, idle-revert-notice, plan-heading, plan-mode-data, plan-mode-malformed, reload-pending, section-source)`},
	} {
		err := CheckChoices(tc.declared)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckChoices(%v) = %v, want %q", tc.declared, err, tc.want)
		}
	}
}
