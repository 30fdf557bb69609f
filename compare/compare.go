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
// check that fails in the new report and did not fail in the old one, or
// one the new report could not judge because the implementation could
// not be run (error) or the run was cut short (not-run), unless
// Options.AllowUnjudged: a release that does not start must not pass a
// gate built on the comparison.
//
// Reports are outside input: Read takes only a regular file or standard
// input, refuses invalid UTF-8 (and JSON escapes of half a surrogate
// pair) at its line and column, since decoding would replace it, and every
// text from a report is escaped where it is printed (safetext).
package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/plankit/plankit/internal/inputlimit"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/report"
)

// Kinds of change of a check, in the order a comparison lists them.
const (
	// New: the check fails in the new report and did not in the old one
	// (it passed, was not judged, or was not there): a regression.
	New = "new"
	// Unjudged: the new report could not judge the check (error: the
	// implementation could not be run; not-run: the run was cut short),
	// whatever the old one says: a regression unless
	// Options.AllowUnjudged, under which such a check is OneSided or
	// unchanged.
	Unjudged = "unjudged"
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
var Kinds = []string{New, Unjudged, Changed, Fixed, OneSided}

// Options change what counts as a regression.
type Options struct {
	// AllowUnjudged: a check the new report could not judge (error,
	// not-run) is no regression.
	AllowUnjudged bool
}

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
	// Regressions counts the checks of kind New and Unjudged.
	Regressions int `json:"regressions"`
	// Unjudged counts the checks of kind Unjudged.
	Unjudged int `json:"unjudged"`
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
	// Change is one of Kinds.
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

// Stdin is the file name that stands for standard input.
const Stdin = "-"

// Read reads a plankit JSON report (of `plankit check` or `plankit diff`)
// of at most limit bytes from file, a regular file, or from stdin when
// file is Stdin. Anything else (a directory, a FIFO, a device) is refused
// before it is read, so that compare cannot wait forever on it. An
// unreadable file, one that is not a plankit report, and one whose checks
// are ambiguous (an ID twice, a status plankit does not write) are errors
// naming the file.
func Read(file string, stdin io.Reader, limit int64) (report.Run, error) {
	var data []byte
	var err error
	if file == Stdin {
		data, err = inputlimit.Read("standard input", stdin, limit)
	} else {
		data, err = readRegular(file, limit)
	}
	if err != nil {
		return report.Run{}, err
	}
	return Parse(file, data)
}

// readRegular reads file if it is a regular file (a symbolic link to one
// is followed).
func readRegular(file string, limit int64) ([]byte, error) {
	fi, err := os.Stat(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the name is said once, escaped
		}
		return nil, fmt.Errorf("%s: %v", name(file), err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s); compare reads regular files, or standard input named %s", name(file), kindOf(fi.Mode()), Stdin)
	}
	data, err := inputlimit.ReadFile(file, limit)
	var tl *inputlimit.TooLargeError
	if errors.As(err, &tl) {
		tl.File = name(file)
	}
	return data, err
}

func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// name is a report's file name as errors and outputs show it: outside
// text, quoted unless plain.
func name(file string) string {
	if file == Stdin {
		return "standard input"
	}
	return safetext.Quote(file)
}

// Parse reads the plankit JSON report data, named file in errors. Text
// that is not UTF-8, or a JSON escape of half a surrogate pair, is refused
// at its line and column: decoding would replace it with U+FFFD.
func Parse(file string, data []byte) (report.Run, error) {
	var run report.Run
	if line, col, ok := inputlimit.InvalidUTF8(data); !ok {
		return run, fmt.Errorf("%s:%d:%d: %s", name(file), line, col, inputlimit.UTF8Message)
	}
	if off := loneSurrogate(data); off >= 0 {
		line, col := position(data, off)
		return run, fmt.Errorf("%s:%d:%d: %s escapes half a UTF-16 surrogate pair, which decoding would replace with U+FFFD", name(file), line, col, data[off:off+6])
	}
	if err := json.Unmarshal(data, &run); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := position(data, min(int(syn.Offset), len(data)))
			return run, fmt.Errorf("%s:%d:%d: not a plankit JSON report: %v", name(file), line, col, err)
		}
		return run, fmt.Errorf("%s: not a plankit JSON report: %v", name(file), err)
	}
	switch {
	case run.Suite == "":
		return run, fmt.Errorf("%s: not a plankit JSON report: no suite (write one with plankit check --json or plankit diff --json)", name(file))
	case run.SuiteVersion == "":
		return run, fmt.Errorf("%s: no suiteVersion", name(file))
	case run.Verdict == "":
		return run, fmt.Errorf("%s: no verdict", name(file))
	}
	seen := map[string]bool{}
	for i, c := range run.Cases {
		switch {
		case c.ID == "":
			return run, fmt.Errorf("%s: cases[%d]: no id", name(file), i)
		case seen[c.ID]:
			return run, fmt.Errorf("%s: cases[%d]: check %q is listed twice", name(file), i, c.ID)
		case !knownStatus(c.Status):
			return run, fmt.Errorf("%s: cases[%d] (%s): unknown status %q", name(file), i, safetext.Quote(c.ID), c.Status)
		}
		seen[c.ID] = true
	}
	return run, nil
}

// position is the line and column (1-based, in bytes) of data[off].
func position(data []byte, off int) (line, col int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(data); i++ {
		if data[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, off - start + 1
}

// loneSurrogate returns the offset of the first \uXXXX escape in a JSON
// string of data that is half a surrogate pair (a high one not followed
// by a low one, or a low one alone), or -1.
func loneSurrogate(data []byte) int {
	in := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			in = !in
		case c == '\\' && in:
			if i+1 < len(data) && data[i+1] == 'u' {
				r, ok := hex4(data, i+2)
				switch {
				case ok && r >= 0xd800 && r < 0xdc00:
					lo, okLo := rune(0), false
					if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
						lo, okLo = hex4(data, i+8)
					}
					if !okLo || lo < 0xdc00 || lo > 0xdfff {
						return i
					}
					i += 11
					continue
				case ok && r >= 0xdc00 && r <= 0xdfff:
					return i
				}
			}
			i++ // the escaped character
		}
	}
	return -1
}

// hex4 reads four hex digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
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
func Reports(oldFile string, old report.Run, newFile string, new report.Run, opts Options) (Comparison, error) {
	switch {
	case old.Suite != new.Suite:
		return Comparison{}, &MismatchError{fmt.Sprintf("%s is a report of suite %q, %s of suite %q: compare two reports of the same command (plankit check, plankit diff)", name(oldFile), old.Suite, name(newFile), new.Suite)}
	case old.SuiteVersion != new.SuiteVersion:
		return Comparison{}, &MismatchError{fmt.Sprintf("different suite versions: %s was made by suite %s, %s by suite %s; their checks and clauses differ, so run both implementations with the same plankit and compare those reports", name(oldFile), safetext.Line(old.SuiteVersion), name(newFile), safetext.Line(new.SuiteVersion))}
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
		return Comparison{}, &MismatchError{fmt.Sprintf("%s and %s have no check in common (reports of different levels?)", name(oldFile), name(newFile))}
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
		if !classify(&c, &cmp.Unchanged, opts) {
			continue
		}
		switch c.Change {
		case New:
			cmp.Regressions++
		case Unjudged:
			cmp.Regressions++
			cmp.Unjudged++
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
func classify(c *Check, u *Unchanged, opts Options) bool {
	o, n := c.Old, c.New
	switch {
	case !opts.AllowUnjudged && n != nil && (n.Status == report.Errored || n.Status == report.NotRun):
		c.Change = Unjudged
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
