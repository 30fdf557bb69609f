package spec

import "encoding/json"

// PlanModeData is the data of a plan/mode event, as plan mode appends it
// (LOG-1: {active: boolean}).
type PlanModeData struct {
	Active bool `json:"active"`
}

// PlanModeOf returns the active flag the data of a plan/mode event folds
// to and whether it folds at all, under the default reading of choice
// plan-mode-data (fold-active): data that is a JSON object with a boolean
// active folds to it, whatever other fields it has (LOG-2: "the active of
// the last plan/mode").
func PlanModeOf(data json.RawMessage) (active bool, ok bool) {
	return PlanModeRead(data, PlanModeDataFoldActive)
}

// PlanModeRead is PlanModeOf under a value of choice plan-mode-data: with
// exact, only data that is exactly {active: boolean} folds.
func PlanModeRead(data json.RawMessage, reading string) (active bool, ok bool) {
	switch string(data) { // the canonical forms, as logs hold them
	case `{"active":true}`:
		return true, true
	case `{"active":false}`:
		return false, true
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
		return false, false
	}
	if reading == PlanModeDataExact && len(raw) != 1 {
		return false, false
	}
	switch string(raw["active"]) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// PlanModeExact reports whether the data of a plan/mode event is exactly
// {active: boolean}, the shape LOG-1 gives the events plan mode appends.
func PlanModeExact(data json.RawMessage) bool {
	_, ok := PlanModeRead(data, PlanModeDataExact)
	return ok
}
