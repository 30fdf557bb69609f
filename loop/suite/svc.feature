@runtime
Feature: SVC at runtime level — plan mode is an optional package the runtime can dispose

  Background:
    Given a runtime with plan mode configured with section "Plan first."
    And a host tool "read_file"

  @SVC-1 @CMD-2 @CMD-4 @id:rt-svc-reply-announces-outcome
  Scenario: each /plan reply announces the outcome its selection had, whatever its wording (capability commandOutcomes)
    When the user types "/plan"
    Then the command reports "success"
    And the reply announces "committed"
    When the user types "/plan"
    Then the reply announces "noop"
    When the user types "/plan off"
    Then the reply announces "committed"
    When the user types "/plan off"
    Then the reply announces "noop"

  @SVC-2 @PEND-8 @id:rt-svc-unload-takes-everything
  Scenario: after an unload no plan/mode, section, tool or notice exists, and the pending selection is gone
    When the user selects plan mode
    And the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: false}}]
          text: Read it.
      """
    Then result "s1" is "queued"
    And the step appends plan/mode nothing
    When plan mode is unloaded
    And the user sends "Go on." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - text: Done reading.
      """
    Then the requests show plan:policy as off, off
    And result "r1" is "ok"
    And the step appends plan/mode nothing
    And the step logs 0 plan-mode notices

  @SVC-2 @id:rt-svc-unload-command-unknown
  Scenario: after an unload /plan is an unknown command
    When plan mode is unloaded
    And the user types "/plan"
    Then the command reports "error"
    And the step appends plan/mode nothing

  @SVC-1 @PEND-8 @id:rt-svc-load-after-unload-starts-from-log
  Scenario: plan mode loaded again after an unload starts clean from the log, without the lost selection
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: false}}]
          text: Planned.
      """
    Then result "s1" is "queued"
    When plan mode is unloaded
    And plan mode is reloaded
    Then get shows active true with nothing pending
    When the user sends "Go on."
    Then the requests show plan:policy as on
    And the step appends plan/mode nothing
    And the step logs 0 plan-mode notices

  @SVC-2 @LOG-3 @id:rt-svc-load-folds-writes-made-while-unloaded
  Scenario: plan mode loaded again folds what an outside writer logged while it was unloaded
    When plan mode is unloaded
    And an outside writer appends plan/mode true
    And plan mode is reloaded
    Then get shows active true with nothing pending
    When the user sends "Go on."
    Then the requests show plan:policy as on
    And the step appends plan/mode nothing

  @PEND-8 @SVC-1 @id:rt-svc-restart-after-unload-loads-from-log
  Scenario: a restart after an unload composes plan mode again from the log alone
    When the user sends "Plan the change." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          text: Planned.
      """
    Then result "s1" is "queued"
    When plan mode is unloaded
    And the runtime restarts
    Then get shows active false with nothing pending
    When the user sends "Go on."
    Then the requests show plan:policy as off
    And the step appends plan/mode nothing

  @SVC-4 @SVC-1 @id:rt-svc-catalog-signatures
  Scenario: set returns only the four outcomes of its catalog signature, and get's pending is present only while a selection waits
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: g0, get: {}}, {id: s1, set: {active: true}}, {id: s2, set: {active: true}}, {id: g1, get: {}}, {id: s3, set: {active: false}}]
          text: Read it.
      """
    Then result "g0" is "active=false pending=none"
    And result "s1" is "queued"
    And result "s2" is "noop"
    And result "g1" is "active=false pending=true"
    And result "s3" is "cancelled"
    When the user selects plan mode
    Then the outcome is "committed"
    And get shows active true with nothing pending
