package attribution

import (
	"strings"
	"testing"

	"github.com/plankit/plankit/spec"
)

const miniSpec = "## LOG\n- **LOG-1** `plan/mode` is a session event with data\n  `{ active: boolean }`. It is log-only.\n- **LOG-2** The fold.\n## PEND\n"

// The ledger check finds every comparison that rests on no SPEC.md
// sentence: an observation with no quote, a quote its clause does not
// say, a rule with none, an observation kind compared but not in the
// ledger; a ledger that quotes SPEC.md (code quotes and line breaks
// aside) has no problem.
func TestLedgerProblems(t *testing.T) {
	clauses := spec.ListedIn(miniSpec)
	if len(clauses) != 2 || clauses[0].Text != "plan/mode is a session event with data { active: boolean }. It is log-only." {
		t.Fatalf("SPEC.md lists %q", clauses)
	}
	good := []Compared{{Kind: "a", Rests: []Quote{{"LOG-1", "data { active: boolean }. It is log-only."}}}}
	checks := []Check{{ID: "r", Clauses: []string{"LOG-2"}, Rests: Quote{"LOG-2", "The fold."}}}
	if p := LedgerProblems(clauses, good, checks, []string{"a"}); len(p) > 0 {
		t.Fatalf("a faithful ledger has problems: %v", p)
	}
	for _, c := range []struct {
		ledger []Compared
		checks []Check
		kinds  []string
		want   string
	}{
		{[]Compared{{Kind: "a"}}, checks, []string{"a"}, `observation "a" rests on no SPEC.md sentence`},
		{[]Compared{{Kind: "a", Rests: []Quote{{"LOG-1", "a live mirror"}}}}, checks, []string{"a"}, `LOG-1 does not say "a live mirror"`},
		{[]Compared{{Kind: "a", Rests: []Quote{{"LOG-9", "x"}}}}, checks, []string{"a"}, "clause LOG-9 is not in SPEC.md"},
		{good, []Check{{ID: "r2", Clauses: []string{"LOG-2"}}}, []string{"a"}, "rule r2 rests on no SPEC.md sentence"},
		{good, checks, []string{"a", "b"}, `observation "b" is compared but not in the ledger`},
	} {
		p := LedgerProblems(clauses, c.ledger, c.checks, c.kinds)
		if len(p) != 1 || !strings.Contains(p[0], c.want) {
			t.Errorf("problems %v, want one saying %q", p, c.want)
		}
	}
}
