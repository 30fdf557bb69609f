package main

import (
	"bytes"
	"context"
	"fmt"
	"github.com/plankit/plankit/loop"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/pathcheck"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/internal/workers"
	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/reference"
	"github.com/spf13/cobra"
)

func newMutantsCmd() *cobra.Command {
	var matrix bool
	var out string
	var only []string
	cmd := &cobra.Command{
		Use:   "mutants",
		Short: "List the reference's mutants and variants, or run their kill matrix",
		Long: `mutants lists every mutant of the reference (one deliberate deviation from one
clause of SPEC.md) and every variant (a deviation of a published
implementation that shows only under a silent-point choice): name, clause,
and what it does. Any of them can be run with --mutant NAME or assumed by
plankit diff --assume NAME. It then lists the mutants of the built-in
runtime's own loop (kind loop), which check --level runtime --mutant NAME
runs around the faithful reference (their kill matrix is
docs/mutants-runtime.md).

With --matrix it runs the kill matrix: each mutant against the Gherkin
scenarios, the properties (the first that kills it in catalog order,
seed after seed within their budget: seeds 7 to 11, 100 checks each) and lockstep (plankit diff, seed after seed
from 1 within a budget of random sequences, until a divergence names the
mutant's clause), and prints which checks fail and whether lockstep found
it under its clause. --out writes it as the Markdown page docs/mutants.md.
With --only NAME (repeatable, with --out) it runs the matrix for those
mutants alone and keeps every other row as the page at --out has it: what
adding a mutant needs, in seconds. Exit 1 when some mutant survives a
column or lockstep names no divergence under the mutant's own clause
within the budget.`,
		Example: `  plankit mutants
  plankit mutants --matrix --out docs/mutants.md
  plankit mutants --matrix --only plan-mode-extra-field --out docs/mutants.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			if !matrix {
				if out != "" {
					return usageErr("--out needs --matrix")
				}
				for _, m := range lockstep.Known() {
					kind := "mutant"
					if _, ok := variantChoices(m.Name); ok {
						kind = "variant"
					}
					fmt.Fprintf(w, "%-28s %-7s %-7s %s\n", m.Name, m.Clause, kind, m.What)
				}
				for _, m := range loop.Mutants {
					fmt.Fprintf(w, "%-28s %-7s %-7s %s\n", m.Name, m.Clause, "loop", m.What)
				}
				return nil
			}
			if out != "" {
				// Checked before the matrix runs (minutes), not after.
				if err := pathcheck.OutputFile("--out", out); err != nil {
					return usageErr("%v", err)
				}
			}
			var kept map[reference.Mutant]matrixRow
			if len(only) > 0 {
				if out == "" {
					return usageErr("--only needs --out: the page whose other rows it keeps")
				}
				for _, name := range only {
					if _, err := reference.LookupMutant(name); err != nil {
						return usageErr("--only: %v", err)
					}
				}
				page, err := os.ReadFile(out)
				if err != nil {
					return usageErr("--only: %v", err)
				}
				if kept, err = keptRows(page, only); err != nil {
					return usageErr("--only: %s: %v", safetext.Line(out), err)
				}
			}
			rows, err := killMatrix(cmd.Context(), w, kept)
			if err != nil {
				return err
			}
			page := mutantsPage(rows)
			if out != "" {
				if err := atomicfile.Write(out, page); err != nil {
					return usageErr("%v", err)
				}
				fmt.Fprintf(w, "wrote %s\n", safetext.Line(out))
			} else {
				w.Write(page)
			}
			if n := len(rows) - countOwn(rows); n > 0 {
				return withCode(ExitFail, fmt.Errorf("%d of %d mutants are not killed in every column with their own clause", n, len(rows)))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&matrix, "matrix", false, "run the kill matrix (scenarios, properties, lockstep)")
	cmd.Flags().StringVar(&out, "out", "", "write the matrix as Markdown to `FILE` (docs/mutants.md)")
	cmd.Flags().StringArrayVar(&only, "only", nil, "run the matrix for the mutant `NAME` alone, keeping the other rows of the page at --out (repeatable)")
	return cmd
}

// variantChoices returns the choices a variant needs, if name is a variant.
func variantChoices(name reference.Mutant) (map[string]string, bool) {
	for _, v := range reference.Variants {
		if v.Name == name {
			return v.Choices, true
		}
	}
	return nil, false
}

// matrixRow is what every suite did to one mutant.
type matrixRow struct {
	info reference.MutantInfo
	// choices the mutant runs with (variants only), name=value.
	choices []string
	// own and other: failing scenarios tagged with the mutant's clause, and
	// the number of other failing scenarios.
	own   []string
	other int
	// props are the failing properties.
	props []string
	// lockstep is what does not hold of lockstep's proof
	// (lockstep.MutantProblems; none: found under its clause).
	lockstep []string
}

func (r matrixRow) lockstepOwn() bool { return len(r.lockstep) == 0 }

// killMatrix runs the matrix for every known mutant but those kept, whose
// rows are taken as they are.
func killMatrix(ctx context.Context, progress io.Writer, kept map[reference.Mutant]matrixRow) ([]matrixRow, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	tmp, err := os.MkdirTemp("", "plankit-mutants-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	known := lockstep.Known()
	rows := make([]matrixRow, len(known))
	errs := make([]error, len(known))
	// Mutants are independent: one per CPU, each with its own directory for
	// counterexamples, the rows and the progress lines in catalog order
	// whatever the number of workers.
	err = workers.Run(ctx, workers.Default(), len(known), func(i int) {
		if row, ok := kept[known[i].Name]; ok {
			rows[i] = row
			return
		}
		dir := filepath.Join(tmp, strconv.Itoa(i))
		if errs[i] = os.Mkdir(dir, 0o700); errs[i] == nil {
			rows[i], errs[i] = matrixRowOf(ctx, known[i], dir)
		}
	}, func(i int) bool {
		if errs[i] != nil {
			return false
		}
		row := rows[i]
		if _, ok := kept[row.info.Name]; ok {
			return true
		}
		found := "found under " + row.info.Clause
		if !row.lockstepOwn() {
			found = strings.Join(row.lockstep, "; ")
		}
		fmt.Fprintf(progress, "%-28s %-7s scenarios %d, properties %d, lockstep %s\n", row.info.Name, row.info.Clause, len(row.own), len(row.props), found)
		return true
	})
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// keptRows reads the rows of a page mutantsPage wrote, every known mutant
// but those of only: each as its line says (matrixLine's inverse). A known
// mutant without a row is an error: the whole matrix must be run.
func keptRows(page []byte, only []string) (map[reference.Mutant]matrixRow, error) {
	lines := map[string]string{}
	for _, l := range strings.Split(string(page), "\n") {
		if m := mutantRow.FindStringSubmatch(l); m != nil {
			lines[m[1]] = l
		}
	}
	out := map[reference.Mutant]matrixRow{}
	for _, m := range lockstep.Known() {
		if slices.Contains(only, string(m.Name)) {
			continue
		}
		l, ok := lines[string(m.Name)]
		if !ok {
			return nil, fmt.Errorf("no row for %s: run the whole matrix", m.Name)
		}
		row := matrixRow{info: m}
		if ch, ok := variantChoices(m.Name); ok {
			for k, v := range ch {
				row.choices = append(row.choices, k+"="+v)
			}
			slices.Sort(row.choices)
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if len(cells) != 7 {
			return nil, fmt.Errorf("the row of %s has %d cells, not 7", m.Name, len(cells))
		}
		other, err := strconv.Atoi(cells[4])
		if err != nil {
			return nil, fmt.Errorf("the row of %s: %v", m.Name, err)
		}
		row.own, row.other, row.props = uncodeList(cells[3]), other, uncodeList(cells[5])
		if cells[6] != "yes" {
			row.lockstep = []string{"not found under " + m.Clause}
		}
		if matrixLine(row) != l {
			return nil, fmt.Errorf("the row of %s is not as this plankit writes it: run the whole matrix", m.Name)
		}
		out[m.Name] = row
	}
	return out, nil
}

// uncodeList is codeList's inverse.
func uncodeList(cell string) []string {
	if cell == "none" {
		return nil
	}
	var out []string
	for _, id := range strings.Split(cell, "<br>") {
		out = append(out, strings.Trim(id, "`"))
	}
	return out
}

// matrixRowOf runs the scenarios, the properties and lockstep against one
// mutant, writing counterexamples under dir.
func matrixRowOf(ctx context.Context, m reference.MutantInfo, dir string) (matrixRow, error) {
	opts := reference.Options{Mutants: reference.Mutants{m.Name}}
	row := matrixRow{info: m}
	if ch, ok := variantChoices(m.Name); ok {
		var err error
		if opts.Choices, err = reference.ParseChoices(ch); err != nil {
			return row, err
		}
		for k, v := range ch {
			row.choices = append(row.choices, k+"="+v)
		}
		slices.Sort(row.choices)
	}
	newPort := reference.Factory(opts)
	fres, err := features.Run(ctx, features.Options{NewPort: newPort})
	if err == nil {
		err = fres.Impl
	}
	if err != nil {
		return row, fmt.Errorf("scenarios against %s: %w", m.Name, err)
	}
	own, other := features.Kills(fres.Cases, m.Clause)
	row.own, row.other = own, len(other)
	// The properties search within their kill budget (seed after seed,
	// one property at a time in catalog order), as lockstep within its.
	killer, _, err := properties.FirstKiller(ctx, newPort, dir)
	if err != nil {
		return row, fmt.Errorf("properties against %s: %w", m.Name, err)
	}
	if killer != "" {
		row.props = []string{killer}
	}
	if row.lockstep, _, err = lockstep.MutantProblems(ctx, m, dir); err != nil {
		return row, fmt.Errorf("lockstep against %s: %w", m.Name, err)
	}
	return row, nil
}

func countOwn(rows []matrixRow) int {
	n := 0
	for _, r := range rows {
		_, variant := variantChoices(r.info.Name)
		if len(r.own) > 0 && (len(r.props) > 0 || variant) && r.lockstepOwn() {
			n++
		}
	}
	return n
}

func mutantsPage(rows []matrixRow) []byte {
	var b bytes.Buffer
	b.WriteString("<!-- Code generated by `plankit mutants --matrix`; DO NOT EDIT. -->\n\n")
	fmt.Fprintf(&b, `# Mutants: proof that the checks bite

Regenerate with `+"`plankit mutants --matrix --out docs/mutants.md`"+` (a test keeps this page
fresh).

Each mutant is the reference implementation with one deliberate deviation from one
clause of SPEC.md, the way a real implementation might get it wrong
(reference/mutants.go); a variant reproduces a deviation of a published
implementation that shows only under a silent-point choice. Run one by hand with
`+"`plankit check --mutant NAME`"+` or `+"`plankit diff --mutant NAME`"+`; assume one with
`+"`plankit diff --assume NAME`"+` (docs/lockstep.md).

Columns: the failing scenarios tagged with the mutant's own clause (and how many
other scenarios fail), the first property that kills it in catalog order, seed after
seed from %d within the properties' budget (seeds %s, %d checks each; which seed is not
recorded; variants need not be killed by the properties, which run with the default
choices' generators), and whether lockstep, the mutant run as if it were an
external implementation, finds a divergence that names the mutant's clause within
its budget (seed after seed from 1, at most %d random sequences under each and %d
in all; which observation shows it first is not recorded: a change to what the
generators draw moves it, and must not make this page stale).

`, properties.KillBudget.Seeds[0], seedRange(properties.KillBudget.Seeds), properties.KillBudget.Checks, lockstep.MutantBudget.PerSeed, lockstep.MutantBudget.Sequences)
	own := 0
	for _, r := range rows {
		if r.lockstepOwn() {
			own++
		}
	}
	fmt.Fprintf(&b, "%d mutants and variants; %d killed in every column (lockstep with their own clause); lockstep names the mutant's own clause for %d.\n\n",
		len(rows), countOwn(rows), own)
	b.WriteString("| mutant | clause | deviation | killing scenarios (own clause) | other failing scenarios | killed by property | lockstep: found under its clause |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		b.WriteString(matrixLine(r) + "\n")
	}
	return b.Bytes()
}

// matrixLine is a mutant's row of docs/mutants.md.
func matrixLine(r matrixRow) string {
	what := r.info.What
	if len(r.choices) > 0 {
		what += " (variant; " + strings.Join(r.choices, ", ") + ")"
	}
	ls := "yes"
	if !r.lockstepOwn() {
		ls = "**no**"
	}
	return fmt.Sprintf("| `%s` | %s | %s | %s | %d | %s | %s |", r.info.Name, r.info.Clause, strings.ReplaceAll(what, "|", "\\|"), codeList(r.own), r.other, codeList(r.props), ls)
}

func codeList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	var out []string
	for _, id := range ids {
		out = append(out, "`"+id+"`")
	}
	return strings.Join(out, "<br>")
}

// seedRange writes consecutive seeds as "first–last".
func seedRange(seeds []int64) string {
	if len(seeds) == 1 {
		return fmt.Sprint(seeds[0])
	}
	return fmt.Sprintf("%d–%d", seeds[0], seeds[len(seeds)-1])
}
