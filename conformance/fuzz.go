package conformance

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/plankit/plankit/lockstep"
	"github.com/plankit/plankit/properties"
	"github.com/plankit/plankit/sim"
)

// FuzzOptions configure Fuzz. Only NewPort is required.
type FuzzOptions struct {
	// NewPort starts a fresh instance of the implementation under test;
	// the fuzz target reaches it only through this factory.
	NewPort func() sim.Port
	// Choices are the implementation's picks for the silent points it does
	// not declare at Start (as Options.Choices).
	Choices map[string]string
	// Assume names known deviations, as reference variants the reference
	// then follows (as DiffOptions.Assume).
	Assume []string
	// Steps bounds the actions one input draws (0: DefaultDiffSteps).
	Steps int
	// Out receives the plankit trace of each failing input the target
	// replays (empty: testdata/plankit/NAME, NAME the fuzz target's,
	// beside the testdata/fuzz/NAME where Go keeps the inputs).
	Out string
}

// fuzzWeights bias the draw of an input's actions toward those that move
// plan state (selections, steps, retries, the exit tool), and draw every
// other kind now and then: the fuzzer's coverage guidance finds the rest.
var fuzzWeights = properties.Weights{"set": 4, "step": 6, "step-exit": 3, "command": 3, "prompt": 3, "end-turn": 2, "retry": 2,
	"step-reply": 2, "step-host-tool": 2, "step-empty": 2, "load": 1, "unload": 1, "append": 1, "append-malformed": 1, "open": 1, "open-malformed": 1}

// Fuzz makes f a fuzz target for Go's fuzzer (go test -fuzz): each input
// is read as a run's setup and a sequence of up to Steps actions (the
// bytes pick among the actions the model of SPEC.md finds valid, so any
// input is a valid sequence), which the implementation and the reference
// run side by side, as Diff compares its sequences. The coverage of the
// implementation's own code guides the search. Call it from a fuzz test:
//
//	func FuzzPlanMode(f *testing.F) {
//		conformance.Fuzz(f, conformance.FuzzOptions{NewPort: planmode.NewPort})
//	}
//
// A divergence fails the input, naming the observation and its clauses,
// and Go keeps the input in testdata/fuzz/NAME, as it does every failing
// input. Replayed (go test, or go test -run=NAME/INPUT), a kept input also
// writes its divergence, shrunk, as a plankit trace under Out, which
// Replay and plankit sim --adapter replay; the failure says where. (While
// the fuzzer searches, the inputs run in worker processes that write no
// trace: Go minimizes each failing input there, and would otherwise leave
// one trace for every smaller input it tries.)
func Fuzz(f *testing.F, opts FuzzOptions) {
	f.Helper()
	if opts.NewPort == nil {
		f.Fatal("conformance.Fuzz: no implementation: FuzzOptions.NewPort is nil")
	}
	if err := checkChoices(opts.Choices); err != nil {
		f.Fatalf("conformance.Fuzz: %v", err)
	}
	steps := opts.Steps
	if steps <= 0 {
		steps = DefaultDiffSteps
	}
	out := opts.Out
	if out == "" {
		out = filepath.Join("testdata", "plankit", f.Name())
	}
	fz := &fuzzer{newPort: declared(opts.NewPort, opts.Choices), assume: opts.Assume, steps: steps, out: out, worker: fuzzWorker()}
	f.Fuzz(func(t *testing.T, data []byte) { fz.one(t, data) })
}

// fuzzer runs a fuzz target's inputs.
type fuzzer struct {
	newPort func() sim.Port
	assume  []string
	steps   int
	out     string
	// worker: the process is one of the fuzzer's workers (no trace is
	// written).
	worker bool
	probe  struct {
		sync.Once
		id  sim.Identity
		err error
	}
}

// one runs one input: its sequence beside the reference; a divergence
// fails t (and, outside a fuzzing worker, is written as a trace).
func (fz *fuzzer) one(t testing.TB, data []byte) {
	t.Helper()
	fz.probe.Do(func() { fz.probe.id, fz.probe.err = start(fz.newPort) })
	if fz.probe.err != nil {
		t.Fatalf("conformance.Fuzz: the implementation could not be started: %v", fz.probe.err)
		return
	}
	setup, acts := decode(data, fz.probe.id, fz.steps)
	d, err := lockstep.Attribute(fz.newPort, fz.assume, setup, acts)
	if err != nil {
		fatalImpl(t, err)
		return
	}
	if d == nil {
		return
	}
	msg := fmt.Sprintf("divergence on %s after %d actions", d, len(acts))
	target := fuzzTarget(t)
	if fz.worker {
		t.Fatalf("%s\nthe fuzzer keeps this input in testdata/fuzz/%s: go test -run=%s/INPUT (Go names INPUT below) replays it and writes it as a plankit trace under %s", msg, target, target, fz.out)
		return
	}
	input := strings.TrimPrefix(t.Name(), target+"/")
	div, err := lockstep.Sequence(lockstep.Options{NewImpl: fz.newPort, Assume: fz.assume, Out: fz.out}, "fuzz-"+safeName(input), setup, acts)
	if err != nil {
		fatalImpl(t, err)
		return
	}
	if div == nil {
		t.Fatalf("%s\nreplayed once more, the implementation agreed with the reference: it does not do the same on the same sequence", msg)
		return
	}
	t.Fatalf("%s\nreplay the input: go test -run='^%s$'", describeDivergence(div), t.Name())
}

// fatalImpl fails t for an error that kept a sequence from being compared.
func fatalImpl(t testing.TB, err error) {
	t.Helper()
	var ie *sim.ImplError
	if errors.As(err, &ie) {
		t.Fatalf("conformance.Fuzz: the implementation could not be run: %v", err)
	}
	t.Fatalf("conformance.Fuzz: %v", err)
}

// start learns who the implementation is from one instance.
func start(newPort func() sim.Port) (sim.Identity, error) {
	p := newPort()
	id, err := sim.Start(p)
	if err != nil {
		return id, err
	}
	return id, p.Stop()
}

// fuzzTarget is the fuzz target's name, t's name up to its first slash.
func fuzzTarget(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return name
}

// fuzzWorker reports whether the process is one of the fuzzer's workers
// (go test -fuzz runs the inputs there, started with -test.fuzzworker).
func fuzzWorker() bool {
	fl := flag.Lookup("test.fuzzworker")
	return fl != nil && fl.Value.String() == "true"
}

// safeName is name with only the characters a file name may safely hold.
func safeName(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, name)
}

// decode reads a fuzzer's input as a run's setup and its actions: each
// choice a generator makes takes the next bytes, and the sequence ends
// with the input (or at steps actions). The setup draws the host's own
// tools and skipped empty steps only where id declares them, and the
// model the actions are drawn against is the one of id's choices, so
// every input is a sequence the model finds valid.
func decode(data []byte, id sim.Identity, steps int) (properties.Setup, []sim.Action) {
	c := &byteChooser{data: data}
	setup := properties.Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}
	var acts []sim.Action
	func() {
		defer c.stop()
		setup = properties.DrawSetup(c)
		if c.Intn("host", 2) == 1 {
			setup = properties.DrawHost(c, setup).Within(id)
		}
		m := properties.NewModel(setup, properties.ChoicesOf(id.Choices))
		m.ReviewReplies = id.ReviewReplies
		if c.Intn("config-case", 8) == 0 {
			configs := properties.Configs()
			svc := setup.Services
			acts = append(acts, sim.Action{Load: &sim.LoadAction{Config: []byte(configs[c.Intn("config", len(configs))]), Services: &svc}})
		}
		for len(acts) < steps {
			act := properties.Draw(m, c, fuzzWeights)
			m.Apply(act)
			acts = append(acts, act)
		}
	}()
	return setup, acts
}

// byteChooser draws from a fuzzer's input: each choice among n takes one
// byte (two when n exceeds 256), and the input's end stops the draw
// (errInputEnd, recovered by stop).
type byteChooser struct {
	data []byte
}

// errInputEnd ends a draw at the end of the input.
var errInputEnd = errors.New("the end of the input")

// Intn implements sim.Chooser.
func (c *byteChooser) Intn(_ string, n int) int {
	if n <= 1 {
		return 0
	}
	need := 1
	if n > 256 {
		need = 2
	}
	if len(c.data) < need {
		panic(errInputEnd)
	}
	v := int(c.data[0])
	if need == 2 {
		v = v<<8 | int(c.data[1])
	}
	c.data = c.data[need:]
	return v % n
}

// stop ends a draw that reached the end of the input, keeping what was
// drawn; any other panic goes on.
func (c *byteChooser) stop() {
	if r := recover(); r != nil && r != errInputEnd {
		panic(r)
	}
}
