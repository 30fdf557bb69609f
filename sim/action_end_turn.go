package sim

// EndTurnAction ends the agent's open turn (turn/end with the reason); the
// agent stays running while it checkpoints. Example:
//
//	end-turn: {agent: main}
type EndTurnAction struct {
	Agent  string `json:"agent"`
	Reason string `json:"reason,omitempty"` // default completed
}

var _ = declare(kind[EndTurnAction]{
	name:     "end-turn",
	of:       func(a *Action) **EndTurnAction { return &a.EndTurn },
	agent_:   func(e *EndTurnAction) string { return e.Agent },
	apply_:   func(r *Runtime, res *Result, e *EndTurnAction) error { return r.doEndTurn(res, e) },
	refuses_: func(w State, e *EndTurnAction) string { return unless(w.Open(e.Agent), "no open turn to end") },
	schema:   `{"type": "object", "additionalProperties": false, "required": ["agent"], "properties": {"agent": {"$ref": "#/$defs/agent"}, "reason": {"type": "string"}}}`,
	draws: []Draw{{Name: "end-turn", Default: true, Make: func(w World, c Chooser) (Action, bool) {
		a, ok := pickAgent(w, c, w.Open)
		return Action{EndTurn: &EndTurnAction{Agent: a}}, ok
	}}},
})
