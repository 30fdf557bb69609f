@runtime
Feature: PEND at runtime level — selections made inside a turn wait for the next accepted pre-step

  Background:
    Given a runtime with plan mode configured with section "Plan first."
    And a host tool "read_file"

  @PEND-1 @PEND-4 @STEP-7 @id:rt-pend-while-streaming
  Scenario: a selection made while the model streams is appended by the next step, whose request shows it
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - text: Read it.
      """
    Then result "s1" is "queued"
    And the step appends plan/mode true
    And the requests show plan:policy as off, on

  @PEND-1 @PEND-4 @id:rt-pend-while-tool-runs
  Scenario: a selection made while a host tool executes is appended by the next step
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}, during: [{id: s1, set: {active: true}}]}]
        - text: Read it.
      """
    Then result "s1" is "queued"
    And result "r1" is "ok"
    And the step appends plan/mode true
    And the requests show plan:policy as off, on

  @PEND-2 @PEND-7 @id:rt-pend-after-last-step
  Scenario: a selection made after the final accepted pre-step forces no step and waits for the next turn
    When the user sends "Answer briefly." and the turn plays:
      """
      responses:
        - text: Here you are.
          during: [{id: s1, set: {active: true}}]
      """
    Then result "s1" is "queued"
    And the step sends 1 request
    And the step appends plan/mode nothing
    And the turn ends "completed"
    And get shows active false with pending true
    When the user sends "Now plan."
    Then the step appends plan/mode true
    And the step's events of types turn/start, plan/mode, request/header are: turn/start, plan/mode, request/header
    And the requests show plan:policy as on

  @PEND-8 @id:rt-pend-lost-at-restart
  Scenario: a pending selection is lost when the process exits before another accepted pre-step
    When the user sends "Answer briefly." and the turn plays:
      """
      responses:
        - text: Here you are.
          during: [{id: s1, set: {active: true}}]
      """
    And the runtime restarts
    Then get shows active false with nothing pending
    When the user sends "Go on."
    Then the step appends plan/mode nothing
    And the requests show plan:policy as off

  @PEND-5 @id:rt-pend-cancel-in-turn
  Scenario: a selection cancelled before the boundary is never appended
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}, during: [{id: s2, set: {active: false}}]}]
        - text: Read it.
      """
    Then result "s1" is "queued"
    And result "s2" is "cancelled"
    And the step appends plan/mode nothing
    And the requests show plan:policy as off, off

  @PEND-3 @id:rt-pend-noop-in-turn
  Scenario: a selection equal to the logged state is a noop inside a turn
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: false}}]
          text: Nothing to do.
      """
    Then result "s1" is "noop"
    And the step appends plan/mode nothing

  @PEND-3 @PEND-6 @id:rt-pend-idle-commit-then-noop
  Scenario: between turns a selection commits at once, and repeating it is a noop
    When the user selects plan mode
    Then the outcome is "committed"
    When the user selects plan mode
    Then the outcome is "noop"
    And the step appends plan/mode nothing

  @PEND-7 @id:rt-pend-get-in-turn
  Scenario: get inside a turn shows the logged state and the pending selection
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}, {id: g1, get: {}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - text: Read it.
      """
    Then result "g1" is "active=false pending=true"

  @PEND-6 @STEP-5 @choice:idle-append-failure=error @id:rt-pend-idle-append-fails
  Scenario: a selection between turns whose append fails reports an error and changes nothing
    When the next plan/mode append fails
    And the user selects plan mode
    Then set reports an error
    And the step appends plan/mode nothing
    And get shows active false with nothing pending

  @PEND-8 @choice:reload-pending=drop @id:rt-pend-reload-drops
  Scenario: a reload of plan mode drops a pending selection; the state is the log's
    When the user sends "Answer briefly." and the turn plays:
      """
      responses:
        - text: Here you are.
          during: [{id: s1, set: {active: true}}]
      """
    And plan mode is reloaded
    Then get shows active false with nothing pending

  @PEND-2 @STEP-6 @id:rt-pend-notice-never-starts-a-skipped-step
  Scenario: a selection's notice never makes the runtime send a step it skips for having nothing to send
    Given a host pre-step listener "inbox" registered after plan mode
    When the user sends "Answer briefly." and the turn plays:
      """
      responses:
        - text: Here you are.
          during: [{id: s1, set: {active: true}}]
      """
    Then result "s1" is "queued"
    When the user sends "Handled elsewhere." and the turn plays:
      """
      preSteps:
        - {dispatch: 1, listener: inbox, behaviour: drop}
      """
    Then the step sends 0 requests
    And the step logs 0 plan-mode notices
    And the turn ends "completed"
