package lockstep

import (
	"slices"
	"testing"
)

// TestReadingHint: the reading noted last comes first, the others keep
// their order; a key not among them, or a nil hint, changes nothing.
func TestReadingHint(t *testing.T) {
	keys := []string{"a", "b", "c"}
	var none *readingHint[string]
	none.note("c")
	h := &readingHint[string]{}
	for _, tc := range []struct {
		h    *readingHint[string]
		note string
		want []int
	}{
		{none, "", []int{0, 1, 2}},
		{h, "", []int{0, 1, 2}},
		{h, "c", []int{2, 0, 1}},
		{h, "z", []int{0, 1, 2}},
	} {
		if tc.note != "" {
			tc.h.note(tc.note)
		}
		if got := tc.h.first(keys); !slices.Equal(got, tc.want) {
			t.Errorf("after noting %q: %v, want %v", tc.note, got, tc.want)
		}
	}
}
