@runtime
Feature: LOG at runtime level — what the runtime logs, and where

  Background:
    Given a runtime with plan mode configured with section "Plan first."
    And a host tool "read_file"

  @LOG-1 @LOG-4 @PEND-6 @id:rt-log-idle-selection-one-event
  Scenario: a selection between turns is exactly one plan/mode event, and no request
    When the user selects plan mode
    Then the outcome is "committed"
    And the step appends plan/mode true
    And the step sends 0 requests

  @LOG-3 @PEND-8 @id:rt-log-resume-from-log
  Scenario: a new process on the same log recovers the state from the log alone
    When the user selects plan mode
    And the user sends "Read the code."
    And the runtime restarts
    Then get shows active true with nothing pending
    When the user sends "Go on."
    Then the requests show plan:policy as on
    And the step appends plan/mode nothing

  @STEP-5 @LOG-3 @choice:fault-scope=plan-mode @id:rt-fault-spares-outside-writer
  Scenario: an armed fault fails plan mode's own appends only: an outside writer's plan/mode is logged
    When the next plan/mode append fails
    And an outside writer appends plan/mode true
    Then get shows active true with nothing pending
    When the user leaves plan mode
    Then set reports an error

  @STEP-5 @LOG-3 @choice:fault-scope=every-append @id:rt-fault-fails-outside-writer
  Scenario: an armed fault fails every plan/mode append of the log, an outside writer's too
    When the next plan/mode append fails
    And an outside writer appends plan/mode true
    Then get shows active false with nothing pending
    When the user selects plan mode
    Then the outcome is "committed"

  @LOG-3 @id:rt-log-outside-writer
  Scenario: an event an outside writer appends is in force at once, with no mirror
    When an outside writer appends plan/mode true
    Then get shows active true with nothing pending
    When the user sends "Plan the change."
    Then the requests show plan:policy as on
    And the step logs 0 plan-mode notices

  @LOG-1 @STEP-4 @id:rt-log-plan-mode-after-turn-start
  Scenario: a selection made after admission lands after turn/start and before the first request header
    Given a host pre-step listener "gate" registered before plan mode
    When the user sends "Plan the change." and the turn plays:
      """
      preSteps:
        - {dispatch: 1, listener: gate, behaviour: accept, during: [{id: s1, set: {active: true}}]}
      """
    Then result "s1" is "queued"
    And the step's events of types turn/start, plan/mode, request/header are: turn/start, plan/mode true, request/header
    And the requests show plan:policy as on

  @LOG-1 @PEND-1 @id:rt-log-plan-mode-between-steps
  Scenario: a selection made during a step lands after that step's tool results and before the next step's request header
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}}]
        - text: Read it.
      """
    Then result "s1" is "queued"
    And the step's events of types request/header, tool/result, plan/mode are: request/header, tool/result, plan/mode true, request/header
    And the requests show plan:policy as off, on

  @LOG-3 @id:rt-log-open-folds-the-log
  Scenario: an agent the host opens from a log starts in the state the log folds to
    When the host opens the agent "resumed" from the log:
      """
      - {type: turn/start, data: {turn: 1}}
      - {type: plan/mode, data: {active: true}}
      - {type: turn/end, data: {reason: {kind: completed}, turn: 1}}
      """
    Then get shows active true with nothing pending
    When the user sends "Go on."
    Then the requests show plan:policy as on
    And the step appends plan/mode nothing
    And the step logs 0 plan-mode notices

  @LOG-3 @id:rt-log-open-follows-the-last-flip
  Scenario: an opened log that flips plan mode back is in force as its last plan/mode says
    When the host opens the agent "resumed" from the log:
      """
      - {type: plan/mode, data: {active: true}}
      - {type: plan/mode, data: {active: false}}
      """
    Then get shows active false with nothing pending
    When the user selects plan mode
    Then the outcome is "committed"
    And the step appends plan/mode true

  @LOG-1 @LOG-3 @choice:plan-mode-malformed=keep @id:rt-log-open-ignores-malformed-plan-mode
  Scenario Outline: an outside writer's malformed plan/mode in an opened log leaves plan mode on [<name>]
    When the host opens the agent "resumed" from the log:
      """
      - {type: plan/mode, data: {active: true}}
      - {type: plan/mode, data: <data>}
      """
    Then get shows active true with nothing pending
    When the user sends "Plan the change."
    Then the requests show plan:policy as on
    And the step appends plan/mode nothing

    Examples:
      | name        | data                      |
      | no-active   | {}                        |
      | string-no   | {active: "no"}            |

  @LOG-2 @LOG-3 @choice:plan-mode-data=fold-active @id:rt-log-open-folds-extra-field
  Scenario: an outside writer's plan/mode with a boolean active and another field is folded by its active
    When the host opens the agent "resumed" from the log:
      """
      - {type: plan/mode, data: {active: true}}
      - {type: plan/mode, data: {active: false, by: "ui"}}
      """
    Then get shows active false with nothing pending
    When the user sends "Read the code."
    Then the requests show plan:policy as off
    And the step appends plan/mode nothing

  @LOG-1 @LOG-3 @choice:plan-mode-malformed=keep @id:rt-log-open-malformed-only
  Scenario Outline: an opened log whose only plan/mode is malformed leaves plan mode off [<name>]
    When the host opens the agent "resumed" from the log:
      """
      - {type: plan/mode, data: <data>}
      """
    Then get shows active false with nothing pending
    When the user sends "Read the code."
    Then the requests show plan:policy as off
    And the step appends plan/mode nothing

    Examples:
      | name        | data                     |
      | no-active   | {}                       |
      | string-yes  | {active: "yes"}          |

  @LOG-3 @PEND-8 @id:rt-log-open-then-restart
  Scenario: an opened agent comes back from its whole log after a restart
    When the host opens the agent "resumed" from the log:
      """
      - {type: plan/mode, data: {active: true}}
      """
    And the user leaves plan mode
    Then the step appends plan/mode false
    When the runtime restarts
    Then get shows active false with nothing pending
    When the user sends "Go on."
    Then the requests show plan:policy as off

  @LOG-2 @LOG-3 @id:rt-log-fold-last-value
  Scenario Outline: the state in force is the active of the log's last plan/mode, and off when it has none [<case>]
    When the host opens the agent "resumed" from the log:
      """
      <log>
      """
    Then get shows active <active> with nothing pending
    When the user sends "Go on."
    Then the requests show plan:policy as <section>
    And the step appends plan/mode nothing

    Examples:
      | case         | log                                                                                                                                                     | active | section |
      | none         | [{type: turn/start, data: {turn: 1}}, {type: turn/end, data: {reason: {kind: completed}, turn: 1}}]                                                  | false  | off     |
      | on-off-on    | [{type: plan/mode, data: {active: true}}, {type: turn/start, data: {turn: 1}}, {type: plan/mode, data: {active: false}}, {type: turn/end, data: {reason: {kind: completed}, turn: 1}}, {type: plan/mode, data: {active: true}}] | true   | on      |
      | on-then-off  | [{type: plan/mode, data: {active: true}}, {type: turn/start, data: {turn: 1}}, {type: turn/end, data: {reason: {kind: completed}, turn: 1}}, {type: plan/mode, data: {active: false}}] | false  | off     |
