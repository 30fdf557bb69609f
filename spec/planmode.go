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

// PlanModeReading is how a fold reads plan/mode data: the declared values
// of choices plan-mode-data (data with a boolean active and other fields)
// and plan-mode-malformed (data with no boolean active); "" is a choice's
// default.
type PlanModeReading struct {
	Data      string
	Malformed string
}

// PlanModeReadingOf is the reading an implementation declares.
func PlanModeReadingOf(choices map[string]string) PlanModeReading {
	return PlanModeReading{Data: choices[ChoicePlanModeData], Malformed: choices[ChoicePlanModeMalformed]}
}

// Read returns the active flag the data folds to and whether it folds at
// all. Data with no boolean active folds only under plan-mode-malformed=
// truthy, to the truthiness of its active; under keep, and under either
// (not judged, read as keep), it changes nothing.
func (r PlanModeReading) Read(data json.RawMessage) (active bool, ok bool) {
	if v, ok := PlanModeRead(data, r.Data); ok {
		return v, true
	}
	if r.Malformed != PlanModeMalformedTruthy || HasBooleanActive(data) {
		return false, false
	}
	return ActiveTruthy(data), true
}

// HasBooleanActive reports whether plan/mode data is a JSON object with a
// boolean active (other fields aside): data choice plan-mode-malformed
// does not concern.
func HasBooleanActive(data json.RawMessage) bool {
	_, ok := PlanModeRead(data, PlanModeDataFoldActive)
	return ok
}

// ActiveTruthy is the truthiness of data.active as JavaScript reads it:
// false when data is not an object or active is missing, null, false, 0
// or "", true for any other value.
func ActiveTruthy(data json.RawMessage) bool {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
		return false
	}
	a, ok := raw["active"]
	if !ok {
		return false
	}
	var v any
	if json.Unmarshal(a, &v) != nil {
		return false
	}
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0
	case string:
		return v != ""
	}
	return true // an object or an array
}
