// Package union holds what the kit's two declared unions share: sim's
// Action (the plugin level's actions) and loop's Step (the runtime
// level's steps) are structs of which exactly one pointer member is set,
// and each member is declared once, as a row of its table, by its JSON
// key. A table is in its union's field order, which is the order of its
// trace schema, its documentation and its generators' kinds.
package union

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Index is the index of U's field whose JSON key is key, or -1.
func Index[U any](key string) int {
	t := reflect.TypeFor[U]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == key {
			return i
		}
	}
	return -1
}

// Sorted returns the rows of a union U's table in U's field order, each
// row's field found by the JSON key keyOf gives it (once per row: a
// program's start pays for it). A row whose key no field has sorts first,
// where a table's test finds it.
func Sorted[U, R any](rows []R, keyOf func(R) string) []R {
	type at struct {
		r     R
		field int
	}
	ordered := make([]at, len(rows))
	for i, r := range rows {
		ordered[i] = at{r, Index[U](keyOf(r))}
	}
	slices.SortStableFunc(ordered, func(a, b at) int { return a.field - b.field })
	out := make([]R, len(rows))
	for i, o := range ordered {
		out[i] = o.r
	}
	return out
}

// Problems holds a table to its union U: each of U's fields but those
// whose keys extra names is one row, in field order, with the field's JSON
// key and the field's pointed-to Go type, and a U with only that field set
// is the row's (nameOf names it by the row). keys and types are the rows'
// in table order.
func Problems[U any](keys []string, types []reflect.Type, nameOf func(*U) string, extra ...string) []string {
	var out []string
	typ := reflect.TypeFor[U]()
	i := 0
	for f := range typ.Fields() {
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if slices.Contains(extra, key) {
			continue
		}
		if i >= len(keys) {
			out = append(out, fmt.Sprintf("field %s (%q) has no row of the table", f.Name, key))
			continue
		}
		switch {
		case keys[i] != key:
			out = append(out, fmt.Sprintf("row %d is %q, but the field in its place is %s (%q)", i, keys[i], f.Name, key))
		case f.Type.Kind() != reflect.Pointer || f.Type.Elem() != types[i]:
			out = append(out, fmt.Sprintf("row %s is declared for %s, field %s is %s", keys[i], types[i], f.Name, f.Type))
		default:
			var u U
			reflect.ValueOf(&u).Elem().FieldByIndex(f.Index).Set(reflect.New(f.Type.Elem()))
			if got := nameOf(&u); got != key {
				t := typ.Name()
				out = append(out, fmt.Sprintf("a %s with only %s set is named %q", t, f.Name, got))
			}
		}
		i++
	}
	for ; i < len(keys); i++ {
		out = append(out, fmt.Sprintf("row %q has no field", keys[i]))
	}
	return out
}

// Table is a union U's table of rows R: each row is declared once, by the
// file of its member (Declare, at package initialization), and read in
// U's field order (Rows), found by the JSON key each row names (key).
type Table[U, R any] struct {
	key      func(R) string
	declared []R
	once     sync.Once
	sorted   []R
}

// NewTable returns an empty table whose rows name their keys with key.
func NewTable[U, R any](key func(R) string) *Table[U, R] {
	return &Table[U, R]{key: key}
}

// Declare adds a row; each member's file declares its row once.
func (t *Table[U, R]) Declare(r R) R {
	t.declared = append(t.declared, r)
	return r
}

// Rows are the declared rows in U's field order (sorted once).
func (t *Table[U, R]) Rows() []R {
	t.once.Do(func() { t.sorted = Sorted[U](t.declared, t.key) })
	return t.sorted
}

// Keys are the rows' keys, in table order.
func (t *Table[U, R]) Keys() []string {
	out := make([]string, 0, len(t.Rows()))
	for _, r := range t.Rows() {
		out = append(out, t.key(r))
	}
	return out
}
