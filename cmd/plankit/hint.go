package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/plankit/plankit/adapter"
	"github.com/plankit/plankit/conformance"
	"github.com/plankit/plankit/internal/safetext"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/loop/suite"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// announce has check say, once the implementation has started, who it is
// checking against which suite, and for an adapter how long the run is.
// The flag it returns is set then: a run whose implementation never
// started prints no summary.
func announce(w io.Writer, o *checkOptions, opts *conformance.Options) *bool {
	started := new(bool)
	opts.Started = func(id sim.Identity) {
		*started = true
		fmt.Fprintf(w, "plankit check: %s %s (%s)%s, suite %s, seed %d\n", safetext.Line(id.Name), safetext.Line(id.Version), safetext.Line(id.Language), components(id.Components), spec.SuiteVersion, o.seed)
		printAdapterHint(w, o, *opts)
	}
	return started
}

// printAdapterHint tells the author of an adapter, as its check starts, how
// much work the run is and how to make it shorter. It depends only on the
// options, so the output stays deterministic.
func printAdapterHint(w io.Writer, o *checkOptions, opts conformance.Options) {
	if o.impl.adapter == "" {
		return
	}
	scenarios, props, _ := conformance.Size(opts)
	cases, each := props*o.checks, fmt.Sprintf("%d properties × %d cases", props, o.checks)
	if o.level.runtime() && props > 0 {
		// the focused runtime properties run a share of --checks
		cases = suite.PropertyScripts(o.checks)
		each = fmt.Sprintf("%d properties, %d cases in all", props, cases)
	}
	fmt.Fprintf(w, "plankit check: this run starts the adapter about %d times (%d scenarios, %s, plus restarts); "+
		"a full check with --checks 100 takes about a minute through a Go adapter and up to ten through a Node or Python one "+
		"(docs/performance.md). --checks 25 runs a quarter of the property cases; --only features or --tags select less.\n",
		scenarios+cases, scenarios, each)
}

// replayCommand is the command that replays a counterexample trace against
// the implementation the flags name, up to the trace's path: plankit sim
// with the level, the adapter (its command and directory), the reference's
// mutant and choices, the built-in runtime's retry behaviour and the
// adapter options that differ from their defaults. Each word is quoted for
// a POSIX shell, so the printed line runs as it is.
func replayCommand(f *implFlags, l *levelFlags) string {
	words := []string{"plankit", "sim"}
	add := func(flag, value string) { words = append(words, flag, shellQuote(value)) }
	if l != nil && l.runtime() {
		add("--level", levelRuntime)
		if l.retry != "" && l.retry != loop.RetryPreStep {
			add("--retry", l.retry)
		}
	}
	if f.mutant != "" {
		add("--mutant", f.mutant)
	}
	for _, c := range f.choices {
		add("--choice", c)
	}
	if f.adapter != "" {
		add("--adapter", f.adapter)
		if f.adapterDir != "" {
			add("--adapter-dir", f.adapterDir)
		}
		if f.timeout != adapter.DefaultTimeout {
			add("--timeout", f.timeout.String())
		}
		if f.startTO != adapter.DefaultStartTimeout {
			add("--start-timeout", f.startTO.String())
		}
		if f.restarts != "" && f.restarts != string(adapter.RestartAuto) {
			add("--restarts", f.restarts)
		}
	}
	return strings.Join(words, " ")
}

// withReplays is rep as the console shows it: each failure that wrote a
// counterexample trace says how to replay it against the implementation
// (replay, then the trace's path). The report files name the trace only,
// so they are the same whoever ran the check (conformance.Run).
func withReplays(rep report.Run, replay string) report.Run {
	rep.Cases = slices.Clone(rep.Cases)
	for i, c := range rep.Cases {
		if c.Counterexample != "" && (c.Failing() || c.Status == report.ExpectedFailed) {
			rep.Cases[i].Message += fmt.Sprintf(" (replay: %s %s)", replay, shellQuote(c.Counterexample))
		}
	}
	return rep
}

// shellQuote quotes s as one word of a POSIX shell: as it is when it is
// made of characters no shell treats specially, else in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// components lists an implementation's components for the line check
// prints as it starts: ", components: NAME VERSION, ..." ("" for none).
func components(cs []sim.Component) string {
	if len(cs) == 0 {
		return ""
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = safetext.Line(c.Name) + " " + safetext.Line(c.Version)
	}
	return ", components: " + strings.Join(parts, ", ")
}
