package reference

import (
	"encoding/json"

	"github.com/plankit/plankit/sim"
)

// A bend is a named point where a mutant may change one decision of the
// reference: it sees the point's facts and the decision the specification
// makes there, and returns the decision taken. A nil bend keeps the
// specification's decision.
type bend[F, T any] func(facts F, decision T) T

func (b bend[F, T]) at(facts F, decision T) T {
	if b == nil {
		return decision
	}
	return b(facts, decision)
}

// An instead is a named point where a mutant may answer in place of the
// specification; when it declines (ok false), or is nil, the reference
// goes on as specified.
type instead[F, T any] func(facts F) (answer T, ok bool)

func (i instead[F, T]) at(facts F) (T, bool) {
	if i == nil {
		var zero T
		return zero, false
	}
	return i(facts)
}

// hooks are the points the reference consults on its way; the zero value
// (every hook nil) is the specification. The mutants that change more than
// what crosses the port set them (mutants.go); the others wrap the port
// (wire.go).
type hooks struct {
	// Set (PEND-2..6) and the plan/mode append (LOG-4).
	repeated  bend[*session, string]      // the outcome of selecting the current state again
	waits     bend[selection, bool]       // whether a selection waits for the next accepted step
	cancelled bend[intent, *intent]       // what stays pending after a selection cancelled within a turn
	data      bend[bool, json.RawMessage] // the data of a plan/mode change to active
	appended  bend[appending, error]      // the result of appending a plan/mode change
	noticeDue bend[*session, bool]        // whether a user selection is narrated
	// The pre-step listener (STEP-2..6, SVC-3, EXIT-5).
	beforeNext  instead[stepAt, sim.Decision]   // before the downstream listeners run
	afterNext   instead[*session, sim.Decision] // once the downstream listeners have decided
	rejected    bend[sim.Decision, bool]        // whether the step is rejected
	aborted     bend[sim.PreStepRequest, bool]  // whether the step is aborted
	unchanged   bend[unchanging, sim.Decision]  // the decision when the pending selection equals the log
	failed      bend[string, sim.Decision]      // the decision when the append of the selection fails
	userOwned   bend[intent, bool]              // whether an applied selection is narrated as the user's
	retryNotice bend[retrying, bool]            // whether a selection applied at a request-recovery retry is narrated
	narrated    bend[sim.Message, sim.Decision] // the decision once it carries the notice
	// The request (CFG-2, EXIT-1).
	sectionShown bend[*session, bool]
	tools        bend[*session, []sim.Tool]
	// The host's tools (EXIT-1, SVC-3) and skipped empty steps (PEND-2).
	catalog    bend[cataloging, []sim.Tool]   // the host's tools as plan mode leaves them in the catalog
	hostGate   bend[*session, bool]           // whether a call of a host tool may run
	skipsEmpty bend[sim.PreStepRequest, bool] // whether the runtime skips the step if its decision stays empty
	// The exit tool (EXIT-2..7).
	gate            bend[at, bool]               // whether the tool runs: plan mode as the gate reads it
	complete        bend[string, bool]           // whether the plan is complete
	review          instead[at, json.RawMessage] // before the plan is presented for review
	reloaded        bend[at, bool]               // whether the service was reloaded during the review
	approves        bend[sim.Review, bool]       // whether an answer selecting the approve option alone approves, given its free text
	answersReview   bend[sim.ReviewAnswer, bool] // whether a reply's answer is to the review question
	selectsApproval bend[[]string, bool]         // whether an answer's selected options approve
	withdraws       bend[intent, bool]           // whether keep-planning withdraws this pending exit
	replaces        bend[at, bool]               // whether an approval replaces the pending selection
	// The /plan command (CMD-2..4, SVC-1).
	offReply  instead[at, sim.CommandReply] // before /plan off selects
	isOff     bend[string, bool]            // whether /plan's argument is off
	target    bend[commanding, bool]        // the state /plan [message] selects
	steered   bend[string, bool]            // whether the message is steered
	announced bend[announcing, string]      // the outcome the reply announces
	// The plugin as a process (LOG-2, LOG-3, PEND-8).
	folds     bend[bool, bool]                           // whether a plan/mode event replaces the folded value, given whether one was folded
	resumed   bend[sim.OpenRequest, bool]                // the state a session opens in
	survivors bend[map[string]intent, map[string]intent] // the pending selections a stop hands to the next load
	heard     bend[sim.Event, bool]                      // whether a plan/mode another writer appended is folded when it arrives
	unloaded  bend[map[string]intent, map[string]intent] // the pending selections an unload hands to the next load
}

// at is a point in a call for one agent.
type at struct {
	c     *Controller
	h     host
	agent string
}

// pending is the agent's pending selection at the point.
func (a at) pending() (intent, bool) {
	p, ok := a.c.pending[a.agent]
	return p, ok
}

// stepAt is a pre-step for the agent.
type stepAt struct {
	at
	req sim.PreStepRequest
}

// selection is a set(active) for the agent whose session is s.
type selection struct {
	s      *session
	active bool
}

// appending is an append of data to the agent's log.
type appending struct {
	h     host
	agent string
	data  json.RawMessage
}

// retrying is a user selection of target applied at a request-recovery
// retry, in the session s.
type retrying struct {
	s      *session
	target bool
}

// unchanging is a pre-step whose pending selection p equals the log.
type unchanging struct {
	c *Controller
	s *session
	p intent
}

// commanding is /plan with its trimmed message.
type commanding struct {
	at
	msg string
}

// cataloging is the host's tools reaching plan mode's assembly for the
// agent whose session is s; registered are those the host registered
// before the plugin loaded.
type cataloging struct {
	s          *session
	registered []sim.Tool
}

// announcing is a /plan reply: whether the input was off.
type announcing struct {
	s   *session
	off bool
}
