// Package coverage relates the specification's clauses to the checks that
// cite them, in both directions: every clause must be stated by at least
// one scenario (features/*.feature) and at least one property (package
// properties), and every check must cite only clauses that exist.
//
// Compute is a pure function over the clause IDs and the checks; where the
// checks come from (Gherkin tags, the property registry) is the caller's
// business. ScenariosFromFeatures reads the scenario checks from .feature
// files.
package coverage

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Check is one scenario or property and the clauses it cites.
type Check struct {
	// ID is the check's stable ID: a scenario's @id: tag, a property's name.
	ID string `json:"id"`
	// Name is the human title (a scenario's name); may equal ID.
	Name    string   `json:"name,omitempty"`
	Clauses []string `json:"clauses"`
	// Choices are the silent-point choices the check depends on, as
	// name=value.
	Choices []string `json:"choices,omitempty"`
	// Where locates the check (file:line), for messages.
	Where string `json:"where,omitempty"`
}

// Kinds of check.
const (
	Scenario = "scenario"
	Property = "property"
	// Runtime is a runtime-level check (a loop/suite/*.feature scenario or
	// a runtime property): the clause seen from outside a whole runtime.
	Runtime = "runtime check"
)

// Row is one clause and the checks that cite it.
type Row struct {
	Clause     string   `json:"clause"`
	Scenarios  []string `json:"scenarios"`
	Properties []string `json:"properties"`
	// Runtime are the runtime-level checks citing the clause, when they
	// were added (AddRuntime).
	Runtime []string `json:"runtime,omitempty"`
	// RuntimeGaps are the parts of the clause a runtime cannot show, with
	// why (AddRuntimeGaps).
	RuntimeGaps []Gap `json:"runtimeGaps,omitempty"`
}

// Gap is a part of a clause the runtime level cannot check, and why; an
// empty Part is the whole clause.
type Gap struct {
	Clause string `json:"clause"`
	Part   string `json:"part,omitempty"`
	Why    string `json:"why"`
}

// MinScenarios is the one coverage threshold: how many scenarios at each
// level (features/*.feature, loop/suite/*.feature) a clause needs at the
// least, unless a runtime gap says a runtime cannot show it. The coverage
// check, the recipe test and the features test read it here.
const MinScenarios = 1

// Problem kinds.
const (
	NoScenario    = "no-scenario"    // a clause fewer than MinScenarios scenarios cite
	NoProperty    = "no-property"    // a clause no property cites
	UnknownClause = "unknown-clause" // a check cites a clause that does not exist
	NoClause      = "no-clause"      // a check cites no clause at all
	DuplicateID   = "duplicate-id"   // two checks of one kind share an ID
	NoID          = "no-id"          // a check has no stable ID
	UnknownChoice = "unknown-choice" // a check depends on a choice or value that does not exist
	// NoRuntimeCheck: no runtime check cites a clause, and no runtime gap
	// says the whole clause is out of a runtime's reach.
	NoRuntimeCheck = "no-runtime-check"
	// WholeGapChecked: a runtime gap says the whole clause is out of reach,
	// yet a runtime check cites it.
	WholeGapChecked = "whole-gap-checked"
)

// Problem is one way coverage fails.
type Problem struct {
	Kind   string `json:"kind"`
	Clause string `json:"clause,omitempty"`
	// Check and CheckKind name the offending check, for problems of checks.
	Check string `json:"check,omitempty"`
	// Choice is the offending name=value of an unknown-choice problem.
	Choice    string `json:"choice,omitempty"`
	CheckKind string `json:"checkKind,omitempty"`
	Where     string `json:"where,omitempty"`
}

func (p Problem) String() string {
	where := ""
	if p.Where != "" {
		where = p.Where + ": "
	}
	switch p.Kind {
	case NoScenario:
		if MinScenarios > 1 {
			return fmt.Sprintf("%s: fewer than %d scenarios cite it", p.Clause, MinScenarios)
		}
		return fmt.Sprintf("%s: no scenario cites it", p.Clause)
	case NoProperty:
		return fmt.Sprintf("%s: no property cites it", p.Clause)
	case UnknownClause:
		return fmt.Sprintf("%s%s %s cites unknown clause %s", where, p.CheckKind, p.Check, p.Clause)
	case NoClause:
		return fmt.Sprintf("%s%s %s cites no clause", where, p.CheckKind, p.Check)
	case UnknownChoice:
		return fmt.Sprintf("%s%s %s depends on unknown choice %s", where, p.CheckKind, p.Check, p.Choice)
	case NoID:
		return fmt.Sprintf("%s%s %q has no stable ID (tag it @id:...)", where, p.CheckKind, p.Check)
	case DuplicateID:
		return fmt.Sprintf("%s%s ID %s is used more than once", where, p.CheckKind, p.Check)
	case NoRuntimeCheck:
		return fmt.Sprintf("%s: no runtime check cites it, and no runtime gap says why a runtime cannot show it", p.Clause)
	case WholeGapChecked:
		return fmt.Sprintf("%s: a runtime gap says a runtime cannot show it, yet runtime checks cite it", p.Clause)
	}
	return p.Kind
}

// Matrix is the clause × {scenarios, properties, runtime checks}
// coverage and its problems.
type Matrix struct {
	Rows     []Row     `json:"rows"`
	Problems []Problem `json:"problems"`
	// Scenarios and Properties count the checks given.
	Scenarios  int `json:"scenarios"`
	Properties int `json:"properties"`
	// RuntimeScenarios counts the runtime-level checks added (scenarios
	// and properties); the runtime column is shown only when some were.
	RuntimeScenarios int `json:"runtimeScenarios,omitempty"`
}

// AddRuntime adds the runtime-level checks as a third column. A runtime
// check without a stable ID, citing no clause or an unknown one, or sharing
// an ID with another is a problem; they come after the others. Whether a
// clause no runtime check cites is a problem is AddRuntimeGaps' to say.
func (m *Matrix) AddRuntime(checks []Check) {
	m.RuntimeScenarios += len(checks)
	seen := map[string]bool{} // the IDs added before count too
	for i := range m.Rows {
		if m.Rows[i].Runtime == nil {
			m.Rows[i].Runtime = []string{}
		}
		for _, id := range m.Rows[i].Runtime {
			seen[id] = true
		}
	}
	m.cite(Runtime, checks, seen, func(r *Row) *[]string { return &r.Runtime })
}

// AddRuntimeGaps records, clause by clause, what the runtime level cannot
// check and why, after AddRuntime. A clause with no runtime check needs a
// gap for the whole clause (no Part); a whole-clause gap on a clause runtime
// checks cite, or a gap on an unknown clause, is a problem.
func (m *Matrix) AddRuntimeGaps(gaps []Gap) {
	index := map[string]int{}
	for i, r := range m.Rows {
		index[r.Clause] = i
	}
	for _, g := range gaps {
		i, ok := index[g.Clause]
		if !ok {
			m.Problems = append(m.Problems, Problem{Kind: UnknownClause, Clause: g.Clause, Check: g.Part, CheckKind: "runtime gap"})
			continue
		}
		m.Rows[i].RuntimeGaps = append(m.Rows[i].RuntimeGaps, g)
	}
	for _, r := range m.Rows {
		whole := slices.ContainsFunc(r.RuntimeGaps, func(g Gap) bool { return g.Part == "" })
		switch {
		case len(r.Runtime) < MinScenarios && !whole:
			m.Problems = append(m.Problems, Problem{Kind: NoRuntimeCheck, Clause: r.Clause})
		case len(r.Runtime) > 0 && whole:
			m.Problems = append(m.Problems, Problem{Kind: WholeGapChecked, Clause: r.Clause})
		}
	}
}

// gaps lists the runtime gaps of the rows, one line each.
func (m Matrix) gaps() []string {
	var out []string
	for _, r := range m.Rows {
		for _, g := range r.RuntimeGaps {
			part := g.Part
			if part == "" {
				part = "the whole clause"
			}
			out = append(out, fmt.Sprintf("%s: %s — %s", g.Clause, part, g.Why))
		}
	}
	return out
}

// cite adds each of checks (of one kind) to the column of every clause it
// cites, sorted and without repeats, and records the problems of each
// check: no ID, an ID in seen (the IDs used so far), no clause, a clause
// not in the matrix.
func (m *Matrix) cite(kind string, checks []Check, seen map[string]bool, column func(*Row) *[]string) {
	index := map[string]int{}
	for i, r := range m.Rows {
		index[r.Clause] = i
	}
	for _, ch := range checks {
		if ch.ID == "" {
			m.Problems = append(m.Problems, Problem{Kind: NoID, Check: ch.Name, CheckKind: kind, Where: ch.Where})
			ch.ID = ch.Where
		}
		if seen[ch.ID] {
			m.Problems = append(m.Problems, Problem{Kind: DuplicateID, Check: ch.ID, CheckKind: kind, Where: ch.Where})
		}
		seen[ch.ID] = true
		if len(ch.Clauses) == 0 {
			m.Problems = append(m.Problems, Problem{Kind: NoClause, Check: ch.ID, CheckKind: kind, Where: ch.Where})
		}
		cited := map[string]bool{}
		for _, c := range ch.Clauses {
			if cited[c] {
				continue
			}
			cited[c] = true
			i, ok := index[c]
			if !ok {
				m.Problems = append(m.Problems, Problem{Kind: UnknownClause, Clause: c, Check: ch.ID, CheckKind: kind, Where: ch.Where})
				continue
			}
			col := column(&m.Rows[i])
			*col = append(*col, ch.ID)
		}
	}
	for i := range m.Rows {
		col := column(&m.Rows[i])
		slices.Sort(*col)
		*col = slices.Compact(*col)
	}
}

// OK reports whether coverage holds in both directions.
func (m Matrix) OK() bool { return len(m.Problems) == 0 }

// Choices are the silent-point choices checks may depend on: each name
// with its accepted values.
type Choices map[string][]string

// ComputeWithChoices is Compute, also reporting checks that depend on a
// choice name or value not in choices (a misspelt @choice: tag would
// otherwise make a check silently run, or skip, for every implementation).
// Choice problems come first, in check order.
func ComputeWithChoices(clauses []string, choices Choices, scenarios, properties []Check) Matrix {
	m := Compute(clauses, scenarios, properties)
	var extra []Problem
	for _, set := range []struct {
		kind   string
		checks []Check
	}{{Scenario, scenarios}, {Property, properties}} {
		for _, ch := range set.checks {
			id := ch.ID
			if id == "" {
				id = strconv.Quote(ch.Name)
			}
			for _, c := range ch.Choices {
				name, value, ok := strings.Cut(c, "=")
				if !ok || !slices.Contains(choices[name], value) {
					extra = append(extra, Problem{Kind: UnknownChoice, Choice: c, Check: id, CheckKind: set.kind, Where: ch.Where})
				}
			}
		}
	}
	m.Problems = append(extra, m.Problems...)
	return m
}

// Compute builds the matrix for clauses (in their order) from the scenario
// and property checks. Rows list the check IDs citing each clause, sorted;
// problems come in a fixed order: per-check problems in input order, then
// uncovered clauses in clause order.
func Compute(clauses []string, scenarios, properties []Check) Matrix {
	m := Matrix{Problems: []Problem{}, Scenarios: len(scenarios), Properties: len(properties)}
	index := map[string]int{}
	for _, c := range clauses {
		if _, dup := index[c]; dup {
			continue
		}
		index[c] = len(m.Rows)
		m.Rows = append(m.Rows, Row{Clause: c, Scenarios: []string{}, Properties: []string{}})
	}
	m.cite(Scenario, scenarios, map[string]bool{}, func(r *Row) *[]string { return &r.Scenarios })
	m.cite(Property, properties, map[string]bool{}, func(r *Row) *[]string { return &r.Properties })
	for _, r := range m.Rows {
		if len(r.Scenarios) < MinScenarios {
			m.Problems = append(m.Problems, Problem{Kind: NoScenario, Clause: r.Clause})
		}
		if len(r.Properties) == 0 {
			m.Problems = append(m.Problems, Problem{Kind: NoProperty, Clause: r.Clause})
		}
	}
	return m
}

// WriteText writes the matrix as a table (clause, scenario count,
// property count, the IDs) followed by the problems and the verdict.
func (m Matrix) WriteText(w io.Writer) error {
	var b strings.Builder
	width := len("clause")
	for _, r := range m.Rows {
		width = max(width, len(r.Clause))
	}
	rt := m.RuntimeScenarios > 0
	if rt {
		fmt.Fprintf(&b, "%-*s  %9s  %10s  %7s  checks\n", width, "clause", "scenarios", "properties", "runtime")
	} else {
		fmt.Fprintf(&b, "%-*s  %9s  %10s  checks\n", width, "clause", "scenarios", "properties")
	}
	for _, r := range m.Rows {
		ids := append(slices.Clone(r.Scenarios), r.Properties...)
		line := fmt.Sprintf("%-*s  %9d  %10d  %s", width, r.Clause, len(r.Scenarios), len(r.Properties), strings.Join(ids, " "))
		if rt {
			ids = append(ids, r.Runtime...)
			line = fmt.Sprintf("%-*s  %9d  %10d  %7d  %s", width, r.Clause, len(r.Scenarios), len(r.Properties), len(r.Runtime), strings.Join(ids, " "))
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	b.WriteString("\n")
	if gaps := m.gaps(); len(gaps) > 0 {
		b.WriteString("What a runtime cannot show (the runtime level's gaps):\n")
		for _, g := range gaps {
			b.WriteString("  " + g + "\n")
		}
		b.WriteString("\n")
	}
	for _, p := range m.Problems {
		b.WriteString("FAIL " + p.String() + "\n")
	}
	verdict := "PASS"
	if !m.OK() {
		verdict = "FAIL"
	}
	if rt {
		fmt.Fprintf(&b, "%s %d clauses, %d scenarios, %d properties, %d runtime checks, %d problems\n", verdict, len(m.Rows), m.Scenarios, m.Properties, m.RuntimeScenarios, len(m.Problems))
	} else {
		fmt.Fprintf(&b, "%s %d clauses, %d scenarios, %d properties, %d problems\n", verdict, len(m.Rows), m.Scenarios, m.Properties, len(m.Problems))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the matrix as a Markdown table and problem list.
func (m Matrix) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	rt := m.RuntimeScenarios > 0
	if rt {
		b.WriteString("| Clause | Scenarios | Properties | Runtime checks |\n|---|---|---|---|\n")
	} else {
		b.WriteString("| Clause | Scenarios | Properties |\n|---|---|---|\n")
	}
	code := func(ids []string) string {
		if len(ids) == 0 {
			return "—"
		}
		q := make([]string, len(ids))
		for i, id := range ids {
			q[i] = "`" + id + "`"
		}
		return strings.Join(q, "<br>")
	}
	for _, r := range m.Rows {
		if rt {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.Clause, code(r.Scenarios), code(r.Properties), code(r.Runtime))
		} else {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", r.Clause, code(r.Scenarios), code(r.Properties))
		}
	}
	if gaps := m.gaps(); len(gaps) > 0 {
		b.WriteString("\nWhat a runtime cannot show (the runtime level's gaps):\n\n")
		for _, g := range gaps {
			b.WriteString("- " + g + "\n")
		}
	}
	if len(m.Problems) > 0 {
		b.WriteString("\nProblems:\n\n")
		for _, p := range m.Problems {
			b.WriteString("- " + p.String() + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the matrix as indented JSON.
func (m Matrix) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}
