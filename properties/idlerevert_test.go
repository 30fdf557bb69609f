package properties

import (
	"context"
	"maps"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// declaringRevert is the reference behaving as idle-revert-notice=behaves
// and declaring declares (empty: nothing, the default either).
func declaringRevert(behaves, declares string) func() sim.Port {
	newRef := reference.Factory(reference.Options{Choices: reference.Choices{IdleRevertNotice: behaves}})
	return func() sim.Port { return revertDeclaring{newRef(), declares} }
}

type revertDeclaring struct {
	sim.Port
	declares string
}

func (p revertDeclaring) Start() (sim.Identity, error) {
	id, err := p.Port.Start()
	id.Choices = maps.Clone(id.Choices)
	if p.declares == "" {
		delete(id.Choices, spec.ChoiceIdleRevertNotice)
	} else {
		id.Choices[spec.ChoiceIdleRevertNotice] = p.declares
	}
	return id, err
}

// A plugin that defers an idle commit's narration to the next accepted
// in-turn pre-step (idle-revert-notice=net) and one that injects it at the
// commit (keep, the reference's default) both pass the properties when
// they declare nothing or the reading they follow; declaring the other
// reading fails the narration property.
func TestIdleRevertNoticeReadings(t *testing.T) {
	only := []string{NameNarration, NameStateMachine}
	for _, c := range []struct {
		behaves, declares string
		pass              bool
	}{
		{spec.IdleRevertNoticeNet, "", true},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeEither, true},
		{spec.IdleRevertNoticeKeep, "", true},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeNet, true},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeKeep, false},
		{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeNet, false},
	} {
		cases, err := Run(context.Background(), Options{NewPort: declaringRevert(c.behaves, c.declares), Seed: 1, Checks: 40, Only: only, CounterexampleDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range cases {
			if (k.Status == report.Passed) != c.pass {
				t.Errorf("behaves %s, declares %q: %s %s %s", c.behaves, c.declares, k.ID, k.Status, k.Message)
			}
		}
	}
}
