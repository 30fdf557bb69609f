// Package union holds what the kit's two declared unions share: sim's
// Action (the plugin level's actions) and loop's Step (the runtime level's
// steps) are structs of which exactly one pointer member is set, and each
// member is declared once, as a row of its table that names its key and
// points at its field. A table is in its union's field order, which is the
// order of its trace schema, its documentation and its generators' kinds.
package union

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Field points at one member field of a union value: a row's accessor,
// returning the field's address (a **T) as any.
type Field[U any] func(*U) any

// Index is the index of U's field that field points at, or -1.
func Index[U any](field Field[U]) int {
	var u U
	p := reflect.ValueOf(field(&u)).Pointer()
	v := reflect.ValueOf(&u).Elem()
	for i := range v.NumField() {
		if v.Field(i).Addr().Pointer() == p {
			return i
		}
	}
	return -1
}

// Sorted returns the rows of a union U's table in U's field order, each
// row's field found by the accessor fieldOf gives it (once per row: a
// program's start pays for it). A row whose accessor points at no field
// sorts first, where a table's test finds it.
func Sorted[U, R any](rows []R, fieldOf func(R) Field[U]) []R {
	type at struct {
		r     R
		field int
	}
	ordered := make([]at, len(rows))
	for i, r := range rows {
		ordered[i] = at{r, Index(fieldOf(r))}
	}
	slices.SortStableFunc(ordered, func(a, b at) int { return a.field - b.field })
	out := make([]R, len(rows))
	for i, o := range ordered {
		out[i] = o.r
	}
	return out
}

// Member is what Problems reads of a row: its key, the Go type of its
// value and its field.
type Member[U any] struct {
	Key   string
	Type  reflect.Type
	Field Field[U]
}

// Problems holds a table to its union U: each of U's fields but those
// named in extra (Go field names) is one row, in field order, whose
// accessor points at it, of the field's pointed-to type, with the field's
// JSON key when the field has one; and a U with only that field set is the
// row's (nameOf names it by the row's key).
func Problems[U any](rows []Member[U], nameOf func(*U) string, extra ...string) []string {
	var out []string
	typ := reflect.TypeFor[U]()
	at := map[int]int{} // field index -> row
	for j, r := range rows {
		i := Index(r.Field)
		if i < 0 {
			out = append(out, fmt.Sprintf("row %q points at no field of %s", r.Key, typ.Name()))
			continue
		}
		if prev, dup := at[i]; dup {
			out = append(out, fmt.Sprintf("rows %q and %q point at the same field", rows[prev].Key, r.Key))
		}
		at[i] = j
	}
	next := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		if slices.Contains(extra, f.Name) {
			continue
		}
		j, ok := at[i]
		if !ok {
			out = append(out, fmt.Sprintf("field %s has no row of the table", f.Name))
			continue
		}
		r := rows[j]
		if j != next {
			out = append(out, fmt.Sprintf("row %q is not in its field's place (field %d, row %d)", r.Key, i, j))
		}
		next = j + 1
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "" && tag != r.Key {
			out = append(out, fmt.Sprintf("row %q: its field %s is written %q", r.Key, f.Name, tag))
		}
		if f.Type.Kind() != reflect.Pointer || f.Type.Elem() != r.Type {
			out = append(out, fmt.Sprintf("row %s is declared for %s, field %s is %s", r.Key, r.Type, f.Name, f.Type))
			continue
		}
		var u U
		reflect.ValueOf(&u).Elem().Field(i).Set(reflect.New(f.Type.Elem()))
		if got := nameOf(&u); got != r.Key {
			out = append(out, fmt.Sprintf("a %s with only %s set is named %q", typ.Name(), f.Name, got))
		}
	}
	return out
}

// Table is a union U's table of rows R: each row is declared once, by the
// file of its member (Declare, at package initialization), and read in
// U's field order (Rows), found by the field each row points at.
type Table[U, R any] struct {
	key      func(R) string
	field    func(R) Field[U]
	declared []R
	once     sync.Once
	sorted   []R
}

// NewTable returns an empty table whose rows name their keys with key and
// point at their fields with field.
func NewTable[U, R any](key func(R) string, field func(R) Field[U]) *Table[U, R] {
	return &Table[U, R]{key: key, field: field}
}

// Declare adds a row; each member's file declares its row once.
func (t *Table[U, R]) Declare(r R) R {
	t.declared = append(t.declared, r)
	return r
}

// Rows are the declared rows in U's field order (sorted once).
func (t *Table[U, R]) Rows() []R {
	t.once.Do(func() { t.sorted = Sorted(t.declared, t.field) })
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

// Members are the rows as Problems reads them.
func (t *Table[U, R]) Members(typeOf func(R) reflect.Type) []Member[U] {
	var out []Member[U]
	for _, r := range t.Rows() {
		out = append(out, Member[U]{Key: t.key(r), Type: typeOf(r), Field: t.field(r)})
	}
	return out
}
