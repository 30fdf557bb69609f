package features

// SpecClauses lists every clause of the SPEC.md version this suite checks,
// in the specification's order. The suite has at least two scenarios for
// each (TestEveryClauseIsCovered).
var SpecClauses = []string{
	"LOG-1", "LOG-2", "LOG-3", "LOG-4",
	"PEND-1", "PEND-2", "PEND-3", "PEND-4", "PEND-5", "PEND-6", "PEND-7", "PEND-8",
	"STEP-1", "STEP-2", "STEP-3", "STEP-4", "STEP-5", "STEP-6", "STEP-7",
	"CFG-1", "CFG-2",
	"EXIT-1", "EXIT-2", "EXIT-3", "EXIT-4", "EXIT-5", "EXIT-6", "EXIT-7",
	"CMD-1", "CMD-2", "CMD-3", "CMD-4",
	"SVC-1", "SVC-2", "SVC-3", "SVC-4",
}
