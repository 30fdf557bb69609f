package sim

// FaultAction arms faults: the next Appends appends the implementation
// attempts fail (the request says so, FailAppends); a restart disarms
// them. Runtime-wide. Example:
//
//	fault: {appends: 1}
type FaultAction struct {
	Appends int `json:"appends"`
}

var _ = declare(kind[FaultAction]{
	name: "fault",
	of:   func(a *Action) **FaultAction { return &a.Fault },
	apply_: func(r *Runtime, _ *Result, f *FaultAction) error {
		r.fail += f.Appends
		return nil
	},
	refuses_: func(_ State, f *FaultAction) string { return unless(f.Appends >= 0, "appends must not be negative") },
	schema:   `{"type": "object", "additionalProperties": false, "required": ["appends"], "properties": {"appends": {"type": "integer", "minimum": 0}}}`,
	draws: []Draw{
		{Name: "fault", Default: true, Make: func(w World, c Chooser) (Action, bool) {
			return Action{Fault: &FaultAction{Appends: 1 + c.Intn("appends", 2)}}, true
		}},
		{Name: "fault-pending", Default: true, Make: func(w World, c Chooser) (Action, bool) {
			// A fault armed while a selection waits in an open turn: the next
			// pre-step's append fails, so the following tool batch runs with
			// the selection still pending (EXIT-2, EXIT-5, STEP-5).
			_, ok := pickAgent(w, c, func(n string) bool { return w.Open(n) && w.Pending(n) })
			return Action{Fault: &FaultAction{Appends: 1}}, ok
		}},
	},
})
