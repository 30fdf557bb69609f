package loop_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/plankit/plankit/loop"
)

// An empty list is an expectation ("appends nothing") and must survive
// being written into a trace; a missing one stays missing.
func TestExpectKeepsEmptyListsWhenWritten(t *testing.T) {
	for _, tc := range []struct {
		in   loop.Expect
		want string
	}{
		{loop.Expect{PlanMode: []bool{}, Sections: []bool{}}, `{"planMode":[],"sections":[]}`},
		{loop.Expect{PlanMode: []bool{true}}, `{"planMode":[true]}`},
		{loop.Expect{Clause: "EXIT-6"}, `{"clause":"EXIT-6"}`},
	} {
		b, err := json.Marshal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("marshal %+v: got %s, want %s", tc.in, b, tc.want)
		}
		var back loop.Expect
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if (back.PlanMode == nil) != (tc.in.PlanMode == nil) || !slices.Equal(back.PlanMode, tc.in.PlanMode) {
			t.Errorf("round trip of %s: planMode %#v, want %#v", b, back.PlanMode, tc.in.PlanMode)
		}
	}
}
