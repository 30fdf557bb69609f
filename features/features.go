// Package features owns plankit's Gherkin conformance suite: the .feature
// files that state every clause of SPEC.md as executable scenarios, and the
// step definitions that drive the simulator (package sim) through the
// implementation's port only, so the same scenarios run unchanged against
// the reference, its mutants and external implementations.
//
// Every scenario carries clause tags (@PEND-5), one stable ID tag
// (@id:pend-cancel-before-boundary) and, when its expectation depends on a
// silent point of the specification, a choice tag
// (@choice:cancel-pending=clear). A scenario whose choice the
// implementation declares differently (sim.Identity.Choices) is skipped,
// with a message naming the choice, not failed. A row of a Scenario Outline
// is identified by the outline's @id plus the row's case, written in
// brackets at the end of the outline's name: "... [<case>]" gives
// "<id>/<case>".
//
// Run executes the suite in strict mode (undefined, pending or ambiguous
// steps fail) and returns one report.Case per scenario, in file order.
package features

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/plankit/plankit/attribution"

	messages "github.com/cucumber/messages/go/v34"
	"github.com/plankit/plankit/internal/third_party/godog"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

//go:embed *.feature
var files embed.FS

// Selection is what a run of a Gherkin suite, at either level, runs and
// where it reports: the scenarios a tag expression selects, their order,
// the formatter and its output.
type Selection struct {
	// Tags is a godog tag expression ("@PEND-5 && ~@choice:cancel-pending=keep-equal");
	// empty runs every scenario.
	Tags string
	// Seed, when not 0, shuffles the execution order of the scenarios
	// with that seed. Results are reported in file order whatever the seed.
	Seed int64
	// Output receives the godog formatter's output; nil discards it.
	Output io.Writer
	// Format is the godog formatter: "pretty", "progress", or "" for none.
	Format string
}

// Options configure a run of the suite.
type Options struct {
	// NewPort builds a fresh implementation for each scenario.
	NewPort func() sim.Port
	// PortFor, when set, builds each scenario's implementation instead of
	// NewPort, told the scenario's id and whether it checks PEND-8 (what
	// a restart loses).
	PortFor func(sim.Check) sim.Port
	Selection
	// Features replaces the embedded .feature files (tests of the runner
	// itself); nil runs the conformance suite.
	Features fs.FS
	// Depart, when set, names a failing scenario's cause: it replays the
	// scenario's runtime options and actions beside the reference and
	// returns the clauses of the first action that departed from it and
	// a line saying so (lockstep.Depart); nil clauses leave the failing
	// step's observation to name it.
	Depart func(newPort func() sim.Port, opts sim.Options, acts []sim.Action) (clauses []string, note string, err error)
}

// ErrImpl wraps the failure of an implementation that could not be run.
var ErrImpl = errors.New("the implementation could not be run")

// Result is a finished run: its cases in file order (with their steps)
// and the implementation's identity.
type Result struct {
	Identity sim.Identity
	Cases    []report.Case
	// Impl is the first failure of the implementation, if any.
	Impl error
}

var (
	caseName = regexp.MustCompile(`\[([a-z0-9-]+)\]$`)
)

// scenarioInfo is what the tags of a pickle say.
type scenarioInfo struct {
	id, feature, uri string
	clauses, choices []string
}

func infoOf(p *godog.Scenario, feature string) (scenarioInfo, error) {
	in := scenarioInfo{feature: feature, uri: p.Uri}
	var id string
	for _, t := range p.Tags {
		switch {
		case strings.HasPrefix(t.Name, "@id:"):
			if id != "" {
				return in, fmt.Errorf("%s: scenario %q has two @id tags", p.Uri, p.Name)
			}
			id = strings.TrimPrefix(t.Name, "@id:")
		case strings.HasPrefix(t.Name, "@choice:"):
			in.choices = append(in.choices, strings.TrimPrefix(t.Name, "@choice:"))
		default:
			if id, ok := spec.ClauseTag(t.Name); ok && !slices.Contains(in.clauses, id) {
				in.clauses = append(in.clauses, id)
			}
		}
	}
	if id == "" {
		return in, fmt.Errorf("%s: scenario %q has no @id tag", p.Uri, p.Name)
	}
	if len(in.clauses) == 0 {
		return in, fmt.Errorf("%s: scenario %q has no clause tag", p.Uri, p.Name)
	}
	if len(p.AstNodeIds) > 1 {
		m := caseName.FindStringSubmatch(p.Name)
		if m == nil {
			return in, fmt.Errorf("%s: outline %q must end its name with [<case>] so each row has a stable ID", p.Uri, p.Name)
		}
		id += "/" + m[1]
	}
	in.id = id
	sort.Strings(in.clauses)
	sort.Strings(in.choices)
	return in, nil
}

// Scenarios lists the suite's scenarios (filtered by tags) in file order,
// without running them.
func Scenarios(tags string) ([]report.Case, error) { return SuiteScenarios(files, tags) }

type pickleInfo struct {
	scenarioInfo
	name string
	line int
	// steps are the scenario's steps, not run (status "skipped").
	steps []report.Step
}

// node is a Gherkin AST node's keyword and line.
type node struct {
	keyword string
	line    int
}

// astNodes maps the AST node IDs of a document to their keywords and lines.
func astNodes(doc *messages.GherkinDocument, into map[string]node) {
	if doc == nil || doc.Feature == nil {
		return
	}
	scenario := func(sc *messages.Scenario) {
		into[sc.Id] = node{sc.Keyword, int(sc.Location.Line)}
		for _, st := range sc.Steps {
			into[st.Id] = node{st.Keyword, int(st.Location.Line)}
		}
		for _, ex := range sc.Examples {
			for _, row := range ex.TableBody {
				into[row.Id] = node{"", int(row.Location.Line)}
			}
		}
	}
	background := func(bg *messages.Background) {
		for _, st := range bg.Steps {
			into[st.Id] = node{st.Keyword, int(st.Location.Line)}
		}
	}
	for _, ch := range doc.Feature.Children {
		switch {
		case ch.Background != nil:
			background(ch.Background)
		case ch.Scenario != nil:
			scenario(ch.Scenario)
		case ch.Rule != nil:
			for _, rc := range ch.Rule.Children {
				if rc.Background != nil {
					background(rc.Background)
				}
				if rc.Scenario != nil {
					scenario(rc.Scenario)
				}
			}
		}
	}
}

// catalog parses the embedded features and checks their tags: one @id
// each, unique, at least one clause.
func catalog(fsys fs.FS, tags string) (infos []pickleInfo, order map[string]int, nodes map[string]node, err error) {
	defer func() {
		// godog's tag filter panics on a malformed expression.
		if p := recover(); p != nil {
			infos, order, nodes, err = nil, nil, nil, fmt.Errorf("tag expression %q: %v", tags, p)
		}
	}()
	ts := godog.TestSuite{Options: &godog.Options{FS: fsys, Paths: []string{"."}, Tags: tags, Strict: true}}
	feats, err := ts.RetrieveFeatures()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading the features: %w", err)
	}
	sort.SliceStable(feats, func(i, j int) bool { return feats[i].Uri < feats[j].Uri })
	order = map[string]int{}
	seen := map[string]string{}
	nodes = map[string]node{}
	for _, f := range feats {
		astNodes(f.GherkinDocument, nodes)
		for _, p := range f.Pickles {
			in, err := infoOf(p, f.Feature.Name)
			if err != nil {
				return nil, nil, nil, err
			}
			if prev, dup := seen[in.id]; dup {
				return nil, nil, nil, fmt.Errorf("%s: scenario ID %q is also used by %s", p.Uri, in.id, prev)
			}
			seen[in.id] = p.Uri + ": " + p.Name
			order[p.Id] = len(infos)
			var steps []report.Step
			for _, st := range p.Steps {
				s := report.Step{Text: st.Text, Status: "skipped"}
				if len(st.AstNodeIds) > 0 {
					n := nodes[st.AstNodeIds[0]]
					s.Keyword, s.Line = n.keyword, n.line
				}
				steps = append(steps, s)
			}
			infos = append(infos, pickleInfo{scenarioInfo: in, name: p.Name, line: nodes[p.AstNodeIds[len(p.AstNodeIds)-1]].line, steps: steps})
		}
	}
	return infos, order, nodes, nil
}

// record collects one scenario's outcome while it runs.
type record struct {
	info    scenarioInfo
	name    string
	skip    string
	steps   []report.Step
	failure string
	// observation is the kind the first failing step compares (empty:
	// not told), which attributes the failure (attribution.ForScenario).
	observation string
	// attributed: the clauses the failing step's error names, if any.
	attributed []string
	// departed: the clauses of the first action that departed from the
	// reference (SuiteOptions.Depart), and the line saying so.
	departed   []string
	departNote string
	// implErr: the implementation could not be run during the scenario,
	// so it was not judged.
	implErr string
	// interrupted: the run was interrupted before or while the scenario
	// ran, so it was not judged.
	interrupted bool
	// counterexample is the trace the scenario's world wrote of its
	// failure (a world with a Counterexample method), or "".
	counterexample string
}

// Messages of checks that were not judged.
const (
	msgInterrupted = "not run: the run was interrupted"
	msgNotStarted  = "not run: the implementation could not be started"
)

// Run executes the suite against fresh implementations from o.NewPort.
// The returned error is non-nil only when the suite could not run at all
// (a bad tag expression, broken feature files). An implementation that
// cannot be run, at the start or during scenarios, is reported in
// Result.Impl (wrapping ErrImpl) next to the cases: the scenarios it broke
// or kept from running have the status report.Errored, never Failed. When
// ctx is cancelled, the scenarios not run (or cut short by the
// cancellation) are report.NotRun.
func Run(ctx context.Context, o Options) (Result, error) {
	var res Result
	if o.NewPort == nil {
		return res, errors.New("features.Run: NewPort is required")
	}
	fsys := o.Features
	if fsys == nil {
		fsys = files
	}
	cases, implErr, err := RunSuite(ctx, SuiteOptions{
		FS: fsys, Selection: o.Selection, NotJudged: msgNotStarted,
		Identify: func() (map[string]string, error) {
			probe := o.NewPort()
			id, err := sim.Start(probe)
			if err != nil {
				return nil, fmt.Errorf("%w: start: %v", ErrImpl, err)
			}
			if err := probe.Stop(); err != nil {
				return nil, fmt.Errorf("%w: stop: %v", ErrImpl, err)
			}
			res.Identity = id
			return id.Choices, nil
		},
		NewWorld: func() World { return newWorld(o.NewPort) },
		ForCheck: forCheck(o.PortFor),
		Depart:   departFor(o.Depart),
	})
	res.Cases, res.Impl = cases, implErr
	return res, err
}

// departFor replays a failing plugin-level scenario's run with depart;
// nil without depart.
func departFor(depart func(func() sim.Port, sim.Options, []sim.Action) ([]string, string, error)) func(World) ([]string, string) {
	if depart == nil {
		return nil
	}
	return func(w World) ([]string, string) {
		pw, ok := w.(*world)
		if !ok || pw.rt == nil {
			return nil, ""
		}
		acts := make([]sim.Action, 0, len(pw.history))
		for _, r := range pw.history {
			if !reflect.ValueOf(r.Action).IsZero() { // an action the runtime refused is not one it ran
				acts = append(acts, r.Action)
			}
		}
		cl, note, err := depart(pw.newPort, pw.opts, acts)
		if err != nil {
			return nil, ""
		}
		return cl, note
	}
}

// forCheck points a plugin-level world's port at portFor, told the
// scenario's check; nil without portFor.
func forCheck(portFor func(sim.Check) sim.Port) func(World, sim.Check) {
	if portFor == nil {
		return nil
	}
	return func(w World, c sim.Check) {
		if pw, ok := w.(*world); ok {
			pw.newPort = func() sim.Port { return portFor(c) }
		}
	}
}

// World is the state one scenario runs in: it registers the suite's step
// definitions and says afterwards whether the implementation could be
// judged. A suite at another level (package loop/suite) brings its own.
type World interface {
	Register(sc *godog.ScenarioContext)
	// Unsupported is the first request the implementation declined, or "".
	Unsupported() string
	// ImplErr is the implementation's failure to run, or nil.
	ImplErr() error
	// Close ends the scenario's implementation.
	Close()
}

// SuiteOptions configure RunSuite.
type SuiteOptions struct {
	// FS holds the .feature files.
	FS fs.FS
	Selection
	// Identify starts and stops one implementation to learn the choices it
	// declares: a scenario tagged with another choice is skipped, naming
	// it. An error is the implementation's failure to run (wrapping
	// ErrImpl): every scenario is then listed unjudged, its message
	// NotJudged and the error, and the error is the run's implErr (not
	// when ctx was cancelled: the scenarios are then not run).
	Identify  func() (map[string]string, error)
	NotJudged string
	// NewWorld builds a fresh world for each scenario.
	NewWorld func() World
	// ForCheck, when set, is told each scenario's check before it runs,
	// with the world built for it (the plugin level points its world's
	// port at Options.PortFor there).
	ForCheck func(World, sim.Check)
	// Depart, when set, names a failing scenario's cause from its world
	// (what it ran): the clauses of the first action that departed from
	// the reference and a line saying so; nil clauses leave the failing
	// step's observation or rule to name it.
	Depart func(World) (clauses []string, note string)
}

// RunSuite runs a Gherkin suite with the harness of this package, at
// either level: the implementation identified first, tags (@id, clause
// tags, @choice), strict mode, one report.Case per scenario in file
// order. implErr is the first failure of the implementation to run; err
// that the suite could not run at all (a bad tag expression, broken
// feature files).
func RunSuite(ctx context.Context, o SuiteOptions) (cases []report.Case, implErr error, err error) {
	infos, order, nodes, err := catalog(o.FS, o.Tags)
	if err != nil {
		return nil, nil, err
	}
	choices, err := o.Identify()
	if err != nil {
		status, msg := report.Errored, o.NotJudged+": "+err.Error()
		if ctx.Err() != nil {
			status, msg, err = report.NotRun, msgInterrupted, nil
		}
		for _, in := range infos {
			cases = append(cases, unjudged(in, status, msg))
		}
		return cases, err, nil
	}
	return runSuite(ctx, o, choices, infos, order, nodes)
}

// SuiteScenarios lists a suite's scenarios without running them, each
// with its steps, none run (status "skipped"), so a report of scenarios
// that never ran shows what they would have done.
func SuiteScenarios(fsys fs.FS, tags string) ([]report.Case, error) {
	infos, _, _, err := catalog(fsys, tags)
	if err != nil {
		return nil, err
	}
	out := make([]report.Case, len(infos))
	for i, in := range infos {
		out[i] = report.Case{ID: in.id, Kind: report.KindScenario, Name: in.name, Feature: in.feature, URI: in.uri, Line: in.line, Clauses: in.clauses, Choices: in.choices, Steps: slices.Clone(in.steps)}
	}
	return out, nil
}

func runSuite(ctx context.Context, o SuiteOptions, choices map[string]string, infos []pickleInfo, order map[string]int, nodes map[string]node) ([]report.Case, error, error) {
	fsys := o.FS
	records := make([]*record, len(infos))
	var implErr error

	init := func(sc *godog.ScenarioContext) {
		w := o.NewWorld()
		w.Register(sc)
		var r *record
		sc.Before(func(c context.Context, p *godog.Scenario) (context.Context, error) {
			i, ok := order[p.Id]
			if !ok {
				return c, fmt.Errorf("scenario %q was not in the catalog", p.Name)
			}
			r = &record{info: infos[i].scenarioInfo, name: p.Name}
			records[i] = r
			if o.ForCheck != nil {
				o.ForCheck(w, sim.Check{ID: r.info.id, ProcessLocal: slices.Contains(r.info.clauses, spec.PEND8)})
			}
			if err := c.Err(); err != nil {
				r.interrupted = true
				return c, godog.ErrSkip
			}
			for _, ch := range r.info.choices {
				name, want, _ := strings.Cut(ch, "=")
				got, declared := choices[name]
				if !declared {
					r.skip = fmt.Sprintf("depends on choice %s=%s, which the implementation does not declare", name, want)
					return c, godog.ErrSkip
				}
				if got != want {
					r.skip = fmt.Sprintf("depends on choice %s=%s; the implementation declares %s=%s", name, want, name, got)
					return c, godog.ErrSkip
				}
			}
			return c, nil
		})
		sc.StepContext().After(func(c context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
			if r == nil {
				return c, nil
			}
			s := report.Step{Text: st.Text, Status: status.String()}
			if len(st.AstNodeIds) > 0 {
				n := nodes[st.AstNodeIds[0]]
				s.Keyword, s.Line = n.keyword, n.line
			}
			if err != nil && !errors.Is(err, godog.ErrSkip) {
				s.Error = err.Error()
				if r.failure == "" {
					r.failure = fmt.Sprintf("step %q: %v", st.Text, err)
					r.observation = stepObservation(err)
					r.attributed = stepAttributed(err)
					if rule := stepRule(err); rule != "" {
						r.observation = rule
					}
				}
			}
			if status != godog.StepPassed && status != godog.StepSkipped && r.failure == "" {
				r.failure = fmt.Sprintf("step %q is %s", st.Text, status.String())
			}
			r.steps = append(r.steps, s)
			if err != nil && !errors.Is(err, godog.ErrSkip) && (w.ImplErr() != nil || ctx.Err() != nil) {
				// Not judged (the implementation could not be run, or the
				// run was interrupted): godog's own output and summary
				// count the step, and so the scenario, as skipped, never
				// failed. The report keeps the error (record above).
				return c, godog.ErrSkip
			}
			return c, nil
		})
		sc.After(func(c context.Context, p *godog.Scenario, err error) (context.Context, error) {
			if u := w.Unsupported(); u != "" && r != nil && r.skip == "" {
				r.skip = "not judged: " + u
			}
			if cw, ok := w.(interface{ Counterexample() string }); ok && r != nil {
				r.counterexample = cw.Counterexample()
			}
			ie := w.ImplErr()
			switch {
			case ie != nil && r == nil:
				if implErr == nil {
					implErr = fmt.Errorf("%w: %v", ErrImpl, ie)
				}
			case ie != nil && ctx.Err() != nil:
				// Most likely the interruption ended the implementation.
				r.interrupted = true
			case ie != nil:
				r.implErr = ie.Error()
				if implErr == nil {
					implErr = fmt.Errorf("%w: scenario %s: %v", ErrImpl, r.info.id, ie)
				}
			case r != nil && r.failure != "" && o.Depart != nil && ctx.Err() == nil:
				r.departed, r.departNote = o.Depart(w)
			}
			w.Close()
			return c, nil
		})
	}

	out := o.Output
	if out == nil || o.Format == "" {
		out = io.Discard
	}
	format := o.Format
	if format == "" {
		format = "progress"
	}
	fw := &durationFilter{w: out}
	suite := godog.TestSuite{
		Name:                "plankit",
		ScenarioInitializer: init,
		Options: &godog.Options{
			FS: fsys, Paths: []string{"."}, Tags: o.Tags, Strict: true,
			Format: format, Output: fw, NoColors: true, Randomize: o.Seed,
			Concurrency: 1, DefaultContext: ctx,
		},
	}
	if status := suite.Run(); status == 2 {
		return nil, nil, errors.New("godog refused the run options")
	}
	fw.flush()

	var cases []report.Case
	defer func() { fw.writeSummary(cases) }()
	for i, r := range records {
		c := report.Case{ID: infos[i].id, Kind: report.KindScenario, Name: infos[i].name, Feature: infos[i].feature,
			URI: infos[i].uri, Line: infos[i].line, Clauses: infos[i].clauses, Choices: infos[i].choices}
		switch {
		case r == nil:
			// godog never reached it: only an interruption does that.
			cases = append(cases, unjudged(infos[i], report.NotRun, msgInterrupted))
			continue
		case r.interrupted:
			c.Status, c.Message = report.NotRun, msgInterrupted
		case r.implErr != "":
			c.Status, c.Message = report.Errored, "not judged: the implementation could not be run: "+r.implErr
		case r.skip != "":
			c.Status, c.Message = report.Skipped, r.skip
		case r.failure != "":
			c.Status, c.Message, c.Observed, c.Counterexample = report.Failed, r.failure, r.observation, r.counterexample
			switch {
			case len(r.departed) > 0:
				// named by its cause; the failing step is where it was seen
				c.Attributed = r.departed
				c.Message = r.departNote + "; seen at " + r.failure
			case len(r.attributed) > 0:
				c.Attributed = r.attributed
			case r.observation != "":
				c.Attributed = attribution.ForScenario(r.observation, c.Clauses)
			}
		case len(r.steps) == 0:
			c.Status, c.Message = report.Failed, "no step ran"
		default:
			c.Status = report.Passed
		}
		c.Steps = r.steps
		if len(c.Steps) == 0 && !c.Judged() && c.Status != report.Skipped {
			c.Steps = infos[i].steps
		}
		cases = append(cases, c)
	}
	return cases, implErr, nil
}

// unjudged is the case of a scenario that was not run.
func unjudged(in pickleInfo, status, message string) report.Case {
	return report.Case{ID: in.id, Kind: report.KindScenario, Name: in.name, Feature: in.feature,
		URI: in.uri, Line: in.line, Clauses: in.clauses, Choices: in.choices,
		Status: status, Message: message, Steps: slices.Clone(in.steps)}
}

// durationFilter drops the elapsed-time lines godog's formatters print, so
// console output is the same from run to run. It also holds back godog's
// closing count of scenarios and steps: godog counts a scenario whose
// steps were all skipped as passed, so runSuite prints its own count of
// scenarios, from the cases, before godog's count of steps.
type durationFilter struct {
	w   io.Writer
	buf bytes.Buffer
	// steps is godog's count of steps, held back; summary is set when
	// godog printed its count of scenarios.
	steps   []byte
	summary bool
}

var (
	durationLine  = regexp.MustCompile(`^\s*([0-9]+h)?([0-9]+m)?[0-9.]+(ns|µs|us|ms|s)\s*$`)
	scenariosLine = regexp.MustCompile(`^[0-9]+ scenarios? \(`)
	stepsLine     = regexp.MustCompile(`^[0-9]+ steps? \(`)
)

func (d *durationFilter) Write(p []byte) (int, error) {
	d.buf.Write(p)
	for {
		line, err := d.buf.ReadBytes('\n')
		if err != nil {
			// keep the partial line for later
			rest := append([]byte(nil), line...)
			d.buf.Reset()
			d.buf.Write(rest)
			return len(p), nil
		}
		text := bytes.TrimRight(line, "\n")
		switch {
		case durationLine.Match(text):
		case scenariosLine.Match(text):
			d.summary = true
		case d.summary && stepsLine.Match(text):
			d.steps = append(d.steps[:0], line...)
		default:
			if _, err := d.w.Write(line); err != nil {
				return len(p), err
			}
		}
	}
}

// writeSummary prints the count of scenarios, by the status of their
// cases, and godog's count of steps, where godog printed its counts.
func (d *durationFilter) writeSummary(cases []report.Case) {
	if !d.summary {
		return
	}
	n := map[string]int{}
	for _, c := range cases {
		n[c.Status]++
	}
	var parts []string
	for _, st := range []struct{ status, word string }{{report.Passed, "passed"}, {report.Failed, "failed"}, {report.Skipped, "skipped"},
		{report.Errored, "not judged (the implementation could not be run)"}, {report.NotRun, "not run (interrupted)"}} {
		if n[st.status] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[st.status], st.word))
		}
	}
	fmt.Fprintf(d.w, "%d scenarios (%s)\n", len(cases), strings.Join(parts, ", "))
	_, _ = d.w.Write(d.steps)
}

func (d *durationFilter) flush() {
	if d.buf.Len() > 0 && !durationLine.Match(d.buf.Bytes()) {
		_, _ = d.w.Write(d.buf.Bytes())
	}
	d.buf.Reset()
}

// Kills splits the failing scenarios of a run against a mutant: own are
// those tagged with clause, the clause the mutant breaks (the scenarios
// that kill it), other the rest.
func Kills(cases []report.Case, clause string) (own, other []string) {
	for _, c := range cases {
		switch {
		case c.Status != report.Failed:
		case slices.Contains(c.Clauses, clause):
			own = append(own, c.ID)
		default:
			other = append(other, c.ID)
		}
	}
	return own, other
}
