package union

import (
	"reflect"
	"slices"
	"testing"
)

// u is a union of three members of unlike types.
type u struct {
	B *[]int    `json:"b,omitempty"`
	A *struct{} `json:"a,omitempty"`
	C *bool
}

var (
	fieldA = Field[u](func(x *u) any { return &x.A })
	fieldB = Field[u](func(x *u) any { return &x.B })
	fieldC = Field[u](func(x *u) any { return &x.C })
)

func TestSortedByFieldOrder(t *testing.T) {
	if Index(fieldA) != 1 || Index(fieldC) != 2 {
		t.Fatalf("Index: a %d, c %d", Index(fieldA), Index(fieldC))
	}
	rows := map[string]Field[u]{"a": fieldA, "b": fieldB, "c": fieldC}
	got := Sorted([]string{"c", "a", "b"}, func(k string) Field[u] { return rows[k] })
	if !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Fatalf("Sorted: %v", got)
	}
	tab := NewTable(func(k string) string { return k }, func(k string) Field[u] { return rows[k] })
	for _, k := range []string{"c", "a", "b"} {
		tab.Declare(k)
	}
	if got := tab.Keys(); !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Fatalf("Keys: %v", got)
	}
}

func TestProblems(t *testing.T) {
	name := func(x *u) string {
		switch {
		case x.B != nil:
			return "b"
		case x.A != nil:
			return "a"
		case x.C != nil:
			return "c"
		}
		return ""
	}
	b := Member[u]{"b", reflect.TypeFor[[]int](), fieldB}
	a := Member[u]{"a", reflect.TypeFor[struct{}](), fieldA}
	c := Member[u]{"c", reflect.TypeFor[bool](), fieldC}
	if p := Problems([]Member[u]{b, a, c}, name); len(p) != 0 {
		t.Fatalf("a faithful table: %v", p)
	}
	if p := Problems([]Member[u]{b, a}, name, "C"); len(p) != 0 {
		t.Fatalf("C left out as not a member: %v", p)
	}
	wrongKey := a
	wrongKey.Key = "z"
	wrongType := a
	wrongType.Type = reflect.TypeFor[int]()
	for _, rows := range [][]Member[u]{
		{a, b, c},         // out of place
		{b, wrongType, c}, // another type
		{b, a},            // a field without a row
		{b, wrongKey, c},  // the field's JSON key is another
		{b, a, c, c},      // two rows on one field
	} {
		if p := Problems(rows, name); len(p) == 0 {
			t.Errorf("%v: no problem found", rows)
		}
	}
}
