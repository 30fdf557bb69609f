Feature: PEND — pending selections
  During an open turn a selection waits for the next accepted in-turn
  pre-step; between turns it commits at once.

  @id:pend-set-matrix
  Scenario Outline: set returns <outcome> with <logged> logged, <pending> pending and the turn <turn> [<case>]
    Given an agent with plan mode <logged> and the turn <turn> and <pending> pending
    When the user selects <selection>
    Then set returns "<outcome>"
    And <appended>
    And get reports <after>

    @PEND-3
    Examples: already in that state
      | case                     | logged   | turn   | pending  | selection        | outcome | appended                   | after                              |
      | noop-logged-open-off     | inactive | open   | nothing  | the default mode | noop    | no plan/mode event is appended | inactive with no pending selection |
      | noop-logged-open-on      | active   | open   | nothing  | plan mode        | noop    | no plan/mode event is appended | active with no pending selection   |
      | noop-pending-open-on     | inactive | open   | active   | plan mode        | noop    | no plan/mode event is appended | inactive with active pending       |
      | noop-pending-open-off    | active   | open   | inactive | the default mode | noop    | no plan/mode event is appended | active with inactive pending       |
      | noop-logged-closed-off   | inactive | closed | nothing  | the default mode | noop    | no plan/mode event is appended | inactive with no pending selection |
      | noop-logged-closed-on    | active   | closed | nothing  | plan mode        | noop    | no plan/mode event is appended | active with no pending selection   |
      | noop-leftover-closed     | inactive | closed | active   | plan mode        | noop    | no plan/mode event is appended | inactive with active pending       |

    @PEND-4
    Examples: a different state during an open turn
      | case                     | logged   | turn   | pending  | selection        | outcome | appended                   | after                              |
      | queued-on                | inactive | open   | nothing  | plan mode        | queued  | no plan/mode event is appended | inactive with active pending       |
      | queued-off               | active   | open   | nothing  | the default mode | queued  | no plan/mode event is appended | active with inactive pending       |

    @PEND-5 @choice:cancel-pending=clear
    Examples: back to the logged state during an open turn
      | case                     | logged   | turn   | pending  | selection        | outcome   | appended                   | after                              |
      | cancel-open-on           | inactive | open   | active   | the default mode | cancelled | no plan/mode event is appended | inactive with no pending selection |
      | cancel-open-off          | active   | open   | inactive | plan mode        | cancelled | no plan/mode event is appended | active with no pending selection   |

    @PEND-5 @choice:cancel-pending=keep-equal
    Examples: back to the logged state during an open turn, the published package's reading
      | case                     | logged   | turn   | pending  | selection        | outcome   | appended                   | after                              |
      | cancel-open-keep-equal   | inactive | open   | active   | the default mode | cancelled | no plan/mode event is appended | inactive with inactive pending     |

    @PEND-6
    Examples: no open turn
      | case                     | logged   | turn   | pending  | selection        | outcome   | appended                       | after                              |
      | commit-on                | inactive | closed | nothing  | plan mode        | committed | plan/mode active is appended   | active with no pending selection   |
      | commit-off               | active   | closed | nothing  | the default mode | committed | plan/mode inactive is appended | inactive with no pending selection |
      | cancel-leftover          | inactive | closed | active   | the default mode | cancelled | no plan/mode event is appended | inactive with no pending selection |
      | cancel-leftover-off      | active   | closed | inactive | plan mode        | cancelled | no plan/mode event is appended | active with no pending selection   |

  @PEND-1 @id:pend-queued-until-next-accepted-step
  Scenario: A selection during an open turn is appended by the next accepted pre-step
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    Then set returns "queued"
    And no plan/mode event is appended
    And the next accepted step appends plan/mode active before the request header

  @PEND-1 @PEND-2 @id:pend-applied-in-a-later-turn
  Scenario: A selection after the turn's last accepted pre-step is appended in a later turn
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And the turn ends
    Then no plan/mode event is appended
    And get reports inactive with active pending
    When the agent goes idle
    And the user prompts "Now plan the refactor."
    Then no plan/mode event is appended
    And the next accepted step appends plan/mode active before the request header

  @PEND-1 @id:pend-survives-rejected-steps
  Scenario: A pending selection waits through rejected steps until one is accepted
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And a step is rejected
    Then no plan/mode event is appended
    And get reports inactive with active pending
    When the user prompts "Try again."
    Then the next accepted step appends plan/mode active before the request header

  @PEND-2 @id:pend-no-continuation-mid-turn
  Scenario: A selection during an open turn starts no step
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    Then no step or turn is started

  @PEND-2 @id:pend-no-continuation-idle
  Scenario: A selection between turns starts no turn
    Given an agent with plan mode inactive
    When the user selects plan mode
    Then set returns "committed"
    And no step or turn is started

  @PEND-5 @id:pend-cancel-before-boundary
  Scenario: A cancelled selection is never appended
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And the user selects the default mode
    Then set returns "cancelled"
    And the next accepted step appends no plan/mode event
    And the request shows plan mode inactive

  @PEND-5 @id:pend-cancel-exit-before-boundary
  Scenario: Cancelling a pending exit keeps plan mode on
    Given an agent with plan mode active and an open turn
    When the user selects the default mode
    And the user selects plan mode
    Then set returns "cancelled"
    And the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @PEND-6 @id:pend-commit-during-checkpointing
  Scenario: During post-turn checkpointing (still running, no open turn) set commits at once
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the turn ends
    And the user selects plan mode
    Then set returns "committed"
    And plan/mode active is appended

  @PEND-6 @id:pend-idle-commit-applies-to-next-turn
  Scenario: A committed selection is in force for the next turn's first request
    Given an agent with plan mode inactive
    When the user selects plan mode
    And the user prompts "Plan the migration."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @PEND-7 @id:pend-get-shows-pending
  Scenario: get reports the logged state and the waiting selection
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    Then get reports inactive with active pending

  @PEND-7 @id:pend-get-pending-gone-after-append
  Scenario: pending disappears once the selection is appended
    Given an agent with plan mode active and an open turn
    When the user selects the default mode
    Then get reports active with inactive pending
    When a step is accepted
    Then get reports inactive with no pending selection

  @PEND-7 @id:pend-get-active-is-logged-state
  Scenario: active stays the logged state while a selection waits
    Given an agent with plan mode active and an open turn
    When the user selects the default mode
    Then get reports active with inactive pending
    And the log folds to active

  @PEND-8 @id:pend-lost-at-restart
  Scenario: A selection not yet appended is lost when the process exits
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And the process restarts
    Then get reports inactive with no pending selection
    When the user prompts "Resume."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode inactive

  @PEND-8 @id:pend-logged-state-survives-restart
  Scenario: Nothing else is lost: the logged state survives a restart
    Given an agent with plan mode active and an open turn
    When the user selects the default mode
    And a step is accepted
    And the process restarts
    Then get reports inactive with no pending selection
    And the log folds to inactive

  @PEND-8 @choice:reload-pending=drop @id:pend-dropped-at-reload
  Scenario: A service reload drops pending selections like a restart
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And the plan-mode service is reloaded
    Then get reports inactive with no pending selection
    And the next accepted step appends no plan/mode event

  @PEND-8 @choice:reload-pending=keep @id:pend-kept-at-reload
  Scenario: A service reload keeps pending selections in the same process
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And the plan-mode service is reloaded
    Then get reports inactive with active pending
    And the next accepted step appends plan/mode active before the request header

  @PEND-2 @STEP-6 @id:pend-notice-never-starts-a-skipped-step
  Scenario: A notice never turns a step the runtime skips into one that runs
    Given the runtime skips an accepted step whose decision carries no messages
    And plan mode is loaded
    When the user prompts "Look around."
    And a step is accepted and the model answers "Looked."
    And the user selects plan mode
    And a step is accepted
    Then the runtime skipped the step: no step started and the turn ended without a request
    And the step carries no plan-mode notices

  @PEND-2 @STEP-6 @id:pend-first-step-with-nothing-to-send
  Scenario: A turn's first step left with nothing to send is skipped, though a selection's notice is due
    Given the runtime skips an accepted step whose decision carries no messages
    And a pre-step listener "inbox" is registered after the plugin
    And plan mode is loaded
    When the user prompts "Look around."
    And a step is accepted and the model answers "Looked."
    And the turn ends
    And the agent goes idle
    And the user prompts "Handled elsewhere."
    And the user selects plan mode
    And a step is proposed and "inbox" takes its messages for itself
    Then the runtime skipped the step: no step started and the turn ended without a request
    And the step carries no plan-mode notices

  @PEND-2 @PEND-1 @STEP-6 @choice:empty-step=keep-pending @id:pend-skipped-step-keeps-selection
  Scenario: A selection at a skipped step stays pending for the next step that runs, which carries the notice
    Given the runtime skips an accepted step whose decision carries no messages
    And plan mode is loaded
    When the user prompts "Look around."
    And a step is accepted and the model answers "Looked."
    And the user selects plan mode
    And a step is accepted
    Then no plan/mode event is appended
    And get reports inactive with active pending
    When the agent goes idle
    And the user prompts "Now plan it."
    And a step is accepted
    Then plan/mode active is appended before the request header
    And the step carries one plan-mode notice

  @PEND-2 @STEP-6 @choice:empty-step=inject @choice:idle-revert-notice=keep @id:pend-skipped-step-injects-notice
  Scenario: A selection at a skipped step is appended and its notice waits for a later step
    Given the runtime skips an accepted step whose decision carries no messages
    And plan mode is loaded
    When the user prompts "Look around."
    And a step is accepted and the model answers "Looked."
    And the user selects plan mode
    And a step is accepted
    Then the runtime skipped the step: no step started and the turn ended without a request
    And plan/mode active is appended
    And the plan-mode notice is injected for a later step
    And get reports active with no pending selection

  @PEND-2 @STEP-6 @choice:empty-step=inject @id:pend-skipped-step-appends-and-narrates-later
  Scenario: A selection appended at a skipped step is narrated once by the next step that runs
    Given the runtime skips an accepted step whose decision carries no messages
    And plan mode is loaded
    When the user prompts "Look around."
    And a step is accepted and the model answers "Looked."
    And the user selects plan mode
    And a step is accepted
    Then the runtime skipped the step: no step started and the turn ended without a request
    And plan/mode active is appended
    When the agent goes idle
    And the user prompts "Now plan it."
    And a step is accepted
    Then no plan/mode event is appended
    And the step carries one plan-mode notice
    And the request shows plan mode active
