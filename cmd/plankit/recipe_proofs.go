package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/plankit/plankit/features"
	"github.com/plankit/plankit/lint"
	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/render"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// The recipe's slow proofs run for what is new only: what the tree
// declares beyond what the committed generated records of a base revision
// (PLANKIT_RECIPE_BASE, default HEAD) list — the clause catalog's
// clauses, the kill matrices' mutants, the trace schema's actions, the
// runtime trace schema's kinds of step. A maintainer adding a clause, a
// mutant, an action or a kind of step runs the recipe test before
// committing it: the test then runs, for that item alone, what the rest
// of the suite would run for it (its scenarios at both levels, its
// properties, both lockstep levels, the kill matrices' rows, its example
// and its draws), so "nothing missing" means the suite is green.

// recipeNew is what the tree declares that the base's records do not.
type recipeNew struct {
	Clauses, Mutants, LoopMutants, Actions, Steps []string
	// Base says what the new items were compared with ("" when git could
	// not read the base: nothing is new then, and no slow proof runs).
	Base string
}

// recipeBase is the revision whose records say what is not new.
func recipeBase() string {
	if b := os.Getenv("PLANKIT_RECIPE_BASE"); b != "" {
		return b
	}
	return "HEAD"
}

// committedFile is a file of the tree under root as the base revision
// has it; false when git cannot say (no repository, no such revision or
// file).
func committedFile(root, base, path string) ([]byte, bool) {
	cmd := exec.Command("git", "-C", root, "show", base+":"+path)
	out, err := cmd.Output()
	return out, err == nil
}

// mutantRow is a kill matrix's row of a mutant: "| `NAME` |".
var mutantRow = regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|")

// newSinceBase compares what the tree declares with the base's records.
func newSinceBase(root string) recipeNew {
	base := recipeBase()
	var n recipeNew
	read := func(path string) ([]byte, bool) { return committedFile(root, base, path) }
	clausesJSON, ok1 := read("catalog/clauses.json")
	plugin, ok2 := read("docs/mutants.md")
	runtime, ok3 := read("docs/mutants-runtime.md")
	traceSchema, ok4 := read("trace/schema.json")
	stepSchema, ok5 := read("rtrace/schema.json")
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return n
	}
	n.Base = base
	var cat struct {
		Clauses []struct {
			ID string `json:"id"`
		} `json:"clauses"`
	}
	_ = json.Unmarshal(clausesJSON, &cat)
	var had []string
	for _, c := range cat.Clauses {
		had = append(had, c.ID)
	}
	n.Clauses = beyond(spec.ClauseIDs(), had)
	rows := func(page []byte) []string {
		var out []string
		for _, m := range mutantRow.FindAllSubmatch(page, -1) {
			out = append(out, string(m[1]))
		}
		return out
	}
	var known, loopMutants []string
	for _, m := range reference.Known() {
		known = append(known, string(m.Name))
	}
	for _, m := range loop.Mutants {
		loopMutants = append(loopMutants, string(m.Name))
	}
	n.Mutants = beyond(known, append(rows(plugin), rows(runtime)...))
	n.LoopMutants = beyond(loopMutants, rows(runtime))
	n.Actions = beyond(sim.ActionNames(), schemaKeys(traceSchema, "$defs", "entry", "properties"))
	n.Steps = beyond(loop.StepNames(), schemaKeys(stepSchema, "properties", "steps", "items", "properties"))
	return n
}

// beyond lists what of now is not in before.
func beyond(now, before []string) []string {
	var out []string
	for _, x := range now {
		if !slices.Contains(before, x) {
			out = append(out, x)
		}
	}
	return out
}

// schemaKeys are the member names of the object at path in a JSON schema.
func schemaKeys(schema []byte, path ...string) []string {
	var v any
	if json.Unmarshal(schema, &v) != nil {
		return nil
	}
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	m, _ := v.(map[string]any)
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// proofClauseScenarios: the new clause's scenarios pass against the
// reference (features) and its runtime scenarios against the built-in
// runtime around it (loop/suite), and the properties citing it hold.
func proofClauseScenarios(ctx context.Context, _ string, n recipeNew) []string {
	var out []string
	for _, c := range n.Clauses {
		fres, err := features.Run(ctx, features.Options{NewPort: reference.Factory(reference.Options{}), Selection: features.Selection{Tags: "@" + c}})
		if err == nil {
			err = fres.Impl
		}
		out = append(out, failing(c, "scenario", fres.Cases, err)...)
		rres, err := suite.Run(ctx, suite.Options{NewRuntime: builtinRuntime(nil), Selection: features.Selection{Tags: "@" + c}})
		if err == nil {
			err = rres.Impl
		}
		out = append(out, failing(c, "runtime scenario", rres.Cases, err)...)
		var props []string
		for _, info := range properties.Catalog() {
			if slices.Contains(info.Clauses, c) {
				props = append(props, info.Name)
			}
		}
		if len(props) > 0 {
			cases, err := properties.Run(ctx, properties.Options{NewPort: reference.Factory(reference.Options{}), Seed: 1, Only: props, CounterexampleDir: os.TempDir()})
			out = append(out, failing(c, "property", cases, err)...)
		}
	}
	return out
}

// failing names the cases that did not pass (a scenario skipped for a
// choice the reference does not pick passes).
func failing(clause, kind string, cases []report.Case, err error) []string {
	if err != nil {
		return []string{fmt.Sprintf("%s: the %ss could not be run: %v", clause, kind, err)}
	}
	var out []string
	for _, c := range cases {
		if c.Status == report.Failed || c.Status == report.Errored {
			out = append(out, fmt.Sprintf("%s: %s %s fails against the reference: %s", clause, kind, c.ID, c.Message))
		}
	}
	return out
}

// builtinRuntime is the built-in runtime around the reference with the
// mutants, as check --level runtime --mutant runs it.
func builtinRuntime(ms reference.Mutants) func() loop.Runtime {
	newPort := reference.Factory(reference.Options{Mutants: ms})
	return func() loop.Runtime {
		b, _ := loop.NewBuiltin(newPort(), loop.RetryPreStep)
		return b
	}
}

// newMutants are the catalogue's and the variants' new mutants.
func newMutants(n recipeNew) []reference.MutantInfo {
	var out []reference.MutantInfo
	for _, m := range reference.Known() {
		if slices.Contains(n.Mutants, string(m.Name)) {
			out = append(out, m)
		}
	}
	return out
}

// isVariant reports whether m is a variant (not in the catalogue).
func isVariant(m reference.MutantInfo) bool {
	return !slices.ContainsFunc(reference.Catalogue, func(c reference.MutantInfo) bool { return c.Name == m.Name })
}

// proofMutantKilled: a scenario tagged with the new mutant's clause fails
// against it, and (for the catalogue's) some property does.
func proofMutantKilled(ctx context.Context, _ string, n recipeNew) []string {
	var out []string
	for _, m := range newMutants(n) {
		row, err := matrixRowOf(ctx, m, os.TempDir())
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("mutant %s: %v", m.Name, err))
		case len(row.own) == 0:
			out = append(out, fmt.Sprintf("mutant %s (%s): no scenario tagged %s fails against it", m.Name, m.Clause, m.Clause))
		case len(row.props) == 0 && !isVariant(m):
			out = append(out, fmt.Sprintf("mutant %s (%s): no property fails against it", m.Name, m.Clause))
		}
	}
	return out
}

// proofMutantExample: the new mutant fails its example trace.
func proofMutantExample(_ context.Context, root string, n recipeNew) []string {
	var out []string
	for _, m := range newMutants(n) {
		if m.Example == "" || isVariant(m) {
			continue
		}
		tr, err := trace.ReadFile(filepath.Join(root, "examples", m.Example))
		if err != nil {
			out = append(out, fmt.Sprintf("mutant %s: %v", m.Name, err))
			continue
		}
		if run := trace.Execute(tr, reference.NewPort(reference.Options{Mutants: reference.Mutants{m.Name}})); !run.Failed() && run.Err == nil {
			out = append(out, fmt.Sprintf("mutant %s passes examples/%s, which its Evidence.Example says kills it", m.Name, m.Example))
		}
	}
	return out
}

// proofMutantLog: the new mutant's Evidence.Log has a lint finding of
// LogClause against it.
func proofMutantLog(_ context.Context, root string, n recipeNew) []string {
	var out []string
	for _, m := range newMutants(n) {
		if m.Log == "" {
			continue
		}
		path := filepath.Join(root, filepath.FromSlash(m.Log))
		tr, err := trace.ReadFile(path)
		if err != nil {
			out = append(out, fmt.Sprintf("mutant %s: %v", m.Name, err))
			continue
		}
		run := trace.Execute(tr, reference.NewPort(reference.Options{Mutants: reference.Mutants{m.Name}}))
		var b bytes.Buffer
		if err := render.Write(&b, "jsonl", run); err != nil {
			out = append(out, fmt.Sprintf("mutant %s: %v", m.Name, err))
			continue
		}
		if r := lint.Bytes(path, b.Bytes(), lint.Options{}); !slices.Contains(r.Clauses(), m.LogClause) {
			out = append(out, fmt.Sprintf("mutant %s: the log of %s has no %s finding against it (findings of %v)", m.Name, m.Log, m.LogClause, r.Clauses()))
		}
	}
	return out
}

// proofMutantFound: lockstep finds the new mutant under its clause at
// each level it applies to (lockstep.MutantProblems, RuntimeMutantProblems).
func proofMutantFound(ctx context.Context, _ string, n recipeNew) []string {
	var out []string
	for _, m := range newMutants(n) {
		problems, _, err := lockstep.MutantProblems(ctx, m, os.TempDir())
		if err != nil {
			problems = append(problems, fmt.Sprintf("mutant %s: lockstep: %v", m.Name, err))
		}
		out = append(out, problems...)
		if isVariant(m) {
			continue
		}
		problems, _, err = lockstep.RuntimeMutantProblems(ctx, m, os.TempDir())
		if err != nil {
			problems = append(problems, fmt.Sprintf("mutant %s: lockstep at runtime level: %v", m.Name, err))
		}
		out = append(out, problems...)
	}
	return out
}

// proofMutantRuntimeSuite: the runtime-level scenarios kill the new mutant
// (a reference mutant in the built-in runtime, or a mutant of its loop),
// unless its evidence says a runtime cannot show it.
func proofMutantRuntimeSuite(ctx context.Context, _ string, n recipeNew) []string {
	var out []string
	check := func(name, clause, hidden string, newRuntime func() loop.Runtime) {
		res, err := suite.Run(ctx, suite.Options{NewRuntime: newRuntime})
		if err == nil {
			err = res.Impl
		}
		if err != nil {
			out = append(out, fmt.Sprintf("mutant %s: the runtime-level scenarios could not be run: %v", name, err))
			return
		}
		killed := slices.ContainsFunc(res.Cases, func(c report.Case) bool { return c.Status == report.Failed })
		switch {
		case !killed && hidden == "":
			out = append(out, fmt.Sprintf("mutant %s (%s) survives the runtime-level scenarios: a scenario of loop/suite/*.feature, or Evidence.RuntimeHidden saying why a runtime cannot show it", name, clause))
		case killed && hidden != "":
			out = append(out, fmt.Sprintf("mutant %s is killed at runtime level, yet its Evidence.RuntimeHidden says a runtime cannot show it", name))
		}
	}
	for _, m := range newMutants(n) {
		if isVariant(m) {
			continue
		}
		check(string(m.Name), m.Clause, m.RuntimeHidden, builtinRuntime(reference.Mutants{m.Name}))
	}
	for _, m := range loop.Mutants {
		if !slices.Contains(n.LoopMutants, string(m.Name)) {
			continue
		}
		check(string(m.Name), m.Clause, "", func() loop.Runtime {
			b, _ := loop.NewBuiltinWith(reference.NewPort(reference.Options{}), loop.BuiltinOptions{Mutants: []loop.Mutant{m.Name}})
			return b
		})
	}
	return out
}

// proofMatrices: with a new clause (its scenarios kill other mutants too)
// or a new mutant, both kill matrices are what they are computed to be now,
// whole: docs/mutants.md and docs/mutants-runtime.md with the kill count
// docs/checking-your-runtime.md quotes.
func proofMatrices(ctx context.Context, root string, n recipeNew) []string {
	if len(n.Clauses)+len(n.Mutants)+len(n.LoopMutants) == 0 {
		return nil
	}
	var out []string
	rows, err := killMatrix(ctx, io.Discard, nil)
	if err != nil {
		return []string{fmt.Sprintf("the kill matrix could not be run: %v", err)}
	}
	plugin, _ := os.ReadFile(filepath.Join(root, "docs", "mutants.md"))
	if !bytes.Equal(plugin, mutantsPage(rows)) {
		var only []string
		for _, m := range n.Mutants {
			only = append(only, "--only "+m)
		}
		cmd := "go run ./cmd/plankit mutants --matrix --out docs/mutants.md"
		if len(n.Clauses) == 0 && len(only) > 0 {
			cmd = "go run ./cmd/plankit mutants --matrix " + strings.Join(only, " ") + " --out docs/mutants.md"
		}
		out = append(out, "docs/mutants.md is not the kill matrix as it is now: "+cmd)
	}
	page, figure, problems, err := runtimeMatrix(ctx)
	if err != nil {
		return append(out, fmt.Sprintf("the runtime kill matrix could not be run: %v", err))
	}
	out = append(out, problems...)
	runtime, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(runtimeMatrixPath)))
	guide, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(runtimeMatrixGuide)))
	if fresh, ok := withKillCount(guide, figure); !bytes.Equal(runtime, page) || !ok || !bytes.Equal(fresh, guide) {
		out = append(out, fmt.Sprintf("%s (and the kill count of %s) is not the runtime kill matrix as it is now: %s", runtimeMatrixPath, runtimeMatrixGuide, runtimeMatrixCmd))
	}
	return out
}

// proofActions: each draw of a new action, drawn from the model along
// generated sequences, is an action the simulator around the reference
// accepts (never refused as bad input), and lockstep finds the reference
// agreeing with itself on sequences drawn with it.
func proofActions(ctx context.Context, _ string, n recipeNew) []string {
	var out []string
	for _, k := range sim.Actions() {
		if !slices.Contains(n.Actions, k.Name()) {
			continue
		}
		if len(k.Draws()) == 0 {
			continue // never drawn: nothing generated to prove
		}
		for _, d := range k.Draws() {
			if p := drawAccepted(d); p != "" {
				out = append(out, fmt.Sprintf("action %s, draw %s: %s", k.Name(), d.Name, p))
			}
		}
	}
	return out
}

// drawAccepted draws d from the model of many generated states and plays
// each drawn action against the reference: "" when the runtime accepts
// every one, else the first refusal.
func drawAccepted(d sim.Draw) string {
	for seed := int64(1); seed <= 40; seed++ {
		c := properties.NewPRNG(seed, "recipe")
		setup := properties.DrawSetup(c)
		m := properties.NewModel(setup, properties.Choices{})
		rt, _, err := sim.New(reference.NewPort(reference.Options{}), setup.Options())
		if err != nil {
			return err.Error()
		}
		for range 20 {
			if act, ok := d.Make(m, c); ok && act.Ready(m) {
				if _, err := rt.Do(act); err != nil {
					return fmt.Sprintf("%s: %v", act, err)
				}
				m.Apply(act)
				continue
			}
			act := properties.Draw(m, c, properties.Weights{})
			if _, err := rt.Do(act); err != nil {
				return fmt.Sprintf("%s: %v", act, err)
			}
			m.Apply(act)
		}
	}
	return ""
}

// proofSteps: a new kind of step's example plays on the built-in runtime
// around the reference and keeps the invariants, and so does every
// script of two steps whose first or second is one of its letters (the
// other any letter of the wide alphabet); lockstep at runtime level finds
// the built-in runtime agreeing with itself on those scripts.
func proofSteps(ctx context.Context, _ string, n recipeNew) []string {
	var out []string
	caps := builtinCaps()
	base, alphabet := loop.WideAlphabet(caps)
	for _, k := range loop.StepKinds() {
		if !slices.Contains(n.Steps, k.Name()) {
			continue
		}
		play := func(steps ...loop.Step) {
			t := base
			t.Steps = steps
			rec, err := loop.Run(builtinRuntime(nil)(), t)
			var refused *sim.InputError
			switch {
			case loop.IsSkip(err), errors.As(err, &refused):
				// a capability the built-in runtime lacks, or a step its
				// precondition refuses where the other letter put it
				return
			case err != nil:
				out = append(out, fmt.Sprintf("step %s: %v", k.Name(), err))
				return
			}
			if fs := loop.Verdict(t, rec); len(fs) > 0 {
				out = append(out, fmt.Sprintf("step %s: the built-in runtime fails its checks: %s", k.Name(), loop.Describe(fs)))
			}
		}
		if k.Example() == "" {
			out = append(out, fmt.Sprintf("step %s has no example", k.Name()))
		}
		a, w := k.Letters(caps)
		for _, l := range append(a, w...) {
			for _, other := range alphabet {
				play(l, other)
				play(other, l)
			}
		}
		res, err := lockstep.RunRuntime(ctx, lockstep.RuntimeOptions{NewImpl: builtinRuntime(nil), Seed: 1, Cases: 20, Steps: 12, Depth: 1, Out: os.TempDir()})
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("step %s: lockstep: %v", k.Name(), err))
		case res.Runtime != nil:
			out = append(out, fmt.Sprintf("step %s: the built-in runtime diverges from itself: %s", k.Name(), res.Runtime.Summary()))
		}
	}
	return out
}

// builtinCaps are the built-in runtime's capabilities.
func builtinCaps() loop.Capabilities {
	rt := builtinRuntime(nil)()
	id, err := rt.Start()
	if err != nil {
		return loop.Capabilities{}
	}
	_ = rt.Stop()
	return id.Capabilities
}

// newText lists what is new, for the test's log.
func (n recipeNew) String() string {
	var parts []string
	add := func(what string, xs []string) {
		if len(xs) > 0 {
			parts = append(parts, what+" "+strings.Join(xs, ", "))
		}
	}
	add("clauses", n.Clauses)
	add("mutants", n.Mutants)
	add("loop mutants", n.LoopMutants)
	add("actions", n.Actions)
	add("runtime steps", n.Steps)
	if len(parts) == 0 {
		return "nothing new since " + n.Base
	}
	return "new since " + n.Base + ": " + strings.Join(parts, "; ")
}
