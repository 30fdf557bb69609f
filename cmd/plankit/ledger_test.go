package main

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/plankit/plankit/attribution"
	"github.com/plankit/plankit/loop"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// TestEveryComparisonRestsOnSpecMD is the assertion ledger's test: every
// observation the kit compares (every kind the attribution table names,
// every field of a plugin-level and a runtime-level expectation — what the
// scenarios' steps and the model's predictions check —, every kind a
// scenario step is registered with) has an entry in attribution.Ledger,
// every rule (lint, runtime invariants and expectations) quotes SPEC.md,
// and every quote is the words of the clause it names, as SPEC.md has
// them. Adding an observation or a rule without its SPEC.md sentence fails
// it.
func TestEveryComparisonRestsOnSpecMD(t *testing.T) {
	path := findSpec("../..")
	switch {
	case path == noSpec && os.Getenv("CI") != "":
		t.Fatal("PLANKIT_SPEC=none: CI must hold the ledger to SPEC.md")
	case path == noSpec:
		t.Skip("PLANKIT_SPEC=none: the ledger is not held to SPEC.md")
	case path == "":
		t.Fatal("SPEC.md not found (shared/SPEC.md beside the checkout or a parent): set PLANKIT_SPEC to its path")
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kinds := attribution.Kinds()
	add := func(k string) {
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	// which agent an expectation reads and which clause it names are not
	// observations
	for _, field := range jsonFields(reflect.TypeFor[trace.Expect]()) {
		k, ok := trace.Observes[field]
		switch {
		case field == "agent":
		case !ok:
			t.Errorf("trace.Expect's field %q names no observation (trace.Observes)", field)
		default:
			add(k)
		}
	}
	for _, field := range append(jsonFields(reflect.TypeFor[loop.Expect]()), "state") {
		k, ok := loop.Observes[field]
		switch {
		case field == "clause":
		case !ok:
			t.Errorf("loop.Expect's field %q names no observation (loop.Observes)", field)
		default:
			add(k)
		}
	}
	for _, k := range stepKinds(t) {
		add(k)
	}
	for _, p := range attribution.LedgerProblems(spec.ListedIn(string(text)), attribution.Ledger, attribution.Checks, kinds) {
		t.Error(p)
	}
}

// jsonFields are a struct's fields by their JSON names (those it writes).
func jsonFields(typ reflect.Type) []string {
	var out []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

// stepKinds are the observation kinds the scenario steps of both levels
// are registered with (observes0..2 in features, and the runtime level's
// expectations, whose kinds loop.Observes names).
func stepKinds(t *testing.T) []string {
	t.Helper()
	var out []string
	re := regexp.MustCompile(`observes\d\(attribution\.(\w+)`)
	files, err := os.ReadDir("../../features")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{
		"ObsLoadError": attribution.ObsLoadError, "ObsError": attribution.ObsError, "ObsOutcome": attribution.ObsOutcome,
		"ObsCommand": attribution.ObsCommand, "ObsDecision": attribution.ObsDecision, "ObsTool": attribution.ObsTool,
		"ObsOrder": attribution.ObsOrder, "ObsSteer": attribution.ObsSteer, "ObsPlanMode": attribution.ObsPlanMode,
		"ObsAttempts": attribution.ObsAttempts, "ObsExitAppend": attribution.ObsExitAppend, "ObsNotices": attribution.ObsNotices,
		"ObsEvents": attribution.ObsEvents, "ObsRequest": attribution.ObsRequest, "ObsGet": attribution.ObsGet,
		"ObsFold": attribution.ObsFold, "ObsListener": attribution.ObsListener, "ObsReply": attribution.ObsReply,
	}
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile("../../features/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			k, ok := consts[m[1]]
			if !ok {
				t.Errorf("features/%s: a step registered with attribution.%s, which this test does not know", f.Name(), m[1])
				continue
			}
			out = append(out, k)
		}
	}
	return out
}
