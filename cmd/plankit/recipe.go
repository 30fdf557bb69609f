package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/catalog/coverage"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// The recipe for adding a clause is this list: the pieces a clause and its
// mutants need, in the order a maintainer adds them, each with the file it
// goes in and the test that proves it. TestEveryClauseHasItsEvidence runs
// every step's check over every clause and mutant and reports every piece
// that is missing, at once, in this order; the "Add a clause" and "Add a
// mutant" sections of docs/architecture.md are generated from it.
//
// A clause's evidence is derived, never listed again: its scenarios and
// runtime checks from their tags, its properties from the properties'
// clauses, its mutants from the catalogue, what proves each mutant from
// the mutant's own reference.Evidence, its lockstep row from the
// attribution table.

// recipeStep is one piece of the recipe.
type recipeStep struct {
	// file is where the piece goes (Markdown: code spans, "or").
	file string
	// add says what to add there.
	add string
	// proof names what holds the piece, beyond this recipe's check.
	proof string
	// mutant marks the steps of adding a mutant (to an existing clause).
	mutant bool
	// missing returns one line per clause or mutant that lacks the piece,
	// saying which; nil for a step no static check can see (its proof
	// holds it).
	missing func(e recipeState) []string
	// prove runs the slow proofs of the piece for what is new only (the
	// test's recipeNew), returning what does not hold; nil: none.
	prove func(ctx context.Context, root string, n recipeNew) []string
}

// recipeState is what the recipe's checks read: the clause IDs SPEC.md
// lists (nil when SPEC.md was not read) and the coverage of the clauses by
// scenarios, properties and runtime checks; the catalogue, the attribution
// table and the spec tables are read where they are declared.
type recipeState struct {
	root     string
	specIDs  []string
	coverage coverage.Matrix
	// stale lists the generated files that differ from what generation
	// writes.
	stale []string
}

// unmutated are the clauses no mutant breaks yet, with why; the recipe
// wants a mutant for every other clause, and says when one of these gets
// one.
var unmutated = map[string]string{
	spec.PEND1: noMutantYet,
	spec.STEP4: noMutantYet,
	spec.STEP7: noMutantYet,
	spec.SVC2:  noMutantYet,
	spec.SVC4:  noMutantYet,
}

// noMutantYet is why a clause of unmutated has none: nobody has written
// one, so the suites are not yet proven to bite on it.
const noMutantYet = "no mutant written yet"

// clauseRecipe is the recipe, in the order a maintainer adds the pieces.
var clauseRecipe = []recipeStep{
	{
		file:    "spec/clauses.go",
		add:     "the clause: its ID constant and its entry in `Clauses`, in SPEC.md order, with the suite version it enters (`Since`); raise `SuiteVersion`. A silent point that refines it names it in its choice's `Clauses` (`spec/choices.go`). When the clause changes how a typed `/plan` line is read, `spec/command.go` (`PlanCommand`) and its test `spec/command_test.go`; how a `plan/mode` event's data folds, `spec/planmode.go`.",
		proof:   "`go test ./spec ./catalog` (numbering, groups) and this recipe (the IDs and their order against SPEC.md)",
		missing: missingSpecClauses,
	},
	{
		file:  "`reference/controller.go` (or `reference/fold.go`, for the fold of the log)",
		add:   "the behaviour, stated once and citing the clause, when the reference does not already do what the clause says; a new decision point is one field of `hooks` (`reference/hooks.go`) and one call here.",
		proof: "`go test ./features` (the new scenarios pass against the reference), `go test ./loop/suite` (the runtime scenarios pass against the built-in runtime), `go test ./properties`; for a new clause, this recipe runs them for it alone",
		prove: proofClauseScenarios,
	},
	{
		file:    "`features/GROUP.feature`",
		add:     "a scenario tagged `@GROUP-N` with a stable `@id:`; new steps, if any, in `features/given.go`, `when.go` or `then.go`, each checking step with the observation it compares.",
		proof:   "`plankit catalog coverage`",
		missing: coverageMissing(coverage.NoScenario, coverage.Scenario),
	},
	{
		file:    "`properties/catalog.go`",
		add:     "a property citing the clause (a new one, or the clause added to the `Clauses` of one that states it); `properties/predict*.go` (and `modelled` in `properties/model.go`) when the model must predict something new.",
		proof:   "`plankit catalog coverage`",
		missing: coverageMissing(coverage.NoProperty, coverage.Property),
	},
	{
		file:  "the generators: `sim.CommandInputs` (`sim/action_command.go`), `sim.Plans` or `sim.Reviews` (`sim/action_step.go`), an action's `draws` (`sim/action_*.go`) or a kind of step's (`loop/step_*.go`), and where they are weighted (`properties/catalog.go`, the mixes and preludes of `loop/suite/properties.go`)",
		add:   "when the clause is about something no generator draws yet (a /plan argument, a plan's shape, a review), the one list it belongs to or a draw, at both levels: every generator reads these lists and tables, none keeps its own.",
		proof: "`go test ./properties ./loop/suite ./lockstep` (the properties and lockstep at both levels draw it), `TestGeneratorsDrawEveryDrawOfTheTable` (loop/suite)",
	},
	{
		file:    "`loop/suite/GROUP.feature` (or `loop/suite/gaps.go`)",
		add:     "a runtime-level scenario tagged `@runtime @GROUP-N` — or, when a runtime cannot show the clause from outside, a gap for the whole clause saying why.",
		proof:   "`plankit catalog coverage`",
		missing: coverageMissing(coverage.NoRuntimeCheck, coverage.Runtime, coverage.WholeGapChecked),
	},
	{
		file:    "`reference/mutants.go`",
		add:     "a mutant that breaks the clause: its name constant, its `Catalogue` entry (clause, what it breaks) and its `mutations` entry — a `wire` (`reference/wire.go`) when it changes only what crosses the port, else `hooks` (`reference/hooks.go`): a `bend` at a named point or an `instead`. `reference/controller.go` never names a mutant.",
		proof:   "`TestEveryMutantIsKilled` (features: a scenario tagged with the clause fails), `TestMutantsDocIsFresh` (cmd/plankit, the kill matrix: some property fails within `properties.KillBudget`), `TestEveryMutantHasOneMutation`; for a new mutant, this recipe runs them for it alone",
		mutant:  true,
		missing: missingMutants,
		prove:   proofMutantKilled,
	},
	{
		file:    "`reference/mutants.go`, the mutant's `Evidence`",
		add:     "`Example`: an example trace (`examples/NAME.yaml`) the mutant fails — an existing one, or a new trace with its expectations (its timeline is generated).",
		proof:   "`TestExamplesKillEveryMutant` (reference)",
		mutant:  true,
		missing: missingExamples,
		prove:   proofMutantExample,
	},
	{
		file:    "`reference/mutants.go`, the mutant's `Evidence`",
		add:     "`Log` and `LogClause`: a trace whose session log has a lint finding of that clause against the mutant (a fixture under `lint/testdata/traces/`, or an example) — or `LogHidden`: why no session log can show it — or `LogUnlinted`: what a log shows of it that no lint rule reads yet. A new lint rule goes in `lint/check.go`, with its ID and clauses in `attribution.Checks`.",
		proof:   "`TestMutantLogsHaveFindings`, `TestFaithfulLogsAreClean` (lint)",
		mutant:  true,
		missing: missingLogs,
		prove:   proofMutantLog,
	},
	{
		file:    "`attribution/table.go`",
		add:     "a row that names the mutant's clause where its divergence is seen, at each level it applies to: a plugin-level row (`Obs…`) and, unless the mutant's `Evidence.RuntimeHidden` says why a runtime cannot show it, a runtime-level row (`Rt…`) — an existing row, or a new one with its ID constant and the situation implemented in `lockstep`. Nothing pins which observation finds it: some divergence within the search budget (`lockstep.MutantBudget`, `lockstep.RuntimeMutantBudget`) must name its clause.",
		proof:   "`TestMutantsDocIsFresh` (the kill matrix's lockstep column), `TestMutantsAreKilledAtRuntimeLevel` (cmd/plankit), `TestRuntimeLockstepNamesEachMutantUnderItsClause` (lockstep); for a new mutant, this recipe runs them for it alone",
		mutant:  true,
		missing: missingRows,
		prove: func(ctx context.Context, root string, n recipeNew) []string {
			return append(proofMutantFound(ctx, root, n), proofMutantRuntimeSuite(ctx, root, n)...)
		},
	},
	{
		file:    "generated files",
		add:     "regenerate, never edit: `go generate ./...` (the catalogs, the example timelines, the attribution table of `docs/lockstep.md`, these recipes); `go run ./cmd/plankit mutants --matrix --out docs/mutants.md` (the kill matrix, every suite against every mutant; `--only NAME` for a new mutant's row alone); `go test ./cmd/plankit -run TestMutantsAreKilledAtRuntimeLevel -update` (`docs/mutants-runtime.md`).",
		proof:   "`TestGeneratedFilesAreFresh` (whose stale files this recipe names), `TestMutantsDocIsFresh`, `TestMutantsAreKilledAtRuntimeLevel`; for a new clause or mutant, this recipe computes both kill matrices whole",
		mutant:  true,
		missing: func(e recipeState) []string { return e.stale },
		prove:   proofMatrices,
	},
}

// actionRecipe is the recipe for adding an action (docs/architecture.md,
// "Add an action"): what the action table needs, and what proves a new
// action.
var actionRecipe = []recipeStep{
	{
		file:    "`sim/action_NAME.go` (new)",
		add:     "the action's value type if no existing one fits, its doc comment with a trace example, and one `declare(kind[T]{…})`: `name` (the trace key), `of` (its field of `Action`), `agent_` (nil for a runtime-wide action), `introduces_` (the agent it creates), `apply_` (how the runtime applies it), `touches_` (whose `get()` is observed after it), `refuses_` (its precondition beyond the agent existing: why the runtime refuses it, which `Runtime.Do` applies and generators draw by), `schema` (the JSON Schema of its value) and `draws` (how generators draw it through `sim.World` and `sim.Chooser`; none: never drawn).",
		proof:   "`TestActionTableCoversTheUnion` (sim), `TestActionSchemasMatchTheirTypes` (trace); for a new action, this recipe plays each of its draws, drawn from the model of generated states, against the reference",
		missing: missingActionRows,
		prove:   proofActions,
	},
	{
		file: "`sim/action.go`",
		add:  "one field line in `Action`: its position is the action's place in the table, in the schema and among the generators' kinds.",
	},
	{
		file:  "`sim/runtime_test.go`",
		add:   "what the runtime does with it, beside the tests of the other actions.",
		proof: "`go test ./sim`",
	},
}

// stepRecipe is the recipe for adding a kind of step at runtime level
// (docs/architecture.md, "Add a runtime step").
var stepRecipe = []recipeStep{
	{
		file:    "`loop/step_NAME.go` (new)",
		add:     "the member's value type if no existing one fits, and one `declare(kind[T]{…})`: `key` (the trace key), `of` (its member of `Step`), `agent_`, `need` (the capability it needs), `refuses_` (its precondition beyond its agent existing and plan mode being there to ask, which the session applies), `play_` (how a session plays it with `loop.Runtime`'s methods), `doc` and `example` (the trace format page's row), `schema` (the JSON Schema of its value; it may refer to the runtime protocol's schemas), `draws` (how generators draw it; a draw is drawn only by a mix or prelude of `loop/suite` that names it) and `letters` (its steps in the alphabets of explore and diff --level runtime).",
		proof:   "`TestStepTableIsStepsMembers` (loop), `TestEveryStepExampleParsesAndPlays`, `TestSchemaIsBuiltFromTheStepTable` (rtrace), `TestGeneratorsDrawEveryDrawOfTheTable` (loop/suite); for a new kind, this recipe plays its example and every two-step script of its letters and the wide alphabet on the built-in runtime, and runs lockstep at runtime level",
		missing: missingStepRows,
		prove:   proofSteps,
	},
	{
		file: "`loop/step.go`",
		add:  "one field line in `Step`: its position is the step's place in the table, the schema, the documentation and the alphabet.",
	},
	{
		file:  "`loop/step_test.go` (or a test beside the runtime's behaviour)",
		add:   "what a session does with it.",
		proof: "`go test ./loop`",
	},
}

// missingActionRows names what the action table lacks against Action.
func missingActionRows(recipeState) []string { return sim.TableProblems() }

// missingStepRows names what the step table lacks against Step, and a
// kind of step without its example, doc or schema.
func missingStepRows(recipeState) []string {
	var out []string
	for _, k := range loop.StepKinds() {
		if k.Example() == "" || k.Doc() == "" || len(k.Schema()) == 0 {
			out = append(out, fmt.Sprintf("step %s: its row needs an example, a doc and a schema", k.Name()))
		}
	}
	return append(out, loop.TableProblems()...)
}

// missingSpecClauses compares the declared clauses with SPEC.md's.
func missingSpecClauses(e recipeState) []string {
	if e.specIDs == nil {
		return nil
	}
	var out []string
	declared := spec.ClauseIDs()
	for _, id := range e.specIDs {
		if !slices.Contains(declared, id) {
			out = append(out, id+" is in SPEC.md but not declared")
		}
	}
	for _, id := range declared {
		if !slices.Contains(e.specIDs, id) {
			out = append(out, id+" is declared but SPEC.md has no such clause")
		}
	}
	if out == nil && !slices.Equal(declared, e.specIDs) {
		out = append(out, fmt.Sprintf("the clauses are not in SPEC.md's order: %v, SPEC.md %v", declared, e.specIDs))
	}
	return out
}

// coverageMissing returns the coverage problems of the kinds given: a
// clause with no check of the column (the first kind), and the problems of
// checks of that kind (citing an unknown clause, no ID, ...) or of the
// other kinds named.
func coverageMissing(none, checkKind string, others ...string) func(recipeState) []string {
	return func(e recipeState) []string {
		var out []string
		for _, p := range e.coverage.Problems {
			if p.Kind == none || p.CheckKind == checkKind || slices.Contains(others, p.Kind) {
				out = append(out, p.String())
			}
		}
		return out
	}
}

// missingMutants names the clauses no mutant breaks, beyond unmutated.
func missingMutants(recipeState) []string {
	var out []string
	for _, id := range spec.ClauseIDs() {
		mutated := slices.ContainsFunc(reference.Catalogue, func(m reference.MutantInfo) bool { return m.Clause == id })
		why, excused := unmutated[id]
		switch {
		case !mutated && !excused:
			out = append(out, id+": no mutant breaks it")
		case mutated && excused:
			out = append(out, id+": a mutant breaks it now; drop it from unmutated (cmd/plankit/recipe.go: "+why+")")
		}
	}
	for _, m := range reference.Known() {
		if _, ok := spec.Lookup(m.Clause); !ok || m.What == "" {
			out = append(out, fmt.Sprintf("mutant %s: clause %q unknown or no description of what it breaks", m.Name, m.Clause))
		}
	}
	for _, m := range loop.Mutants {
		if _, ok := spec.Lookup(m.Clause); !ok || m.What == "" {
			out = append(out, fmt.Sprintf("runtime mutant %s (loop/mutants.go): clause %q unknown or no description of what it breaks", m.Name, m.Clause))
		}
	}
	return out
}

// missingExamples names the mutants of the catalogue whose evidence names
// no example trace, or one that does not exist.
func missingExamples(e recipeState) []string {
	var out []string
	for _, m := range reference.Catalogue {
		switch {
		case m.Example == "":
			out = append(out, fmt.Sprintf("mutant %s (%s): Evidence.Example names no example trace that kills it", m.Name, m.Clause))
		case !exists(e.root, filepath.Join("examples", m.Example)):
			out = append(out, fmt.Sprintf("mutant %s: Evidence.Example: no examples/%s", m.Name, m.Example))
		}
	}
	return out
}

// missingLogs names the mutants of the catalogue whose evidence does not
// say which log shows them, why none can, or what a log shows that no lint
// rule reads yet.
func missingLogs(e recipeState) []string {
	var out []string
	for _, m := range reference.Catalogue {
		switch p := m.LogProblem(); {
		case p != "":
			out = append(out, fmt.Sprintf("mutant %s (%s): Evidence %s", m.Name, m.Clause, p))
		case m.Log != "" && !exists(e.root, m.Log):
			out = append(out, fmt.Sprintf("mutant %s: Evidence.Log: no %s", m.Name, m.Log))
		case m.Log != "":
			if _, ok := spec.Lookup(m.LogClause); !ok {
				out = append(out, fmt.Sprintf("mutant %s: Evidence.LogClause %q is no clause", m.Name, m.LogClause))
			}
		}
	}
	return out
}

// missingRows names the mutants whose clause no row of the attribution
// table names at a level the mutant applies to: lockstep could never name
// it there.
func missingRows(recipeState) []string {
	var out []string
	plugin, runtime := attribution.AtLevel(false), attribution.AtLevel(true)
	for _, m := range reference.Known() {
		if !slices.Contains(plugin, m.Clause) {
			out = append(out, fmt.Sprintf("mutant %s: no plugin-level row names %s", m.Name, m.Clause))
		}
		if m.RuntimeHidden == "" && !slices.Contains(runtime, m.Clause) {
			out = append(out, fmt.Sprintf("mutant %s: no runtime-level row names %s (or say why a runtime cannot show it: Evidence.RuntimeHidden)", m.Name, m.Clause))
		}
	}
	return out
}

func exists(root, rel string) bool {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

// recipes are the recipe lists the test runs, each with the prefix its
// lines carry (the clause recipe's none: its lines are "N. file: …").
var recipes = []struct {
	prefix string
	steps  []recipeStep
}{{"", clauseRecipe}, {"action ", actionRecipe}, {"runtime step ", stepRecipe}}

// recipeMissing runs the recipes' checks in order and returns every
// missing piece, each line prefixed with its step's number and file.
func recipeMissing(e recipeState) []string {
	var out []string
	for _, r := range recipes {
		for i, s := range r.steps {
			if s.missing == nil {
				continue
			}
			for _, line := range s.missing(e) {
				out = append(out, fmt.Sprintf("%s%d. %s: %s", r.prefix, i+1, strings.ReplaceAll(s.file, "`", ""), line))
			}
		}
	}
	return out
}

// recipeProve runs the recipes' slow proofs for what is new and returns
// what does not hold, each line prefixed as recipeMissing's.
func recipeProve(ctx context.Context, root string, n recipeNew) []string {
	var out []string
	for _, r := range recipes {
		for i, s := range r.steps {
			if s.prove == nil {
				continue
			}
			for _, line := range s.prove(ctx, root, n) {
				out = append(out, fmt.Sprintf("%s%d. %s: %s", r.prefix, i+1, strings.ReplaceAll(s.file, "`", ""), line))
			}
		}
	}
	return out
}

// recipeMarkdown renders a recipe as a numbered list of
// docs/architecture.md: every step, or only the mutant's.
func recipeMarkdown(steps []recipeStep, mutantOnly bool) string {
	var b strings.Builder
	n := 0
	for _, s := range steps {
		if mutantOnly && !s.mutant {
			continue
		}
		n++
		file := s.file
		if !strings.Contains(file, "`") && strings.Contains(file, "/") {
			file = "`" + file + "`"
		}
		proof := ""
		if s.proof != "" {
			proof = " *Checked by* " + s.proof + "."
		}
		fmt.Fprintf(&b, "%d. %s: %s%s\n", n, file, s.add, proof)
	}
	return b.String()
}
