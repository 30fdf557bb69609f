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
	C *bool     `json:"c"`
}

func TestSortedByFieldOrder(t *testing.T) {
	if Index[u]("a") != 1 || Index[u]("c") != 2 || Index[u]("z") != -1 {
		t.Fatalf("Index: a %d, c %d, z %d", Index[u]("a"), Index[u]("c"), Index[u]("z"))
	}
	got := Sorted[u]([]string{"c", "a", "b"}, func(k string) string { return k })
	if !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Fatalf("Sorted: %v", got)
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
	types := []reflect.Type{reflect.TypeFor[[]int](), reflect.TypeFor[struct{}](), reflect.TypeFor[bool]()}
	if p := Problems[u]([]string{"b", "a", "c"}, types, name); len(p) != 0 {
		t.Fatalf("a faithful table: %v", p)
	}
	if p := Problems[u]([]string{"b", "a"}, types[:2], name, "c"); len(p) != 0 {
		t.Fatalf("c left out as not a member: %v", p)
	}
	for _, c := range []struct {
		keys  []string
		types []reflect.Type
	}{
		{[]string{"a", "b", "c"}, types},
		{[]string{"b", "a", "c"}, []reflect.Type{types[1], types[1], types[2]}},
		{[]string{"b", "a"}, types[:2]},
		{[]string{"b", "a", "c", "d"}, append(types, types[0])},
	} {
		if p := Problems[u](c.keys, c.types, name); len(p) == 0 {
			t.Errorf("%v %v: no problem found", c.keys, c.types)
		}
	}
}

func TestTable(t *testing.T) {
	tab := NewTable[u](func(k string) string { return k })
	for _, k := range []string{"c", "a", "b"} {
		tab.Declare(k)
	}
	if got := tab.Keys(); !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Fatalf("Keys: %v", got)
	}
}
