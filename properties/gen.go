package properties

import "github.com/plankit/plankit/sim"

// Chooser is the source of every random choice a generator makes: rapid's
// draws under `go test`, a seeded PRNG under Run. Intn returns a value in
// [0, n).
type Chooser = sim.Chooser

// MaxAgents bounds forks: main, side and up to two forks.
const MaxAgents = sim.MaxDrawnAgents

// Kind is one kind of generated action: a name weights refer to and how it
// is drawn. Each action's file in sim declares its kinds.
type Kind = sim.Draw

// Kinds is every generated action kind, from sim's action table.
var Kinds = sim.Draws()

// Weights bias the draw of kinds; a missing kind has weight 1 when it is
// drawn by default (Kind.Default), else 0: a kind added later is drawn only
// where weighted, so it leaves every seeded sequence as it was.
type Weights map[string]int

// Draw picks a valid action from the weighted kinds.
func Draw(m *Model, c Chooser, w Weights) sim.Action {
	for {
		total := 0
		for _, k := range Kinds {
			total += weight(w, k)
		}
		n := c.Intn("kind", total)
		for _, k := range Kinds {
			n -= weight(w, k)
			if n < 0 {
				if act, ok := k.Make(m, c); ok && m.Valid(act) {
					return act
				}
				break
			}
		}
	}
}

func weight(w Weights, k Kind) int {
	if v, ok := w[k.Name]; ok {
		return v
	}
	if k.Default {
		return 1
	}
	return 0
}

// DrawSetup draws a run's configuration: which services are composed and
// how request-recovery retries run.
func DrawSetup(c Chooser) Setup {
	s := Setup{Services: sim.Services{Commands: true, UserQuestions: true}, Retries: sim.RetriesPreStep}
	switch c.Intn("services", 6) {
	case 0:
		s.Services.Commands = false
	case 1:
		s.Services.UserQuestions = false
	}
	if c.Intn("retries", 3) == 0 {
		s.Retries = sim.RetriesSameStep
	}
	return s
}

// DrawHost draws, beside a drawn setup, whether the host has tools of its
// own and whether its runtime skips an accepted step that carries no
// messages. Drawn whatever the implementation declares, so the draws that
// follow do not depend on it; Setup.Within clears what it cannot be shown.
func DrawHost(c Chooser, s Setup) Setup {
	s.HostTools = c.Intn("host-tools", 4) != 0
	if c.Intn("empty-steps", 2) == 0 {
		s.EmptySteps = sim.EmptyStepsSkip
	}
	return s
}
