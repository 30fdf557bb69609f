package mistakes_test

import (
	"slices"
	"testing"

	"github.com/plankit/plankit/examples/mistakes"
	"github.com/plankit/plankit/report"
	"github.com/plankit/plankit/spec"
)

// The Python plugin example narrates a change committed between turns at
// the next accepted in-turn pre-step with --defer-idle-notice (choice
// idle-revert-notice=net: a change reverted before the next request is
// never narrated) and injects the notice at the commit without it (keep).
// Declaring nothing, it passes either way; declaring the reading it does
// not follow (--choice), it fails, named under STEP-6 first.
func TestPythonExampleIdleRevertReadings(t *testing.T) {
	needPython(t)
	_, dir := mistakes.Adapter(mistakes.LevelPlugin, mistakes.ImplPython, "")
	for _, c := range []struct {
		flags string
		pass  bool
	}{
		{"--defer-idle-notice", true},
		{"--defer-idle-notice --choice " + spec.ChoiceIdleRevertNotice + "=" + spec.IdleRevertNoticeNet, true},
		{"--defer-idle-notice --choice " + spec.ChoiceIdleRevertNotice + "=" + spec.IdleRevertNoticeKeep, false},
		{"--choice " + spec.ChoiceIdleRevertNotice + "=" + spec.IdleRevertNoticeNet, false},
	} {
		t.Run(c.flags, func(t *testing.T) {
			t.Parallel()
			code, rep, console := checkAdapter(t, mistakes.LevelPlugin, "python3 adapter.py "+c.flags, dir, true, withProperties)
			if c.pass {
				if code != 0 || rep.Verdict != report.VerdictPass {
					t.Fatalf("exit %d, verdict %s; want a pass\n%s", code, rep.Verdict, console)
				}
				return
			}
			if code != 1 || rep.Verdict != report.VerdictFail {
				t.Fatalf("exit %d, verdict %s; want exit 1, verdict fail\n%s", code, rep.Verdict, console)
			}
			if blamed := mistakes.Blamed(rep.Clauses); !slices.Equal(blamed, []string{spec.STEP6}) {
				t.Errorf("named first %v, want STEP-6\n%s", blamed, failures(rep))
			}
		})
	}
}
