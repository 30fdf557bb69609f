package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// GroupOrder is the order of the clause groups in SPEC.md.
var GroupOrder = []string{"LOG", "PEND", "STEP", "CFG", "EXIT", "CMD", "SVC"}

// ClauseRow counts the checks of one clause by final status. A check
// tagged with several clauses counts in each, except that a failure
// (expected or not) counts only under the clauses of its first failing
// observation when they are known (Case.FailedClauses). Only Failed counts
// deviations; Errors (the implementation could not be run) and NotRun (the
// run was interrupted) are checks that were not judged.
type ClauseRow struct {
	Clause         string `json:"clause"`
	Passed         int    `json:"passed"`
	Failed         int    `json:"failed"`
	ExpectedFailed int    `json:"expectedFailed"`
	Skipped        int    `json:"skipped"`
	Errors         int    `json:"errors,omitempty"`
	NotRun         int    `json:"notRun,omitempty"`
}

// CompareClauses orders clause IDs as SPEC.md does: by group, then number.
func CompareClauses(a, b string) int {
	ga, na := splitClause(a)
	gb, nb := splitClause(b)
	if ga != gb {
		ia, ib := groupIndex(ga), groupIndex(gb)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(ga, gb)
	}
	return na - nb
}

func splitClause(c string) (string, int) {
	g, n, _ := strings.Cut(c, "-")
	v, _ := strconv.Atoi(n)
	return g, v
}

func groupIndex(g string) int {
	for i, x := range GroupOrder {
		if x == g {
			return i
		}
	}
	return len(GroupOrder)
}

// Table counts cases per clause. Clauses lists clauses to show even with
// no check (so a missing clause is visible); every clause a case names is
// shown too.
func Table(cases []Case, clauses []string) []ClauseRow {
	rows := map[string]*ClauseRow{}
	for _, c := range clauses {
		rows[c] = &ClauseRow{Clause: c}
	}
	for _, c := range cases {
		clauses := c.Clauses
		if c.Status == Failed || c.Status == ExpectedFailed {
			// A failure counts under the clauses of the observation that
			// failed, when known: not every clause the check is tagged with.
			clauses = c.FailedClauses()
		}
		for _, cl := range clauses {
			r := rows[cl]
			if r == nil {
				r = &ClauseRow{Clause: cl}
				rows[cl] = r
			}
			switch c.Status {
			case Passed:
				r.Passed++
			case Failed, UnexpectedPass:
				r.Failed++
			case ExpectedFailed:
				r.ExpectedFailed++
			case Skipped:
				r.Skipped++
			case Errored:
				r.Errors++
			case NotRun:
				r.NotRun++
			}
		}
	}
	out := make([]ClauseRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return CompareClauses(out[i].Clause, out[j].Clause) < 0 })
	return out
}

// WriteTable prints the per-clause table. The error and not-run columns
// appear only when some check was not judged.
func WriteTable(w io.Writer, rows []ClauseRow) error {
	unjudged := false
	for _, r := range rows {
		unjudged = unjudged || r.Errors > 0 || r.NotRun > 0
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "clause\tpassed\tfailed\texpected-failed\tskipped\t"
	if unjudged {
		head += "error\tnot-run\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t", r.Clause, r.Passed, r.Failed, r.ExpectedFailed, r.Skipped)
		if unjudged {
			fmt.Fprintf(tw, "%d\t%d\t", r.Errors, r.NotRun)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
