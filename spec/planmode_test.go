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

// Data with no boolean active folds only under plan-mode-malformed=truthy,
// to the truthiness of its active; either and keep leave the state.
func TestPlanModeReadingMalformed(t *testing.T) {
	for _, c := range []struct {
		data              string
		truthy, malformed bool
	}{
		{`{"active":"yes"}`, true, true}, {`{"active":"no"}`, true, true}, {`{"active":""}`, false, true},
		{`{}`, false, true}, {`null`, false, true}, {`{"active":0}`, false, true}, {`{"active":2}`, true, true},
		{`{"active":null}`, false, true}, {`{"active":[]}`, true, true}, {`"x"`, false, true},
		{`{"active":true}`, true, false}, {`{"active":false,"by":"ui"}`, false, false},
	} {
		data := json.RawMessage(c.data)
		for _, malformed := range []string{"", PlanModeMalformedEither, PlanModeMalformedKeep} {
			v, ok := PlanModeReading{Malformed: malformed}.Read(data)
			if w, wok := PlanModeOf(data); ok != wok || v != w {
				t.Errorf("%s under plan-mode-malformed=%q: %v,%v, want %v,%v", c.data, malformed, v, ok, w, wok)
			}
		}
		v, ok := PlanModeReading{Malformed: PlanModeMalformedTruthy}.Read(data)
		if !ok || v != c.truthy {
			t.Errorf("%s under truthy: %v,%v, want %v,true", c.data, v, ok, c.truthy)
		}
		if HasBooleanActive(data) == c.malformed {
			t.Errorf("HasBooleanActive(%s) = %v", c.data, !c.malformed)
		}
	}
	// plan-mode-data=exact's extra-field data has a boolean active: not
	// malformed, so truthy does not fold it either.
	if _, ok := (PlanModeReading{Data: PlanModeDataExact, Malformed: PlanModeMalformedTruthy}).Read(json.RawMessage(`{"active":true,"by":"ui"}`)); ok {
		t.Error("exact+truthy folds extra-field data")
	}
}
