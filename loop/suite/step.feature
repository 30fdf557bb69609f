@runtime
Feature: STEP at runtime level — the pre-step append, observed through the loop

  Background:
    Given a runtime with plan mode configured with section "Plan first."
    And a host tool "read_file"

  @STEP-2 @STEP-7 @id:rt-step-retry-observed
  Scenario: a request-recovery retry goes through the pre-step, which applies a pending selection
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - fail: true
          during: [{id: s1, set: {active: true}}]
        - text: Read it.
      """
    Then result "s1" is "queued"
    And the step appends plan/mode true
    And the requests show plan:policy as off, on
    And the turn ends "completed"

  @STEP-2 @id:rt-step-retry-is-a-dispatch
  Scenario: a request-recovery retry is a dispatch of agent/pre-step of its own: a host listener rejecting the second dispatch rejects the retry
    Given a host pre-step listener "gate" registered after plan mode
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - fail: true
        - text: Read it.
      preSteps:
        - {dispatch: 2, listener: gate, behaviour: reject}
      """
    Then the step sends 1 request
    And the turn ends "blocked"

  @STEP-1 @STEP-3 @id:rt-step-listener-selection
  Scenario: a selection made by a host pre-step listener is applied by that same accepted step
    Given a host pre-step listener "gate" registered before plan mode
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - text: Read it.
      preSteps:
        - {dispatch: 2, listener: gate, behaviour: accept, during: [{id: s1, set: {active: true}}]}
      """
    Then result "s1" is "queued"
    And the step appends plan/mode true
    And the requests show plan:policy as off, on

  @STEP-3 @id:rt-step-rejected-appends-nothing
  Scenario: a rejected step appends nothing and the selection stays pending
    Given a host pre-step listener "gate" registered after plan mode
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
      preSteps:
        - {dispatch: 2, listener: gate, behaviour: reject}
      """
    Then the step appends plan/mode nothing
    And the turn ends "blocked"
    And get shows active false with pending true
    When the user sends "Try again."
    Then the step appends plan/mode true
    And the requests show plan:policy as on

  @STEP-3 @id:rt-step-aborted-appends-nothing
  Scenario: an aborted step appends nothing and the selection stays pending
    Given a host pre-step listener "gate" registered after plan mode
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
      preSteps:
        - {dispatch: 2, listener: gate, behaviour: abort}
      """
    Then the step appends plan/mode nothing
    And the turn ends "aborted"
    And get shows active false with pending true

  @STEP-5 @id:rt-step-failed-append-stays-pending
  Scenario: a failed append does not block the turn, and the selection stays pending
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: f1, fault: {count: 1}}, {id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - text: Read it.
      """
    Then result "s1" is "queued"
    And the step appends plan/mode nothing
    And the step sends 2 requests
    And the turn ends "completed"
    And get shows active false with pending true
    When the user sends "Go on."
    Then the step appends plan/mode true
    And the requests show plan:policy as on

  @STEP-5 @STEP-7 @choice:section-source=log @id:rt-step-failed-append-request-shows-log
  Scenario: the request of a step whose append failed shows the logged state
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: f1, fault: {count: 1}}, {id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - text: Read it.
      """
    Then the step appends plan/mode nothing
    And the requests show plan:policy as off, off

  @STEP-6 @id:rt-step-no-notice-before-any-header
  Scenario: a selection applied before any request was sent is not narrated
    When the user selects plan mode
    And the user sends "Plan the change."
    Then the step logs 0 plan-mode notices
    And the requests show plan:policy as on

  @STEP-6 @STEP-7 @id:rt-step-notice-once-in-request
  Scenario: a change the last request did not show is narrated exactly once, in the next request
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - calls: [{id: r2, name: read_file, args: {path: b.go}}]
        - text: Read them.
      """
    Then the step logs 1 plan-mode notice
    And request 2 of the step carries a plan-mode notice
    And the requests show plan:policy as off, on, on

  @STEP-6 @PEND-6 @id:rt-step-idle-change-narrated-next-turn
  Scenario: a change committed between turns, after a request showed the other state, is narrated by the next turn
    When the user sends "Read the code."
    And the user selects plan mode
    Then the step logs 0 plan-mode notices
    When the user sends "Now plan."
    Then the step logs 1 plan-mode notice
    And request 1 of the step carries a plan-mode notice
    And the requests show plan:policy as on

  @STEP-6 @choice:idle-revert-notice=keep @id:rt-step-idle-revert-keeps-first-notice
  Scenario: a change committed between turns and reverted before the next request keeps the first change's notice
    When the user sends "Read the code."
    And the user selects plan mode
    And the user leaves plan mode
    Then the outcome is "committed"
    When the user sends "Go on."
    Then the step logs 1 plan-mode notice
    And request 1 of the step carries a plan-mode notice
    And the requests show plan:policy as off

  @STEP-6 @STEP-7 @choice:idle-revert-notice=net @id:rt-step-idle-revert-not-narrated
  Scenario: a change committed between turns and reverted before the next request is never narrated
    When the user sends "Read the code."
    And the user selects plan mode
    And the user leaves plan mode
    Then the outcome is "committed"
    When the user sends "Go on."
    Then the step logs 0 plan-mode notices
    And the requests show plan:policy as off

  @STEP-2 @STEP-6 @id:rt-step-retry-notice-once
  Scenario: a change applied by the step whose request fails is narrated once, whatever the retry
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}}]
          during: [{id: s1, set: {active: true}}]
        - fail: true
        - text: Read it.
      """
    Then result "s1" is "queued"
    And the step appends plan/mode true
    And the step logs 1 plan-mode notice
    And the turn ends "completed"

  @STEP-2 @STEP-6 @id:rt-step-retry-selection-during-failed-request
  Scenario: a selection made while the request fails is appended once, by the retry's pre-step or the next step's
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - fail: true
          during: [{id: s1, set: {active: true}}]
        - calls: [{id: r2, name: read_file, args: {path: b.go}}]
        - text: Read them.
      """
    Then result "s1" is "queued"
    And the step appends plan/mode true
    And the step logs 1 plan-mode notice
    And the turn ends "completed"

  @STEP-2 @STEP-6 @id:rt-step-retry-undo-narrated
  Scenario: undoing, while the request fails, the change that request showed is narrated once more
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}}]
          during: [{id: s1, set: {active: true}}]
        - fail: true
          during: [{id: s2, set: {active: false}}]
        - calls: [{id: r2, name: read_file, args: {path: b.go}}]
        - text: Read them.
      """
    Then result "s2" is "queued"
    And the step appends plan/mode true, false
    And the step logs 2 plan-mode notices
    And the turn ends "completed"

  @STEP-1 @STEP-6 @id:rt-step-listener-wraps-host-listeners
  Scenario: plan mode's listener is prepended, so a host listener registered before it that takes the step's messages cannot take the notice
    Given a host pre-step listener "inbox" registered before plan mode
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - text: Read it.
      preSteps:
        - {dispatch: 2, listener: inbox, behaviour: drop}
      """
    Then result "s1" is "queued"
    And the step appends plan/mode true
    And plan mode's listener wraps host listener "inbox": the step logs 1 plan-mode notice
    And request 2 of the step carries a plan-mode notice
    And the requests show plan:policy as off, on

  @STEP-6 @STEP-7 @id:rt-step-header-per-request
  Scenario: every request sent is logged with its own request/header, changed or not
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - calls: [{id: r2, name: read_file, args: {path: b.go}}]
        - text: Read them.
      """
    Then the step sends 3 requests, each logged with its own request/header
    When the user sends "Go on."
    Then the step sends 1 request, each logged with its own request/header
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: r3, name: read_file, args: {path: a.go}}]
        - text: Planned.
      """
    Then the step sends 2 requests, each logged with its own request/header

  @STEP-6 @PEND-5 @id:rt-step-no-narration-after-cancelled-round-trip
  Scenario: a selection switched away and back before the pre-step changes nothing and is not narrated on top of the idle commit's notice
    Given a host pre-step listener "audit" registered before plan mode
    When the user sends "One."
    And the user selects plan mode
    Then the outcome is "committed"
    When the user sends "Two." and the turn plays:
      """
      preSteps:
        - {dispatch: 1, listener: audit, behaviour: accept, during: [{id: off, set: {active: false}}, {id: on, set: {active: true}}]}
      """
    Then result "off" is "queued"
    And result "on" is "cancelled"
    And the step appends plan/mode nothing
    And the step logs 1 plan-mode notice
    And the requests show plan:policy as on

  @STEP-6 @STEP-5 @id:rt-step-switch-narrated-after-failed-append
  Scenario: after a failed append was applied later, switching back is narrated, since the last request showed plan mode
    When the user sends "Look." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}, during: [{id: f1, fault: {count: 1}}, {id: s1, set: {active: true}}]}]
        - text: Looked.
      """
    Then result "s1" is "queued"
    And the step appends plan/mode nothing
    When the user sends "Again."
    Then the step appends plan/mode true
    And the requests show plan:policy as on
    When the user leaves plan mode
    Then the outcome is "committed"
    When the user sends "Go on."
    Then the requests show plan:policy as off
    And the step logs 1 plan-mode notice
    And request 1 of the step carries a plan-mode notice
