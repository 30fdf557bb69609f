package features

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plankit/plankit/internal/third_party/godog"
)

// tableRows reads a step's data table whose header row names exactly
// columns, in any order, and returns each further row as column name →
// cell. what names the table in errors; an empty table (a header row
// alone) is an error unless allowEmpty.
func tableRows(table *godog.Table, what string, allowEmpty bool, columns ...string) ([]map[string]string, error) {
	header := strings.Join(columns, " | ")
	need := "and at least one row"
	if allowEmpty {
		need = "and a row for each entry"
	}
	if table == nil || len(table.Rows) == 0 || (!allowEmpty && len(table.Rows) < 2) {
		return nil, fmt.Errorf("scenario bug: the %s table needs a header row (%s) %s", what, header, need)
	}
	cols := map[string]int{}
	for i, c := range table.Rows[0].Cells {
		switch _, dup := cols[c.Value]; {
		case !slices.Contains(columns, c.Value):
			return nil, fmt.Errorf("scenario bug: the %s table has an unknown column %q (header row: %s)", what, c.Value, header)
		case dup:
			return nil, fmt.Errorf("scenario bug: the %s table names the column %q twice", what, c.Value)
		}
		cols[c.Value] = i
	}
	for _, name := range columns {
		if _, ok := cols[name]; !ok {
			return nil, fmt.Errorf("scenario bug: the %s table has no %q column (header row: %s)", what, name, header)
		}
	}
	var rows []map[string]string
	for _, row := range table.Rows[1:] {
		r := make(map[string]string, len(columns))
		for _, name := range columns {
			r[name] = row.Cells[cols[name]].Value
		}
		rows = append(rows, r)
	}
	return rows, nil
}
