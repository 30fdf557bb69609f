package conformance

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plankit/plankit/internal/generated"
	"github.com/plankit/plankit/report"
)

// Inputs are what the conformance page is generated from, and the paths
// the page names them by.
type Inputs struct {
	Subject        Subject
	Run            report.Run
	RunPath        string
	Notes          Notes
	DeviationsPath string
	Manifest       *report.Manifest
	// Adapter is the --adapter command line the check ran with.
	Adapter string
	// Output is the page's own path, to link repository files relative to it.
	Output string
}

func failing(status string) bool {
	return status == report.Failed || status == report.ExpectedFailed || status == report.UnexpectedPass
}

// check cross-checks the report, the deviations and the manifest: every
// failing check is explained by exactly one deviation and listed in the
// manifest, and every check a deviation names fails in the report.
func check(in Inputs) error {
	var problems []string
	byID := map[string]report.Case{}
	for _, c := range in.Run.Cases {
		byID[c.ID] = c
	}
	explained := map[string]string{}
	for _, d := range in.Notes.Deviations {
		for _, id := range d.Checks {
			explained[id] = d.ID
			c, ok := byID[id]
			switch {
			case !ok && in.Run.Filter == "":
				problems = append(problems, fmt.Sprintf("deviation %q names check %q, which the report %s does not contain: remove it", d.ID, id, in.RunPath))
			case ok && !failing(c.Status):
				problems = append(problems, fmt.Sprintf("deviation %q names check %q, which is %s in %s: remove it", d.ID, id, c.Status, in.RunPath))
			}
		}
	}
	for _, c := range in.Run.Cases {
		if failing(c.Status) {
			if _, ok := explained[c.ID]; !ok {
				problems = append(problems, fmt.Sprintf("check %q is %s in %s but no deviation in %s explains it", c.ID, c.Status, in.RunPath, in.DeviationsPath))
			}
		}
	}
	declared := in.Run.Implementation.Choices
	for name, value := range declared {
		text, ok := in.Notes.Choices[name]
		v, _, _ := strings.Cut(text, ":")
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("the package declares %s=%s but %s does not say where it makes that choice", name, value, in.DeviationsPath))
		case strings.TrimSpace(v) != value:
			problems = append(problems, fmt.Sprintf("%s explains %s as %q but the package declares %s", in.DeviationsPath, name, strings.TrimSpace(v), value))
		}
	}
	for name := range in.Notes.Choices {
		if _, ok := declared[name]; !ok {
			problems = append(problems, fmt.Sprintf("%s explains choice %s, which the package does not declare", in.DeviationsPath, name))
		}
	}
	sort.Strings(problems)
	if in.Manifest != nil {
		for _, e := range in.Manifest.Entries {
			if e.Kind == "id" {
				if _, ok := explained[e.Key]; !ok {
					problems = append(problems, fmt.Sprintf("%s:%d: %s is not a check of any deviation in %s", in.Manifest.Path, e.Line, e.Target(), in.DeviationsPath))
				}
			}
		}
		for _, d := range in.Notes.Deviations {
			for _, id := range d.Checks {
				if !listed(in.Manifest, id, byID[id].Clauses) {
					problems = append(problems, fmt.Sprintf("check %q of deviation %q is not listed in %s", id, d.ID, in.Manifest.Path))
				}
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the conformance page would be wrong:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

func listed(m *report.Manifest, id string, clauses []string) bool {
	for _, e := range m.Entries {
		if (e.Kind == "id" && e.Key == id) || (e.Kind == "clause" && slices.Contains(clauses, e.Key)) {
			return true
		}
	}
	return false
}

// render writes the conformance page: a summary, the per-clause table, every
// deviation with its clause, trace, classification and reasoning, and the
// skipped checks.
// undetected marks a clause whose write-up names a deviation the run's
// checks did not find (a test holds that no published page has one).
const undetected = "(deviation not detected by the suite)"

func render(in Inputs) ([]byte, error) {
	if err := check(in); err != nil {
		return nil, err
	}
	run := in.Run
	id := run.Implementation
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	b.WriteString(generated.MarkdownNote)
	p("# Conformance of %s %s\n\n", id.Name, id.Version)
	p("<!-- Rendered from %s, %s and the manifest; refresh it as below. -->\n\n", in.RunPath, in.DeviationsPath)
	if in.Subject.Level == "runtime" {
		p("This page says how the published runtime `%s@%s` — its loop and plan mode together — conforms to the clauses of SPEC.md, ", id.Name, id.Version)
	} else {
		p("This page says how the published npm package `%s@%s` conforms to the clauses of SPEC.md, ", id.Name, id.Version)
	}
	kinds := map[string]int{}
	for _, c := range run.Cases {
		kinds[c.Kind]++
	}
	p("as checked by `plankit check` (suite version %s, seed %d: %d scenarios and %d properties", run.SuiteVersion, run.Seed, kinds[report.KindScenario], kinds[report.KindProperty])
	if kinds[report.KindProperty] == 0 {
		p(", the properties not being part of this run")
	}
	p(") %s. Refresh it with:\n\n", in.Subject.What)
	p("```sh\n%s\n", in.Subject.Install)
	p("go run ./cmd/plankit check %s\n", shellLine(in.refreshArgs()))
	p("%s\n```\n\n", generated.Regenerate)
	if len(run.Assume) > 0 {
		p("The properties ran with the package's known deviations assumed (%s: the manifest's `assume:` lines), so their model predicts those and they check everything else; the scenarios are not affected and list their failures in the manifest ([docs/lockstep.md](../lockstep.md#assumptions-in-check-and-explore)).\n\n", "`"+strings.Join(run.Assume, "`, `")+"`")
	}

	counts := map[string]int{}
	for _, c := range run.Cases {
		counts[c.Status]++
	}
	p("## Summary\n\n")
	p("- Implementation: %s %s (%s)\n", id.Name, id.Version, id.Language)
	if len(id.Components) > 0 {
		parts := make([]string, len(id.Components))
		for i, c := range id.Components {
			parts[i] = fmt.Sprintf("`%s@%s`", c.Name, c.Version)
		}
		p("- Components: %s\n", strings.Join(parts, ", "))
	}
	verdict := run.Verdict
	if in.Manifest != nil {
		verdict += " (with the expected-failure manifest " + "`" + in.Manifest.Path + "`)"
	}
	p("- Verdict: %s\n", verdict)
	p("- Checks: %d — %d passed, %d expected-failed, %d failed, %d unexpected passes, %d skipped\n",
		len(run.Cases), counts[report.Passed], counts[report.ExpectedFailed], counts[report.Failed], counts[report.UnexpectedPass], counts[report.Skipped])
	bugs, silent := 0, 0
	for _, d := range in.Notes.Deviations {
		if d.Kind == KindBug {
			bugs++
		} else {
			silent++
		}
	}
	p("- Deviations: %d — %d implementation bugs, %d readings of silent points\n", len(in.Notes.Deviations), bugs, silent)
	if run.Filter != "" {
		p("- Filter: %s (a partial run)\n", run.Filter)
	}
	if len(id.Choices) > 0 {
		p("\n## Silent points\n\n")
		p("Where SPEC.md is silent, the package's reading is a declared choice, not a deviation: checks asserting another reading are skipped, ")
		p("and the checks of its own reading run. The host declares these at start; %s.\n\n", in.Subject.ChoicesVerified)
		p("| Choice | Declared | Where the package makes it | Checks skipped |\n|---|---|---|---:|\n")
		names := make([]string, 0, len(id.Choices))
		for n := range id.Choices {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			_, why, _ := strings.Cut(in.Notes.Choices[n], ":")
			skippedBy := 0
			for _, c := range run.Cases {
				if c.Status != report.Skipped {
					continue
				}
				for _, ch := range c.Choices {
					if name, _, _ := strings.Cut(ch, "="); name == n {
						skippedBy++
						break
					}
				}
			}
			p("| %s | %s | %s | %d |\n", n, id.Choices[n], cell(why), skippedBy)
		}
	}

	devsOf := map[string][]string{}
	caseClauses := map[string][]string{}
	for _, c := range run.Cases {
		caseClauses[c.ID] = c.FailedClauses()
	}
	addDev := func(clause, dev string) {
		if !slices.Contains(devsOf[clause], dev) {
			devsOf[clause] = append(devsOf[clause], dev)
		}
	}
	for _, d := range in.Notes.Deviations {
		addDev(d.Clause, d.ID)
		for _, c := range d.Checks {
			for _, cl := range caseClauses[c] {
				addDev(cl, d.ID)
			}
		}
	}
	p("\n## Per clause\n\n")
	p("A check tagged with several clauses counts in each when it passes; a failing check counts only under the clauses of its first failing observation (the check's `attributed` clauses in the JSON report; [docs/lockstep.md](../lockstep.md#attribution-the-clauses-of-the-observation)). *Deviates*: an observation of the clause diverged in a check (listed in the manifest, or not); *conforms*: every check of the clause that ran passed; *skipped*: its only checks depend on a choice the package declares otherwise.\n\n")
	p("| Clause | Result | Passed | Failed | Expected-failed | Skipped | Deviations |\n|---|---|---:|---:|---:|---:|---|\n")
	for _, r := range run.Clauses {
		result := "not checked"
		switch {
		case r.Failed+r.ExpectedFailed > 0:
			result = "**deviates**"
		case r.Passed > 0:
			result = "conforms"
		case r.Skipped > 0:
			result = "skipped"
		}
		if r.Failed+r.ExpectedFailed == 0 && len(devsOf[r.Clause]) > 0 {
			result += " " + undetected
		}
		var links []string
		for _, d := range devsOf[r.Clause] {
			links = append(links, fmt.Sprintf("[%s](#%s)", d, d))
		}
		p("| %s | %s | %d | %d | %d | %d | %s |\n", r.Clause, result, r.Passed, r.Failed, r.ExpectedFailed, r.Skipped, strings.Join(links, ", "))
	}

	levelFlag := ""
	if in.Subject.Level != "" {
		levelFlag = " --level " + in.Subject.Level
	}
	p("\n## Deviations\n\n")
	if in.Subject.Level == "runtime" {
		p("Each deviation has a trace in `adapter/dsh-runtime/traces/` whose expectations state the specified behaviour: ")
		p("`plankit sim%s --adapter %q TRACE` exits 1 against the runtime, and `plankit sim%s TRACE` exits 0 against plankit's built-in runtime ", levelFlag, in.Adapter, levelFlag)
		p("(%s).", in.Subject.TracesKept)
		p(" Each also says where it belongs: to the loop (dsh-agent-loop and its services), to the plugin (dsh-plan-mode), or to where the two meet (each does something defensible alone; together they break the clause).\n")
	} else {
		p("Each deviation has a trace in `examples/dsh/` whose expectations state the specified behaviour: ")
		p("`plankit sim --adapter %q TRACE` exits 1 against the package, and `plankit sim TRACE` exits 0 against the reference ", in.Adapter)
		p("(%s).\n", in.Subject.TracesKept)
	}
	byID := map[string]report.Case{}
	for _, c := range run.Cases {
		byID[c.ID] = c
	}
	for _, d := range in.Notes.Deviations {
		p("\n<a id=\"%s\"></a>\n### %s: %s\n\n", d.ID, d.Clause, d.Title)
		class := "implementation bug"
		if d.Kind == KindSilentPoint {
			class = fmt.Sprintf("spec ambiguity (silent point; the package declares `%s`)", d.Choice)
		}
		p("- Clause: %s\n", d.Clause)
		p("- Classification: %s\n", class)
		if d.Belongs != "" {
			p("- Belongs to: %s\n", belongsText[d.Belongs])
		}
		var cs []string
		for _, c := range d.Checks {
			cs = append(cs, fmt.Sprintf("`%s` (%s; %s)", c, byID[c].Status, strings.Join(byID[c].Clauses, ", ")))
		}
		p("- Checks: %s\n", strings.Join(cs, ", "))
		p("- Trace: [`%s`](%s) — `plankit sim%s --adapter %q %s`\n", d.Trace, relative(in.Output, d.Trace), levelFlag, in.Adapter, d.Trace)
		p("- Where: %s\n\n", strings.TrimSpace(d.Where))
		p("%s\n", strings.TrimSpace(d.Reasoning))
	}

	if len(in.Notes.Observations) > 0 {
		p("\n## Observations\n\n")
		p("Differences from plankit's own runtime that are not deviations, and why.\n\n")
		p("| Observation | Clause | Note |\n|---|---|---|\n")
		for _, o := range in.Notes.Observations {
			p("| `%s` | %s | %s |\n", o.ID, o.Clause, cell(o.Note))
		}
	}

	var skipped []report.Case
	for _, c := range run.Cases {
		if c.Status == report.Skipped {
			skipped = append(skipped, c)
		}
	}
	if len(skipped) > 0 {
		p("\n## Skipped checks\n\n")
		p("These checks assert a reading of a silent point that the package does not declare; they are neither passed nor failed.\n\n")
		p("| Check | Clauses | Why skipped |\n|---|---|---|\n")
		for _, c := range skipped {
			p("| `%s` | %s | %s |\n", c.ID, strings.Join(c.Clauses, ", "), cell(c.Message))
		}
	}
	return b.Bytes(), nil
}

// cell makes text fit one markdown table cell.
func cell(text string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(text), " "), "|", "\\|")
}

// relative links a repository path from the page at out (both relative to
// the repository root).
func relative(out, path string) string {
	depth := strings.Count(strings.Trim(out, "/"), "/")
	return strings.Repeat("../", depth) + path
}

// refreshArgs are the arguments after "check" of the command that refreshes
// the report: the subject's level and check flags, the adapter, the
// manifest, the counterexamples and the report. scripts/conformance.sh runs
// the same check (a test holds it).
func (in Inputs) refreshArgs() []string {
	var args []string
	if in.Subject.Level != "" {
		args = append(args, "--level", in.Subject.Level)
	}
	args = append(args, strings.Fields(in.Subject.CheckFlags)...)
	args = append(args, "--adapter", in.Adapter)
	if in.Manifest != nil {
		args = append(args, "--expect", in.Manifest.Path)
	}
	return append(args, "--counterexamples", in.Subject.Counterexamples, "--json", in.RunPath)
}

// shellLine writes args as a shell command line, quoting the words that
// hold a space.
func shellLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.ContainsAny(a, " \t") {
			out[i] = strconv.Quote(a)
		}
	}
	return strings.Join(out, " ")
}
