// Package compare tells what changed between two plankit JSON reports of
// the same suite — two runs of `plankit check`, or of `plankit diff`, at
// either level, typically an implementation's previous release and its new
// one: per check, what is fixed, what newly fails, what still fails with a
// changed reason or clause, and what ran in one report and not the other;
// per clause, which checks fail under it now and no longer do.
//
// A check fails when the implementation failed it, whether or not an
// expected-failure manifest expected it (failed, expected-failed): a
// manifest that lists a new failure does not hide it from the comparison.
// It passes when the implementation passed it (passed, unexpected-pass),
// and is not judged otherwise (skipped, error, not-run). A regression is a
// check that fails in the new report and did not fail in the old one.
package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/report"
)

// Kinds of change of a check, in the order a comparison lists them.
const (
	// New: the check fails in the new report and did not in the old one
	// (it passed, was not judged, or was not there): a regression.
	New = "new"
	// Changed: the check fails in both, for another reason or under other
	// clauses.
	Changed = "changed"
	// Fixed: the check failed in the old report and passes in the new one.
	Fixed = "fixed"
	// OneSided: the check was judged in one report and not in the other
	// (skipped, error, not-run, or absent), short of a new failure; or it
	// was not judged in either, for different reasons.
	OneSided = "one-sided"
)

// Kinds lists the kinds of change in the order they are shown.
var Kinds = []string{New, Changed, Fixed, OneSided}

// Comparison is what changed from one report to another.
type Comparison struct {
	Suite        string `json:"suite"`
	SuiteVersion string `json:"suiteVersion"`
	Old          Side   `json:"old"`
	New          Side   `json:"new"`
	// Notes name how the two runs were made differently (seed, filter,
	// declared choices, assumed deviations, manifest): each can explain
	// some of the changes below.
	Notes []string `json:"notes,omitempty"`
	// Checks are the checks that changed, grouped by kind (Kinds order),
	// each group in the new report's order, then the old one's.
	Checks []Check `json:"checks"`
	// Clauses are the clauses whose failing checks changed, in SPEC.md
	// order.
	Clauses   []Clause  `json:"clauses"`
	Unchanged Unchanged `json:"unchanged"`
	// Regressions counts the checks of kind New.
	Regressions int `json:"regressions"`
}

// Side describes one report.
type Side struct {
	File           string `json:"file"`
	Implementation string `json:"implementation"`
	Verdict        string `json:"verdict"`
	Checks         int    `json:"checks"`
	Failing        int    `json:"failing"`
}

// Check is one check that changed.
type Check struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Change is one of New, Changed, Fixed, OneSided.
	Change string `json:"change"`
	// Old and New are its outcome in each report; nil where it is absent.
	Old *Outcome `json:"old"`
	New *Outcome `json:"new"`
	// ReasonChanged and ClausesChanged say what changed of a check that
	// fails in both.
	ReasonChanged  bool `json:"reasonChanged,omitempty"`
	ClausesChanged bool `json:"clausesChanged,omitempty"`
}

// Outcome is a check's result in one report.
type Outcome struct {
	Status string `json:"status"`
	// Clauses are the clauses a failure counts under (the attributed
	// ones when the report knows them); empty unless the check fails.
	Clauses []string `json:"clauses,omitempty"`
	// Reason is the report's message without what the expected-failure
	// manifest added to it, and with a counterexample named by its file
	// name, so that a change of manifest or of counterexample directory
	// is not a change of reason.
	Reason string `json:"reason,omitempty"`
}

// Fails reports whether the implementation failed the check.
func (o *Outcome) Fails() bool {
	return o != nil && (o.Status == report.Failed || o.Status == report.ExpectedFailed)
}

// Passes reports whether the implementation passed the check.
func (o *Outcome) Passes() bool {
	return o != nil && (o.Status == report.Passed || o.Status == report.UnexpectedPass)
}

// Clause is a clause whose failing checks changed.
type Clause struct {
	Clause string `json:"clause"`
	// Old and New count the checks failing under the clause.
	Old int `json:"old"`
	New int `json:"new"`
	// NowFailing fail under the clause in the new report only;
	// NoLongerFailing in the old one only.
	NowFailing      []string `json:"nowFailing,omitempty"`
	NoLongerFailing []string `json:"noLongerFailing,omitempty"`
}

// Unchanged counts the checks in both reports with the same result.
type Unchanged struct {
	Passing   int `json:"passing"`
	Failing   int `json:"failing"`
	NotJudged int `json:"notJudged"`
}

// MismatchError says that two reports cannot be compared: reports of
// different commands or suite versions, or with no check in common.
type MismatchError struct{ Reason string }

func (e *MismatchError) Error() string { return "the reports cannot be compared: " + e.Reason }

// Read reads a plankit JSON report (of `plankit check` or `plankit diff`)
// of at most limit bytes. An unreadable file, one that is not a plankit
// report, and one whose checks are ambiguous (an ID twice, a status plankit
// does not write) are errors naming the file.
func Read(file string, limit int64) (report.Run, error) {
	data, err := inputlimit.ReadFile(file, limit)
	if err != nil {
		return report.Run{}, err
	}
	return Parse(file, data)
}

// Parse reads the plankit JSON report data, named file in errors.
func Parse(file string, data []byte) (report.Run, error) {
	var run report.Run
	if err := json.Unmarshal(data, &run); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line := 1 + strings.Count(string(data[:min(int(syn.Offset), len(data))]), "\n")
			return run, fmt.Errorf("%s:%d: not a plankit JSON report: %v", file, line, err)
		}
		return run, fmt.Errorf("%s: not a plankit JSON report: %v", file, err)
	}
	switch {
	case run.Suite == "":
		return run, fmt.Errorf("%s: not a plankit JSON report: no suite (write one with plankit check --json or plankit diff --json)", file)
	case run.SuiteVersion == "":
		return run, fmt.Errorf("%s: no suiteVersion", file)
	case run.Verdict == "":
		return run, fmt.Errorf("%s: no verdict", file)
	}
	seen := map[string]bool{}
	for i, c := range run.Cases {
		switch {
		case c.ID == "":
			return run, fmt.Errorf("%s: cases[%d]: no id", file, i)
		case seen[c.ID]:
			return run, fmt.Errorf("%s: cases[%d]: check %q is listed twice", file, i, c.ID)
		case !knownStatus(c.Status):
			return run, fmt.Errorf("%s: cases[%d] (%s): unknown status %q", file, i, c.ID, c.Status)
		}
		seen[c.ID] = true
	}
	return run, nil
}

func knownStatus(s string) bool {
	switch s {
	case report.Passed, report.Failed, report.ExpectedFailed, report.UnexpectedPass, report.Skipped, report.Errored, report.NotRun:
		return true
	}
	return false
}

// Reports compares the report old (read from oldFile) with new (newFile).
// Reports of different commands (check, diff) or suite versions, and two
// reports with checks but none in common, are a *MismatchError.
func Reports(oldFile string, old report.Run, newFile string, new report.Run) (Comparison, error) {
	switch {
	case old.Suite != new.Suite:
		return Comparison{}, &MismatchError{fmt.Sprintf("%s is a report of suite %q, %s of suite %q: compare two reports of the same command (plankit check, plankit diff)", oldFile, old.Suite, newFile, new.Suite)}
	case old.SuiteVersion != new.SuiteVersion:
		return Comparison{}, &MismatchError{fmt.Sprintf("different suite versions: %s was made by suite %s, %s by suite %s; their checks and clauses differ, so run both implementations with the same plankit and compare those reports", oldFile, old.SuiteVersion, newFile, new.SuiteVersion)}
	}
	oldCases := map[string]report.Case{}
	for _, c := range old.Cases {
		oldCases[c.ID] = c
	}
	common := false
	for _, c := range new.Cases {
		if _, ok := oldCases[c.ID]; ok {
			common = true
			break
		}
	}
	if !common && len(old.Cases) > 0 && len(new.Cases) > 0 {
		return Comparison{}, &MismatchError{fmt.Sprintf("%s and %s have no check in common (reports of different levels?)", oldFile, newFile)}
	}

	cmp := Comparison{
		Suite: new.Suite, SuiteVersion: new.SuiteVersion,
		Old: side(oldFile, old), New: side(newFile, new),
		Notes: notes(old, new), Checks: []Check{}, Clauses: []Clause{},
	}
	var checks []Check
	newIDs := map[string]bool{}
	for _, c := range new.Cases {
		newIDs[c.ID] = true
		o, had := oldCases[c.ID]
		var before *Outcome
		if had {
			before = outcome(o)
		}
		checks = append(checks, Check{ID: c.ID, Kind: c.Kind, Name: c.Name, Old: before, New: outcome(c)})
	}
	for _, c := range old.Cases {
		if !newIDs[c.ID] {
			checks = append(checks, Check{ID: c.ID, Kind: c.Kind, Name: c.Name, Old: outcome(c)})
		}
	}
	for _, c := range checks {
		if !classify(&c, &cmp.Unchanged) {
			continue
		}
		if c.Change == New {
			cmp.Regressions++
		}
		cmp.Checks = append(cmp.Checks, c)
	}
	slices.SortStableFunc(cmp.Checks, func(a, b Check) int {
		return slices.Index(Kinds, a.Change) - slices.Index(Kinds, b.Change)
	})
	cmp.Clauses = clauses(checks)
	return cmp, nil
}

// classify sets c.Change and reports whether c changed; an unchanged check
// is counted in u.
func classify(c *Check, u *Unchanged) bool {
	o, n := c.Old, c.New
	switch {
	case n.Fails() && !o.Fails():
		c.Change = New
	case o.Fails() && n.Passes():
		c.Change = Fixed
	case o.Fails() && n.Fails():
		c.ReasonChanged = o.Reason != n.Reason
		c.ClausesChanged = !slices.Equal(o.Clauses, n.Clauses)
		if !c.ReasonChanged && !c.ClausesChanged {
			u.Failing++
			return false
		}
		c.Change = Changed
	case o.Passes() && n.Passes():
		u.Passing++
		return false
	case o != nil && n != nil && !o.Passes() && !o.Fails() && !n.Passes() && !n.Fails() && o.Status == n.Status:
		u.NotJudged++
		return false
	default:
		c.Change = OneSided
	}
	return true
}

func outcome(c report.Case) *Outcome {
	o := &Outcome{Status: c.Status, Reason: Reason(c)}
	if o.Fails() {
		o.Clauses = slices.Clone(c.FailedClauses())
		slices.SortFunc(o.Clauses, report.CompareClauses)
	}
	return o
}

// Reason is a case's message without the note the expected-failure
// manifest added to it (report.Manifest.Apply: "MESSAGE [expected by
// FILE:LINE: REASON]", or "expected-failure entry … expired on DATE:
// MESSAGE"), and with its counterexample named by its file name only.
func Reason(c report.Case) string {
	msg := c.Message
	if c.Status == report.ExpectedFailed {
		if i := strings.LastIndex(msg, " [expected by "); i >= 0 && strings.HasSuffix(msg, "]") {
			msg = msg[:i]
		}
	}
	if rest, ok := strings.CutPrefix(msg, "expected-failure entry "); ok && c.Status == report.Failed {
		if _, after, ok := strings.Cut(rest, ") expired on "); ok && len(after) > len("YYYY-MM-DD: ") {
			msg = after[len("YYYY-MM-DD: "):]
		}
	}
	if c.Counterexample != "" {
		msg = strings.ReplaceAll(msg, c.Counterexample, path.Base(c.Counterexample))
	}
	return msg
}

func side(file string, r report.Run) Side {
	s := Side{File: file, Implementation: strings.TrimSpace(r.Implementation.Name + " " + r.Implementation.Version), Verdict: r.Verdict, Checks: len(r.Cases)}
	for _, c := range r.Cases {
		if outcome(c).Fails() {
			s.Failing++
		}
	}
	return s
}

// notes names what differs in how the two runs were made.
func notes(old, new report.Run) []string {
	var out []string
	differ := func(what, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s: %s → %s", what, orNone(a), orNone(b)))
		}
	}
	differ("seed", fmt.Sprint(old.Seed), fmt.Sprint(new.Seed))
	differ("filter", old.Filter, new.Filter)
	differ("manifest", old.Manifest, new.Manifest)
	differ("assumed deviations", strings.Join(old.Assume, " "), strings.Join(new.Assume, " "))
	names := map[string]bool{}
	for k := range old.Implementation.Choices {
		names[k] = true
	}
	for k := range new.Implementation.Choices {
		names[k] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		differ("choice "+k, old.Implementation.Choices[k], new.Implementation.Choices[k])
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// clauses lists, per clause, the checks failing under it in one report
// only.
func clauses(checks []Check) []Clause {
	rows := map[string]*Clause{}
	row := func(id string) *Clause {
		if rows[id] == nil {
			rows[id] = &Clause{Clause: id}
		}
		return rows[id]
	}
	for _, c := range checks {
		var was, is []string
		if c.Old.Fails() {
			was = c.Old.Clauses
		}
		if c.New.Fails() {
			is = c.New.Clauses
		}
		for _, id := range was {
			row(id).Old++
			if !slices.Contains(is, id) {
				row(id).NoLongerFailing = append(row(id).NoLongerFailing, c.ID)
			}
		}
		for _, id := range is {
			row(id).New++
			if !slices.Contains(was, id) {
				row(id).NowFailing = append(row(id).NowFailing, c.ID)
			}
		}
	}
	out := []Clause{}
	for _, r := range rows {
		if len(r.NowFailing) > 0 || len(r.NoLongerFailing) > 0 {
			out = append(out, *r)
		}
	}
	slices.SortFunc(out, func(a, b Clause) int {
		if c := report.CompareClauses(a.Clause, b.Clause); c != 0 {
			return c
		}
		return strings.Compare(a.Clause, b.Clause)
	})
	return out
}
