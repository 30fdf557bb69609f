package report

import "testing"

func TestManifestExpects(t *testing.T) {
	m, err := ParseManifest("m.txt", []byte("id:a -- known\nclause:PEND-5 expires=2026-06-01 -- known too\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c     Case
		today string
		want  string
	}{
		{Case{ID: "a"}, "2026-01-01", "m.txt:1"},
		{Case{ID: "b", Clauses: []string{"PEND-5"}}, "2026-01-01", "m.txt:2"},
		{Case{ID: "b", Clauses: []string{"PEND-5"}}, "2026-07-01", ""}, // expired
		{Case{ID: "c", Clauses: []string{"PEND-3"}}, "2026-01-01", ""},
	} {
		if got := m.Expects(tc.c, tc.today); got != tc.want {
			t.Errorf("%s %v on %s: %q, want %q", tc.c.ID, tc.c.Clauses, tc.today, got, tc.want)
		}
	}
	var none *Manifest
	if got := none.Expects(Case{ID: "a"}, "2026-01-01"); got != "" {
		t.Errorf("a nil manifest expects %q", got)
	}
}
