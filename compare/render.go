package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/internal/safetext"
)

// Formats are the output formats of a comparison.
var Formats = []string{"text", "markdown", "json"}

// Write renders cmp in format (one of Formats) to w.
func Write(w io.Writer, cmp Comparison, format string) error {
	switch format {
	case "text":
		return Text(w, cmp)
	case "markdown":
		return Markdown(w, cmp)
	case "json":
		b, err := JSON(cmp)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return fmt.Errorf("unknown format %q (one of %s)", format, strings.Join(Formats, ", "))
}

// JSON renders cmp as indented JSON, the reports' text with JSON's own
// escapes for what must not reach an output raw (safetext.Bytes): the
// same data.
func JSON(cmp Comparison) ([]byte, error) {
	b, err := json.MarshalIndent(cmp, "", "  ")
	if err != nil {
		return nil, err
	}
	return safetext.Bytes(append(b, '\n')), nil
}

// headings of each kind of change.
var headings = map[string]string{
	New:      "New failures",
	Unjudged: "Could not run in the new report",
	Changed:  "Still failing, changed",
	Fixed:    "Fixed",
	OneSided: "Ran in one report and not the other",
}

// Text renders cmp for a terminal. Everything read from the reports is
// escaped (safetext): a check ID that heads a line is quoted unless it is
// plain, and a reason follows a label of plankit's.
func Text(w io.Writer, cmp Comparison) error {
	p := &printer{w: w}
	p.f("plankit compare: suite %s %s\n", line(cmp.Suite), line(cmp.SuiteVersion))
	for _, s := range []struct {
		label string
		side  Side
	}{{"old", cmp.Old}, {"new", cmp.New}} {
		p.f("  %s: %s  %s, verdict %s, %d checks, %d failing\n", s.label, name(s.side.File), line(s.side.Implementation), line(s.side.Verdict), s.side.Checks, s.side.Failing)
	}
	for _, n := range cmp.Notes {
		p.f("  differs: %s\n", line(n))
	}
	for _, kind := range Kinds {
		checks := ofKind(cmp.Checks, kind)
		if len(checks) == 0 {
			continue
		}
		p.f("\n%s (%d):\n", headings[kind], len(checks))
		for _, c := range checks {
			p.f("  %s: %s\n", safetext.Quote(c.ID), summary(c, line))
			switch {
			case c.Change == New || c.Change == Unjudged || (c.Change == OneSided && c.New != nil && c.New.Reason != ""):
				p.f("    reason: %s\n", line(c.New.Reason))
			case c.Change == Changed && c.ReasonChanged:
				p.f("    old: %s\n    new: %s\n", line(c.Old.Reason), line(c.New.Reason))
			case c.Change == Fixed || (c.Change == OneSided && c.Old != nil && c.Old.Reason != ""):
				p.f("    was: %s\n", line(c.Old.Reason))
			}
		}
	}
	if len(cmp.Clauses) > 0 {
		p.f("\nClauses whose failing checks changed:\n")
		for _, r := range cmp.Clauses {
			p.f("  %s: %d → %d failing", safetext.Quote(r.Clause), r.Old, r.New)
			if len(r.NowFailing) > 0 {
				p.f("; now failing: %s", line(strings.Join(r.NowFailing, ", ")))
			}
			if len(r.NoLongerFailing) > 0 {
				p.f("; no longer failing: %s", line(strings.Join(r.NoLongerFailing, ", ")))
			}
			p.f("\n")
		}
	}
	u := cmp.Unchanged
	p.f("\nUnchanged: %d passing, %d failing, %d not judged.\n", u.Passing, u.Failing, u.NotJudged)
	p.f("%s\n", Verdict(cmp))
	return p.err
}

// Markdown renders cmp as a Markdown section, for a CI job's summary or a
// release note.
func Markdown(w io.Writer, cmp Comparison) error {
	p := &printer{w: w}
	p.f("## plankit compare: suite %s %s\n\n", md(cmp.Suite), md(cmp.SuiteVersion))
	p.f("| | report | implementation | verdict | checks | failing |\n|---|---|---|---|---|---|\n")
	p.f("| old | %s | %s | %s | %d | %d |\n", code(cmp.Old.File), md(cmp.Old.Implementation), md(cmp.Old.Verdict), cmp.Old.Checks, cmp.Old.Failing)
	p.f("| new | %s | %s | %s | %d | %d |\n", code(cmp.New.File), md(cmp.New.Implementation), md(cmp.New.Verdict), cmp.New.Checks, cmp.New.Failing)
	if len(cmp.Notes) > 0 {
		p.f("\nThe runs differ in:\n\n")
		for _, n := range cmp.Notes {
			p.f("- %s\n", md(n))
		}
	}
	for _, kind := range Kinds {
		checks := ofKind(cmp.Checks, kind)
		if len(checks) == 0 {
			continue
		}
		p.f("\n### %s (%d)\n\n| check | change | reason |\n|---|---|---|\n", headings[kind], len(checks))
		for _, c := range checks {
			reason := ""
			switch {
			case c.Change == Changed && c.ReasonChanged:
				reason = "old: " + md(c.Old.Reason) + "<br>new: " + md(c.New.Reason)
			case c.New != nil && c.New.Reason != "" && c.Change != Fixed:
				reason = md(c.New.Reason)
			case c.Old != nil:
				reason = md(c.Old.Reason)
			}
			p.f("| %s | %s | %s |\n", code(c.ID), summary(c, md), reason)
		}
	}
	if len(cmp.Clauses) > 0 {
		p.f("\n### Clauses whose failing checks changed\n\n| clause | failing | now failing | no longer failing |\n|---|---|---|---|\n")
		for _, r := range cmp.Clauses {
			p.f("| %s | %d → %d | %s | %s |\n", md(r.Clause), r.Old, r.New, codes(r.NowFailing), codes(r.NoLongerFailing))
		}
	}
	u := cmp.Unchanged
	p.f("\nUnchanged: %d passing, %d failing, %d not judged.\n\n**%s**\n", u.Passing, u.Failing, u.NotJudged, Verdict(cmp))
	return p.err
}

// Verdict is the comparison's last line: whether the new report has a
// regression.
func Verdict(cmp Comparison) string {
	failing := cmp.Regressions - cmp.Unjudged
	if cmp.Regressions == 0 {
		return "No regression: every check failing in the new report failed in the old one."
	}
	var parts []string
	if failing > 0 {
		parts = append(parts, fmt.Sprintf("%s in the new report that did not fail in the old one", checks(failing, "fails", "fail")))
	}
	if cmp.Unjudged > 0 {
		parts = append(parts, fmt.Sprintf("%s not be judged in the new report (error or not-run: the implementation could not be run, or the run was cut short; --allow-unjudged accepts that)", checks(cmp.Unjudged, "could", "could")))
	}
	return "Regression: " + strings.Join(parts, "; ") + "."
}

// checks is "1 check VERB" or "N checks VERB".
func checks(n int, one, many string) string {
	if n == 1 {
		return "1 check " + one
	}
	return fmt.Sprintf("%d checks %s", n, many)
}

func ofKind(checks []Check, kind string) []Check {
	var out []Check
	for _, c := range checks {
		if c.Change == kind {
			out = append(out, c)
		}
	}
	return out
}

// summary says in one line how a check's outcome changed: its statuses and,
// for a failure, its clauses, which come from the reports and are escaped
// with esc (line or md).
func summary(c Check, esc func(string) string) string {
	s := state(c.Old, esc) + " → " + state(c.New, esc)
	if c.Change == Changed {
		var what []string
		if c.ClausesChanged {
			what = append(what, "clauses changed")
		}
		if c.ReasonChanged {
			what = append(what, "reason changed")
		}
		s += " (" + strings.Join(what, ", ") + ")"
	}
	return s
}

func state(o *Outcome, esc func(string) string) string {
	switch {
	case o == nil:
		return "absent"
	case len(o.Clauses) > 0:
		return esc(o.Status) + " [" + esc(strings.Join(o.Clauses, " ")) + "]"
	}
	return esc(o.Status)
}

func line(s string) string { return safetext.Line(s) }

// md makes outside text inert Markdown (safetext.Markdown): no link,
// image, HTML or table cell boundary comes of it.
func md(s string) string { return safetext.Markdown(s) }

// code is a check ID or file name in a code span when it is plain, else
// as inert Markdown (a code span would show the escapes raw).
func code(s string) string {
	if safetext.Plain(s) {
		return "`" + s + "`"
	}
	return md(s)
}

func codes(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = code(id)
	}
	return strings.Join(out, ", ")
}

// printer writes formatted text and keeps the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}
