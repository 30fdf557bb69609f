package spec

import (
	"encoding/json"
	"testing"
)

// The data of a plan/mode event folds under choice plan-mode-data: any
// object with a boolean active under fold-active, exactly {active:
// boolean} under exact.
func TestPlanModeRead(t *testing.T) {
	for _, c := range []struct {
		data      string
		ok, exact bool
	}{{`{"active":true}`, true, true}, {`{"active":1}`, false, false}, {`{}`, false, false}, {`{"active":true,"x":1}`, true, false}, {`[]`, false, false}, {`null`, false, false}} {
		data := json.RawMessage(c.data)
		if _, ok := PlanModeOf(data); ok != c.ok {
			t.Errorf("PlanModeOf(%s) ok=%v (choice plan-mode-data=fold-active)", c.data, ok)
		}
		if _, ok := PlanModeRead(data, PlanModeDataExact); ok != c.exact {
			t.Errorf("PlanModeRead(%s, exact) ok=%v", c.data, ok)
		}
		if PlanModeExact(data) != c.exact {
			t.Errorf("PlanModeExact(%s) = %v", c.data, !c.exact)
		}
	}
}
