package features

import (
	"strings"
	"testing"

	messages "github.com/cucumber/messages/go/v34"
	"github.com/plankit/plankit/internal/third_party/godog"
)

func table(rows ...[]string) *godog.Table {
	t := &godog.Table{}
	for _, r := range rows {
		row := &messages.PickleTableRow{}
		for _, c := range r {
			row.Cells = append(row.Cells, &messages.PickleTableCell{Value: c})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func TestTableRows(t *testing.T) {
	rows, err := tableRows(table([]string{"b", "a"}, []string{"2", "1"}), "demo", false, "a", "b")
	if err != nil || len(rows) != 1 || rows[0]["a"] != "1" || rows[0]["b"] != "2" || len(rows[0]) != 2 {
		t.Fatalf("rows %v, err %v", rows, err)
	}
	if rows, err := tableRows(table([]string{"a", "b"}), "demo", true, "a", "b"); err != nil || len(rows) != 0 {
		t.Fatalf("an empty table allowed: rows %v, err %v", rows, err)
	}
	for name, tc := range map[string]struct {
		t    *godog.Table
		want string
	}{
		"no rows":        {table([]string{"a", "b"}), "needs a header row (a | b) and at least one row"},
		"no table":       {nil, "needs a header row"},
		"missing column": {table([]string{"a"}, []string{"1"}), `the demo table has no "b" column`},
		"unknown column": {table([]string{"a", "b", "c"}, []string{"1", "2", "3"}), `the demo table has an unknown column "c"`},
		"twice":          {table([]string{"a", "b", "a"}, []string{"1", "2", "3"}), `names the column "a" twice`},
	} {
		if _, err := tableRows(tc.t, "demo", false, "a", "b"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", name, err, tc.want)
		}
	}
}
