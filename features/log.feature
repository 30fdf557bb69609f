Feature: LOG — logged state and recovery
  The plan-mode state is a pure function of the session log: plan/mode events
  with data {active: boolean}, folded by foldPlanMode.

  @LOG-1 @id:log-event-data-is-exactly-active
  Scenario: A committed selection is logged as plan/mode with data exactly {active}
    Given an agent with plan mode inactive
    When the user selects plan mode
    Then set returns "committed"
    And exactly one plan/mode event is appended, with data exactly {"active": true}

  @LOG-1 @id:log-event-data-at-pre-step
  Scenario: A selection appended at a pre-step is logged with data exactly {active}
    Given an agent with plan mode active and an open turn
    When the user selects the default mode
    And a step is accepted
    Then exactly one plan/mode event is appended, with data exactly {"active": false}

  @LOG-1 @id:log-never-in-transcript
  Scenario: plan/mode never appears in the model transcript
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And a step is accepted
    Then plan/mode active is appended before the request header
    And the request's messages carry no plan/mode event

  @LOG-1 @id:log-each-event-replaces-the-value
  Scenario: Each plan/mode event replaces the whole value
    Given an agent with plan mode active
    When the user selects the default mode
    Then set returns "committed"
    And the log folds to inactive
    And get reports inactive with no pending selection

  @LOG-2 @id:log-fold
  Scenario Outline: foldPlanMode returns the active of the last plan/mode before end [<case>]
    Given plan mode is loaded
    When foldPlanMode runs over the events "<events>" up to <end>
    Then foldPlanMode returns <result>

    Examples:
      | case                  | events                                | end             | result   |
      | empty-log             |                                       | the default end | inactive |
      | no-plan-events        | turn/start, turn/end                  | the default end | inactive |
      | one-active            | active                                | the default end | active   |
      | last-wins-off         | active, inactive                      | the default end | inactive |
      | last-wins-on          | inactive, turn/start, active          | the default end | active   |
      | end-excludes-later    | active, turn/start, inactive          | 2               | active   |
      | end-zero              | active                                | 0               | inactive |
      | end-at-length         | inactive, active                      | 2               | active   |
      | three-flips           | active, inactive, active, turn/end    | the default end | active   |

    # The same logs under each reading: clamp and slice part on a negative
    # end whenever the log's prefix folds to active.
    @choice:fold-end=clamp
    Examples: beyond the log or negative, clamped
      | case                    | events                                | end             | result   |
      | end-beyond-clamps       | active, inactive                      | 10              | inactive |
      | end-negative-clamps     | inactive, active, turn/end            | -1              | inactive |
      | end-negative-two-clamps | active, inactive                      | -1              | inactive |
      | end-far-negative-clamps | active                                | -5              | inactive |

    @choice:fold-end=slice
    Examples: beyond the log or negative, as events.slice(0, end)
      | case                    | events                                | end             | result   |
      | end-beyond-slices       | active, inactive                      | 10              | inactive |
      | end-negative-slices     | inactive, active, turn/end            | -1              | active   |
      | end-negative-two-slices | active, inactive                      | -1              | active   |
      | end-far-negative-slices | active                                | -5              | inactive |

  @LOG-2 @choice:fold-end=error @id:log-fold-end-outside-errors
  Scenario Outline: foldPlanMode rejects an end outside the log [<case>]
    Given plan mode is loaded
    When foldPlanMode runs over the events "active, inactive" up to <end>
    Then foldPlanMode reports an error

    Examples:
      | case     | end |
      | beyond   | 3   |
      | negative | -1  |

  @LOG-3 @id:log-resume-after-restart
  Scenario: A new process on the same log recovers the logged state
    Given an agent with plan mode active
    When the process restarts
    Then get reports active with no pending selection
    And the user prompts "Continue."
    And the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @LOG-3 @id:log-fork-copies-logged-state-only
  Scenario: A fork recovers the logged state from the copied log, not the pending selection
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And the session is forked as "child"
    Then get of "child" reports inactive with no pending selection
    And the log of "child" folds to inactive

  @LOG-3 @id:log-fork-of-active-session
  Scenario: A fork of an active session starts active
    Given an agent with plan mode active
    When the session is forked as "child"
    Then get of "child" reports active with no pending selection

  @LOG-3 @id:log-compaction-keeps-state
  Scenario: Compaction does not change the state
    Given an agent with plan mode active
    When the session is compacted
    Then get reports active with no pending selection
    And the user prompts "Go on."
    And the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @LOG-4 @id:log-one-event-per-committed-change
  Scenario: A committed change is exactly one appended plan/mode event
    Given an agent with plan mode active
    When the user selects the default mode
    Then exactly one plan/mode event is appended, with data exactly {"active": false}

  @LOG-4 @id:log-one-event-per-applied-selection
  Scenario: An applied pending selection is exactly one appended plan/mode event
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    Then no plan/mode event is appended
    And the next accepted step appends plan/mode active before the request header

  @LOG-4 @id:log-nothing-else-flips
  Scenario: Steps, turns and reads without a selection append no plan/mode event
    Given an agent with plan mode active and an open turn
    When a step is accepted
    Then no plan/mode event is appended
    And get reports active with no pending selection
    When the turn ends
    Then no plan/mode event is appended
    And the log folds to active

  # Outside writers: another process appends to a live log, or the host
  # opens an agent on a given log. The log is the only state (LOG-3).

  @LOG-3 @id:log-outside-write-in-force-at-once
  Scenario: A plan/mode another process appends is in force at once
    Given an agent with plan mode inactive
    When another process appends plan/mode with the data {"active": true}
    Then get reports active with no pending selection
    And the log folds to active
    When the user prompts "Go on."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @LOG-3 @id:log-outside-write-mid-turn
  Scenario: An outside write during a turn is in force at the next step
    Given an agent with plan mode active mid-turn, after a request that showed it
    When another process appends plan/mode with the data {"active": false}
    Then get reports inactive with no pending selection
    And the next accepted step appends no plan/mode event
    And the request shows plan mode inactive
    And the step carries no plan-mode notices

  @LOG-3 @PEND-3 @id:log-outside-write-then-same-selection
  Scenario: After an outside write, selecting the state it wrote changes nothing
    Given an agent with plan mode inactive
    When another process appends plan/mode with the data {"active": true}
    And the user selects plan mode
    Then set returns "noop"
    And no plan/mode event is appended

  @LOG-3 @PEND-5 @id:log-outside-write-meets-pending
  Scenario: A pending selection the log already holds appends nothing
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And another process appends plan/mode with the data {"active": true}
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @PEND-7 @LOG-4 @choice:logged-pending=keep @id:log-outside-write-pending-kept
  Scenario: A pending selection the log already holds is reported pending until the next step
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And another process appends plan/mode with the data {"active": true}
    Then get reports active with active pending

  @PEND-7 @LOG-4 @choice:logged-pending=clear @id:log-outside-write-pending-cleared
  Scenario: A pending selection the log already holds is no longer waiting to be appended
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And another process appends plan/mode with the data {"active": true}
    Then get reports active with no pending selection

  @LOG-3 @EXIT-2 @id:log-outside-write-opens-exit-gate
  Scenario: The exit tool's gate reads an outside write
    Given an agent with plan mode inactive
    When another process appends plan/mode with the data {"active": true}
    And the user prompts "Plan it."
    And the model calls exit_plan_mode with the plan "# Plan\n\n1. Do it." and the user approves
    Then exit_plan_mode succeeds with {"approved": true}

  @LOG-3 @id:log-outside-other-event
  Scenario: An outside event of another type leaves the state alone
    Given an agent with plan mode active
    When another process appends the event "note/added" with the data {"text": "From the outside."}
    Then get reports active with no pending selection
    And the log folds to active

  @LOG-1 @LOG-2 @LOG-3 @choice:plan-mode-malformed=keep @id:log-outside-malformed-plan-mode
  Scenario Outline: plan/mode data with no boolean active changes nothing [<case>]
    Given an agent with plan mode <state>
    When another process appends plan/mode with the data <data>
    Then get reports <state> with no pending selection
    And the log folds to <state>
    When the user prompts "Go on."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode <state>

    Examples:
      | case           | state    | data                          |
      | string-value   | active   | {"active": "no"}              |
      | no-active      | active   | {}                            |
      | string-true    | inactive | {"active": "yes"}             |

  @LOG-1 @LOG-2 @LOG-3 @choice:plan-mode-malformed=truthy @id:log-outside-malformed-plan-mode-truthy
  Scenario Outline: plan/mode data with no boolean active folds to the truthiness of its active [<case>]
    Given an agent with plan mode <state>
    When another process appends plan/mode with the data <data>
    Then get reports <after> with no pending selection
    And the log folds to <after>
    When the user prompts "Go on."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode <after>

    Examples:
      | case           | state    | after    | data                          |
      | string-value   | inactive | active   | {"active": "no"}              |
      | no-active      | active   | inactive | {}                            |
      | empty-string   | active   | inactive | {"active": ""}                |
      | string-true    | inactive | active   | {"active": "yes"}             |

  @LOG-1 @LOG-2 @LOG-3 @choice:plan-mode-data=fold-active @id:log-outside-extra-field-folds-active
  Scenario: Another writer's plan/mode with a boolean active and another field is folded by its active
    Given an agent with plan mode inactive
    When another process appends plan/mode with the data {"active": true, "by": "ui"}
    Then get reports active with no pending selection
    And the log folds to active
    When the user prompts "Go on."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @LOG-1 @LOG-2 @LOG-3 @choice:plan-mode-data=exact @id:log-outside-extra-field-ignored
  Scenario: Another writer's plan/mode with a field besides active changes nothing when only exact data folds
    Given an agent with plan mode inactive
    When another process appends plan/mode with the data {"active": true, "by": "ui"}
    Then get reports inactive with no pending selection
    And the log folds to inactive
    When the user prompts "Go on."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode inactive

  @LOG-3 @id:log-open-from-given-log
  Scenario: An agent opened from a given log starts in its fold
    Given plan mode is loaded
    When an agent "resumed" is opened from the log:
      | type       | data                                          |
      | turn/start | {"turn": 1}                                   |
      | plan/mode  | {"active": true}                              |
      | turn/end   | {"turn": 1, "reason": {"kind": "completed"}}  |
    Then get of "resumed" reports active with no pending selection
    And the log of "resumed" folds to active

  @LOG-1 @LOG-3 @choice:plan-mode-malformed=keep @id:log-open-ignores-malformed
  Scenario: An agent opened from a log keeps the last well-formed plan/mode
    Given plan mode is loaded
    When an agent "resumed" is opened from the log:
      | type      | data              |
      | plan/mode | {"active": true}  |
      | plan/mode | {"active": "off"} |
    Then get of "resumed" reports active with no pending selection

  @LOG-1 @LOG-3 @choice:plan-mode-malformed=truthy @id:log-open-folds-malformed-truthy
  Scenario: An agent opened from a log folds a plan/mode with no boolean active by its truthiness
    Given plan mode is loaded
    When an agent "resumed" is opened from the log:
      | type      | data              |
      | plan/mode | {"active": true}  |
      | plan/mode | {}                |
    Then get of "resumed" reports inactive with no pending selection
    And the log of "resumed" folds to inactive

  @LOG-3 @id:log-open-empty-log
  Scenario: An agent opened from an empty log starts inactive
    Given an agent with plan mode active
    When an agent "fresh" is opened from an empty log
    Then get of "fresh" reports inactive with no pending selection
    And get reports active with no pending selection
