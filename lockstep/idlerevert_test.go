package lockstep

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/plankit/plankit/reference"
	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
)

// revertDeclaring is the reference behaving as idle-revert-notice=behaves
// and declaring declares (empty: nothing, the default either).
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

func declaringRevert(behaves, declares string) func() sim.Port {
	newRef := reference.Factory(reference.Options{Choices: reference.Choices{IdleRevertNotice: behaves}})
	return func() sim.Port { return revertDeclaring{newRef(), declares} }
}

// A plugin that defers an idle commit's narration to the next accepted
// in-turn pre-step (idle-revert-notice=net) and one that injects it at the
// commit (keep) agree with the reference when they declare nothing (either:
// a diverging sequence passes when the other reading's reference agrees at
// every action) or the reading they follow; declaring the other reading
// diverges under STEP-6 or STEP-7, the clauses the choice refines.
func TestLockstepIdleRevertNoticeReadings(t *testing.T) {
	for _, c := range []struct {
		behaves, declares string
		diverges          bool
	}{
		{spec.IdleRevertNoticeNet, "", false},
		{spec.IdleRevertNoticeKeep, "", false},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeNet, false},
		{spec.IdleRevertNoticeNet, spec.IdleRevertNoticeKeep, true},
		{spec.IdleRevertNoticeKeep, spec.IdleRevertNoticeNet, true},
	} {
		res, err := Run(context.Background(), Options{NewImpl: declaringRevert(c.behaves, c.declares), Seed: 1, Cases: 200, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		d := res.Divergence
		if (d != nil) != c.diverges {
			t.Errorf("behaves %s, declares %q: divergence %v, want %v", c.behaves, c.declares, d != nil && d.Summary() != "", c.diverges)
			if d != nil {
				t.Log(d.Summary())
			}
			continue
		}
		if d == nil {
			continue
		}
		t.Log(d.Summary())
		if len(d.Clauses) == 0 || !slices.Contains([]string{spec.STEP6, spec.STEP7}, d.Clauses[0]) {
			t.Errorf("behaves %s, declares %s: clauses %v, want STEP-6 or STEP-7 first", c.behaves, c.declares, d.Clauses)
		}
		if !d.Reproduced || !d.PassesReference {
			t.Errorf("behaves %s, declares %s: trace reproduced %v, passes the reference %v", c.behaves, c.declares, d.Reproduced, d.PassesReference)
		}
	}
}
