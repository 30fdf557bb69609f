package properties

import (
	"encoding/json"

	"github.com/plankit/plankit/sim"
	"github.com/plankit/plankit/spec"
	"github.com/plankit/plankit/trace"
)

// Info describes a property: its stable name, the SPEC.md clauses it
// checks and what it asserts.
type Info struct {
	Name    string
	Clauses []string
	Doc     string
}

// property is a named property: how it biases generation and which
// expectations it derives from the model's prediction of each action.
type property struct {
	Info
	weights Weights
	// expect returns the obligations for one action: expectations the
	// implementation's result must meet, each naming its agent.
	expect func(act sim.Action, p Prediction) []trace.Expect
	// choices names the silent-point choices the property's predictions
	// depend on.
	choices []string
	// kind selects a special runner: "" (a model-driven sequence),
	// "determinism" or "config".
	kind string
	// processLocal: the property is about what a restart loses, so an
	// implementation behind an adapter is restarted for real in every case
	// (sim.Check.ProcessLocal).
	processLocal bool
	// assume is the known deviations the model predicts in this run.
	assume Deviations
	// host: the run's setup also draws the host's own tools and a runtime
	// that skips empty steps (DrawHost).
	host bool
	// id is who the implementation of this run said it is: generated
	// setups draw only what it declares it can be shown (Setup.Within).
	id sim.Identity
}

// Property names.
const (
	NameStateMachine  = "model-state-machine"
	NameFoldPurity    = "fold-purity-LOG-2-LOG-3"
	NameAppendAccept  = "append-after-accept-STEP-1-STEP-3-STEP-7"
	NamePending       = "pending-cancel-PEND-1-PEND-5"
	NameNarration     = "narration-exactly-when-STEP-6-EXIT-5"
	NameRecovery      = "recovery-LOG-3-PEND-8"
	NameToolCatalog   = "stable-tool-catalog-EXIT-1"
	NameDeterminism   = "determinism-same-seed-same-log"
	NameConfig        = "config-exact-CFG-1"
	NameService       = "service-surface-SVC-1-SVC-4"
	NameSoftGuidance  = "soft-guidance-SVC-3"
	NameOptional      = "optional-package-SVC-2"
	NameOutside       = "outside-writers-LOG-1-LOG-3"
	NameLifecycle     = "service-lifecycle-SVC-1-SVC-2-PEND-8"
	NameReviews       = "review-outcomes-EXIT-4-EXIT-7"
	NameHost          = "host-tools-and-empty-steps-EXIT-1-SVC-3-PEND-2"
	defaultChecks     = 100
	defaultSteps      = 40
	explorationPrefix = "explore"
)

var props = []property{
	{
		Info: Info{NameStateMachine, []string{spec.LOG1, spec.LOG2, spec.LOG3, spec.LOG4, spec.PEND1, spec.PEND2, spec.PEND3, spec.PEND4, spec.PEND5, spec.PEND6, spec.PEND7, spec.PEND8, spec.STEP1, spec.STEP2, spec.STEP3, spec.STEP4, spec.STEP5, spec.STEP6, spec.STEP7, spec.CFG2, spec.EXIT1, spec.EXIT2, spec.EXIT3, spec.EXIT4, spec.EXIT5, spec.EXIT6, spec.EXIT7, spec.CMD1, spec.CMD2, spec.CMD3, spec.CMD4},
			"Random action sequences over several agents; after every action the implementation's outcome, get() of every touched agent, the events appended (types, plan/mode and request/header data, message order), notices, section, tools, tool and command results and folds equal the abstract model's prediction."},
		weights: Weights{"step": 10, "step-exit": 3, "set": 5, "prompt": 3, "command": 3, "end-turn": 2, "retry": 6},
		expect:  fullExpect,
		choices: []string{spec.ChoiceFoldEnd, spec.ChoiceCancelPending, spec.ChoiceSectionSource, spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure, spec.ChoiceIdleRevertNotice},
	},
	{
		Info: Info{NameFoldPurity, []string{spec.LOG2, spec.LOG3},
			"foldPlanMode over any prefix of a live log, over hand-made event lists mixing plan/mode with other events, and at the end edge cases (negative, beyond the log; choice fold-end) equals the fold of the model's copy of the log; get().active always equals the fold of the whole log."},
		weights: Weights{"fold": 8, "set": 3, "step": 3, "prompt": 2},
		choices: []string{spec.ChoiceFoldEnd, spec.ChoiceIdleAppendFailure},
		expect: func(act sim.Action, p Prediction) []trace.Expect {
			out := stateExpects(p, true, false)
			return append(out, foldExpects(act, p)...)
		},
	},
	{
		Info: Info{NameAppendAccept, []string{spec.STEP1, spec.STEP2, spec.STEP3, spec.STEP5, spec.STEP7},
			"plan/mode is appended only at an accepted pre-step of an open turn (turn 1 step 1, continuations, request-recovery retries), after the downstream listeners accepted, before step/start and the request header, whose section already shows the new state; rejected or aborted steps and failed appends leave the selection pending; nothing else appends during a turn."},
		weights: Weights{"step": 10, "retry": 8, "set": 5, "prompt": 3, "fault": 2, "end-turn": 2, "fork": 0, "fold": 0},
		choices: []string{spec.ChoiceSectionSource, spec.ChoiceCancelPending, spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure, spec.ChoiceIdleRevertNotice},
		expect: func(act sim.Action, p Prediction) []trace.Expect {
			var out []trace.Expect
			for _, ap := range p.Agents {
				x := trace.Expect{Agent: ap.Agent, PlanMode: ap.Plan}
				if act.Step != nil || act.Retry != nil {
					x.Appended = append([]trace.EventExpect{}, ap.Events...)
					x.Decision = p.Decision
					x.Section = ap.Request
				}
				out = append(out, x)
			}
			return out
		},
	},
	{
		Info: Info{NamePending, []string{spec.PEND1, spec.PEND2, spec.PEND3, spec.PEND4, spec.PEND5, spec.PEND6, spec.PEND7, spec.CMD2, spec.CMD4},
			"Selections inside a turn leave the log untouched until the boundary and set/`/plan` return queued, cancelled or noop by the pending and logged state; the net effect is the last selection and a net-zero sequence appends nothing; between turns a change commits at once; get() reports pending exactly while a selection waits (choice cancel-pending)."},
		weights: Weights{"set": 7, "command": 4, "step": 3, "prompt": 3, "end-turn": 2, "get": 2, "fold": 0},
		choices: []string{spec.ChoiceCancelPending, spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure},
		expect: func(act sim.Action, p Prediction) []trace.Expect {
			out := stateExpects(p, true, true)
			for i := range out {
				out[i].PlanMode = p.Agents[i].Plan
			}
			if len(out) > 0 && act.Set != nil {
				out[0].Outcome = p.Outcome
			}
			if len(out) > 0 && act.Command != nil {
				out[0].Command = p.Command
			}
			return out
		},
	},
	{
		Info: Info{NameNarration, []string{spec.STEP6, spec.EXIT5},
			"A plan-mode notice is logged exactly when a user selection is appended and the last request header described the other state, once per change, in that step's messages (or the next step's for an idle commit); the exit tool's approved exit is never narrated."},
		weights: Weights{"step": 10, "step-exit": 5, "set": 6, "command": 3, "prompt": 3, "end-turn": 2, "fault-pending": 4, "fold": 0},
		choices: []string{spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure, spec.ChoiceIdleRevertNotice},
		expect: func(act sim.Action, p Prediction) []trace.Expect {
			var out []trace.Expect
			for _, ap := range p.Agents {
				n := ap.Notices
				x := trace.Expect{Agent: ap.Agent, Notices: &n}
				if act.Step != nil && ap.Agent == act.Agent() {
					x.Tool = p.Tool
				}
				out = append(out, x)
			}
			return out
		},
	},
	{
		Info: Info{NameRecovery, []string{spec.LOG3, spec.PEND8},
			"After a restart at any point every agent's state is the fold of its log and no selection is pending; only selections made after the last accepted pre-step are lost; reload (choice reload-pending), fork and compaction keep the logged state."},
		weights: Weights{"restart": 4, "fork": 2, "compact": 2, "reload": 2, "set": 4, "step": 4, "prompt": 3, "fold": 0},
		choices: []string{spec.ChoiceReloadPending, spec.ChoiceCancelPending, spec.ChoiceIdleAppendFailure},
		expect: func(act sim.Action, p Prediction) []trace.Expect {
			return stateExpects(p, true, act.Restart != nil || act.Reload != nil || act.Fork != nil)
		},
		processLocal: true,
	},
	{
		Info: Info{NameToolCatalog, []string{spec.EXIT1, spec.CFG2},
			"Every request's tool catalog is exactly the host's own tools (when the host has some: registered before the plugin, and added by an assembly listener after plan mode's), in the host's order, then exit_plan_mode, whether plan mode is active or not; entering or leaving plan mode changes only the plan:policy section."},
		weights: Weights{"step": 8, "set": 4, "prompt": 3, "end-turn": 2, "fold": 0},
		choices: []string{spec.ChoiceSectionSource},
		expect: func(act sim.Action, p Prediction) []trace.Expect {
			var out []trace.Expect
			for _, ap := range p.Agents {
				if ap.Request != nil {
					out = append(out, trace.Expect{Agent: ap.Agent, Tools: ap.Tools, Section: ap.Request})
				}
			}
			return out
		},
	},
	{
		Info: Info{NameHost, []string{spec.EXIT1, spec.SVC3, spec.PEND2, spec.STEP6, spec.STEP7},
			"The whole model over runs whose host has tools of its own (registered before the plugin, and added by an assembly listener after plan mode's) and whose runtime may skip an accepted step that carries no messages: every request's catalog is the host's tools in order plus exit_plan_mode, in or out of plan mode; every host tool call runs; no notice turns a skipped step into one that runs, and the selection goes where the choice empty-step says."},
		weights: Weights{"step": 8, "step-host-tool": 5, "step-empty": 5, "step-exit": 2, "set": 6, "prompt": 3, "command": 2, "end-turn": 2, "retry": 2, "fold": 0},
		expect:  fullExpect,
		choices: []string{spec.ChoiceEmptyStep, spec.ChoiceCancelPending, spec.ChoiceSectionSource, spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure, spec.ChoiceIdleRevertNotice},
		host:    true,
	},
	{
		Info: Info{NameDeterminism, []string{spec.LOG3},
			"The same action sequence run twice against fresh instances gives the same results and logs byte for byte."},
		weights: Weights{"step": 4, "set": 3, "prompt": 3},
		kind:    "determinism",
	},
	{
		Info: Info{NameConfig, []string{spec.CFG1},
			"A config loads exactly when it is an object whose only key is a non-blank string section; a missing, blank or non-string section and any unknown key fail at load."},
		kind: "config",
	},
	{
		Info: Info{NameService, []string{spec.SVC1, spec.SVC4},
			"The service surface the generated catalog documents: set returns exactly one of committed, queued, cancelled or noop (the one the model predicts), /plan replies by the same rules, and get returns {active, pending?} with pending present exactly while a selection waits."},
		weights: Weights{"set": 10, "get": 6, "command": 4, "prompt": 3, "step": 3, "end-turn": 2, "fold": 0},
		choices: []string{spec.ChoiceCancelPending, spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure},
		expect: func(act sim.Action, p Prediction) []trace.Expect {
			out := stateExpects(p, true, true)
			if len(out) > 0 && act.Set != nil {
				out[0].Outcome = p.Outcome
				out[0].Error = ptr(p.Error)
			}
			if len(out) > 0 && act.Command != nil {
				out[0].Command = p.Command
			}
			return out
		},
	},
	{
		Info: Info{NameSoftGuidance, []string{spec.SVC3},
			"Plan mode is soft guidance: in or out of plan mode the plugin never changes a step's decision (every step the downstream listeners accept runs, every step they reject stays rejected), never blocks a call of the host's own tools, and writes plan state only as the plan/mode events the model predicts."},
		weights: Weights{"step": 10, "step-exit": 3, "set": 5, "command": 2, "prompt": 3, "end-turn": 2, "fold": 0},
		choices: []string{spec.ChoiceSectionSource, spec.ChoiceIdleAppendFailure},
		expect: func(act sim.Action, p Prediction) []trace.Expect {
			var out []trace.Expect
			for _, ap := range p.Agents {
				x := trace.Expect{Agent: ap.Agent, PlanMode: ap.Plan}
				if ap.Agent == act.Agent() && (act.Step != nil || act.Retry != nil) {
					x.Decision = p.Decision
				}
				if ap.Agent == act.Agent() && HostCall(act) {
					x.Tool = p.Tool
				}
				out = append(out, x)
			}
			return out
		},
	},
	{
		Info: Info{NameOptional, []string{spec.SVC2},
			"Without the plan-mode package the agent loop still runs every turn and step, and no plan/mode event, plan:policy section, exit_plan_mode tool or /plan command ever exists."},
		kind: "without-package",
	},
	{
		Info: Info{NameOutside, []string{spec.LOG1, spec.LOG2, spec.LOG3, spec.STEP6},
			"Other processes append to live logs (plan/mode with either value, data that is not exactly {active: boolean}, other events) and agents start from given logs; after every action the state in force is the fold of the log at once — get(), the next request's section, the exit tool's gate, set's outcome — plan/mode data is read as the declared choices plan-mode-data and plan-mode-malformed say (data with no boolean active is drawn only where the implementation declares plan-mode-malformed), and everything else equals the model's prediction."},
		weights: Weights{"append": 5, "append-malformed": 2, "open": 2, "open-malformed": 1, "set": 4, "command": 2, "step": 8, "step-exit": 2, "prompt": 3, "end-turn": 2, "get": 2, "retry": 3, "fold": 0},
		expect:  fullExpect,
		choices: []string{spec.ChoiceFoldEnd, spec.ChoiceCancelPending, spec.ChoiceSectionSource, spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure, spec.ChoicePlanModeData, spec.ChoicePlanModeMalformed, spec.ChoiceIdleRevertNotice},
	},
	{
		Info: Info{NameLifecycle, []string{spec.SVC1, spec.SVC2, spec.PEND8},
			"The plugin is unloaded at any point and loaded again later: while unloaded no plan/mode is appended and no plan:policy section, exit_plan_mode tool or /plan command exists, and the loop runs every step; pending selections are lost with the service; a later load starts clean from the log (its fold, nothing pending, no queued notice), and everything else equals the model's prediction."},
		weights:      Weights{"unload": 2, "load": 4, "set": 6, "command": 3, "step": 8, "step-exit": 2, "prompt": 3, "end-turn": 2, "restart": 1, "retry": 3, "fold": 0},
		expect:       fullExpect,
		choices:      []string{spec.ChoiceCancelPending, spec.ChoiceSectionSource, spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure, spec.ChoiceIdleRevertNotice},
		processLocal: true,
	},
	{
		Info: Info{NameReviews, []string{spec.EXIT4, spec.EXIT5, spec.EXIT6, spec.EXIT7},
			"Random sequences weighted to the exit tool, whose reviews, for an implementation that declares reviewReplies, include every kind of seam reply (another question answered, both options, several answers, free text alone, none) and every way the seam fails (throws, aborted, refused, unavailable); after every action everything the model predicts holds: only one answer to the review question selecting the approving option alone approves, anything else keeps planning or fails, and plan mode is never left implicitly."},
		weights: Weights{"step-reply": 8, "step-exit": 4, "step": 5, "set": 3, "prompt": 3, "end-turn": 2, "retry": 2, "command": 1, "fold": 0},
		expect:  fullExpect,
		choices: []string{spec.ChoiceCancelPending, spec.ChoiceSectionSource, spec.ChoiceReloadPending, spec.ChoiceIdleAppendFailure, spec.ChoiceIdleRevertNotice},
	},
}

// Lookup returns the property named name, and false when there is none.
func Lookup(name string) (Info, bool) {
	if p := lookup(name); p != nil {
		return p.Info, true
	}
	return Info{}, false
}

// Catalog lists every property with its clauses, in a fixed order.
func Catalog() []Info {
	out := make([]Info, len(props))
	for i, p := range props {
		out[i] = p.Info
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// stateExpects expects get() of every agent the action touched.
func stateExpects(p Prediction, active, pending bool) []trace.Expect {
	var out []trace.Expect
	for _, ap := range p.Agents {
		if ap.Unobserved {
			out = append(out, trace.Expect{Agent: ap.Agent})
			continue
		}
		s := &trace.StateExpect{}
		if active {
			s.Active = ptr(ap.State.Active)
		}
		if pending {
			s.Pending = pendingJSON(ap.State.Pending)
		}
		out = append(out, trace.Expect{Agent: ap.Agent, State: s})
	}
	return out
}

func pendingJSON(p *bool) json.RawMessage {
	if p == nil {
		return json.RawMessage(`"none"`)
	}
	if *p {
		return json.RawMessage(`true`)
	}
	return json.RawMessage(`false`)
}

// fullExpect is the model-vs-implementation obligation: everything the
// model predicts.
func fullExpect(act sim.Action, p Prediction) []trace.Expect {
	var out []trace.Expect
	for _, ap := range p.Agents {
		n := ap.Notices
		x := trace.Expect{
			Agent:    ap.Agent,
			State:    &trace.StateExpect{Active: ptr(ap.State.Active), Pending: pendingJSON(ap.State.Pending)},
			PlanMode: ap.Plan,
			Appended: append([]trace.EventExpect{}, ap.Events...),
			Notices:  &n,
			Section:  ap.Request,
		}
		if ap.Request != nil {
			x.Tools = ap.Tools
		}
		if ap.Unobserved {
			x.State = nil
		}
		if ap.Agent == act.Agent() {
			x.Outcome = p.Outcome
			if act.Set != nil {
				x.Error = ptr(p.Error)
			}
			x.Decision = p.Decision
			x.Tool = p.Tool
			x.Command = p.Command
		}
		out = append(out, x)
	}
	return append(out, foldExpects(act, p)...)
}

// foldExpects expects a fold action's value, or its error under
// fold-end=error.
func foldExpects(act sim.Action, p Prediction) []trace.Expect {
	if act.Fold == nil {
		return nil
	}
	x := trace.Expect{Fold: p.Fold}
	if p.FoldErr {
		x.Error = ptr(true)
	}
	return []trace.Expect{x}
}
