Feature: STEP — the pre-step append
  The plugin's prepended agent/pre-step listener calls the downstream
  listeners first and appends a pending selection only when they accept.

  @STEP-1 @id:step-listener-prepended
  Scenario: The plugin's listener is registered with prepend
    Given plan mode is loaded
    Then the plugin's listener is registered with prepend

  @STEP-1 @id:step-listener-wraps-the-others
  Scenario: The plugin's listener runs first and sees the decision of every other listener
    Given a pre-step listener "reminders" is registered before the plugin and adds the message "Remember the style guide."
    And an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And a step is accepted
    Then the plugin saw the message "Remember the style guide." in the downstream decision
    And plan/mode active is appended before the request header

  @STEP-1 @id:step-only-pre-step-appends-while-running
  Scenario: While running, a selection is appended only by the pre-step listener
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    Then no plan/mode event is appended
    When the user types "/plan"
    Then no plan/mode event is appended
    When a step is accepted
    Then plan/mode active is appended before the request header

  @STEP-2 @id:step-continuation-steps-observed
  Scenario: A continuation step is observed
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    Then the next accepted step appends plan/mode active before the request header

  @STEP-2 @id:step-retry-observed
  Scenario: A request-recovery retry goes through the pre-step and applies the selection
    Given an agent with plan mode inactive and an open turn
    When a step's request fails
    And the user selects plan mode
    And the request is retried
    Then plan/mode active is appended before the request header
    And the request shows plan mode active

  @STEP-2 @id:step-first-step-observed
  Scenario: Turn 1 step 1 is observed
    Given plan mode is loaded
    When the user prompts "Plan the work."
    And the user selects plan mode
    Then set returns "queued"
    And the next accepted step appends plan/mode active before the request header

  @STEP-2 @id:step-same-step-retry-not-observed
  Scenario: A retry inside the same step (the shipped loop) runs no pre-step, so the selection waits
    Given the runtime retries failed requests inside the same step
    And an agent with plan mode inactive and an open turn
    When a step's request fails
    And the user selects plan mode
    And the request is retried
    Then no plan/mode event is appended
    And get reports inactive with active pending
    And the next accepted step appends plan/mode active before the request header

  @STEP-3 @id:step-downstream-before-append
  Scenario: The plugin calls the downstream listeners before it appends
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And a step is accepted
    Then the plugin called the downstream listeners before appending
    And plan/mode active is appended before the request header

  @STEP-3 @id:step-rejected-appends-nothing
  Scenario: A rejected step appends nothing and the selection stays pending
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And a step is rejected
    Then the step ends the turn without a request
    And no plan/mode event is appended
    And get reports inactive with active pending

  @STEP-3 @id:step-aborted-appends-nothing
  Scenario: An aborted step appends nothing and the selection stays pending
    Given an agent with plan mode active and an open turn
    When the user selects the default mode
    And a step is aborted
    Then the step ends the turn without a request
    And no plan/mode event is appended
    And get reports active with inactive pending

  @STEP-4 @id:step-selection-before-admission-commits
  Scenario: A selection made before the prompt is admitted commits at once; admission appends only turn/start
    Given an agent with plan mode inactive
    When the user selects plan mode
    Then set returns "committed"
    When the user prompts "Plan the release."
    Then no plan/mode event is appended
    And the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @STEP-4 @id:step-selection-after-admission-queues
  Scenario: A selection made after the prompt is admitted is queued and appended by the turn's first accepted pre-step
    Given an agent with plan mode inactive
    When the user prompts "Plan the release."
    And the user selects plan mode
    Then set returns "queued"
    And the next accepted step appends plan/mode active before the request header

  @STEP-4 @id:step-admission-does-not-append-leftover
  Scenario: Admitting a prompt does not append a leftover selection
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And the turn ends
    And the agent goes idle
    And the user prompts "Next task."
    Then no plan/mode event is appended
    And get reports inactive with active pending

  @STEP-5 @id:step-failed-append-does-not-block
  Scenario: A failed append does not block the step and the selection stays pending
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And the host fails the plugin's next 1 append
    And a step is accepted
    Then the step is accepted and its request is sent
    And no plan/mode event is appended
    And get reports inactive with active pending
    And the next accepted step appends plan/mode active before the request header

  @STEP-5 @id:step-failed-appends-retry-later
  Scenario: After two failed appends the third accepted step appends the selection
    Given an agent with plan mode active and an open turn
    When the user selects the default mode
    And the host fails the plugin's next 2 appends
    And a step is accepted
    Then the step is accepted and its request is sent
    When a step is accepted
    Then the step is accepted and its request is sent
    And no plan/mode event is appended
    And the next accepted step appends plan/mode inactive before the request header

  @STEP-5 @choice:idle-append-failure=error @id:step-idle-append-failure-errors
  Scenario: An idle set whose append fails reports an error and changes nothing
    Given an agent with plan mode inactive
    When the host fails the plugin's next 1 append
    And the user selects plan mode
    Then set reports an error
    And no plan/mode event is appended
    And get reports inactive with no pending selection

  @STEP-6 @id:step-narrate-when-header-differs
  Scenario: A selection is narrated once when the last header showed the other state
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And a step is accepted
    Then plan/mode active is appended before the request header
    And the step carries one plan-mode notice

  @STEP-6 @id:step-no-narration-without-header
  Scenario: No notice when no request header was logged yet
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And a step is accepted
    Then plan/mode active is appended before the request header
    And the step carries no plan-mode notice

  @STEP-6 @choice:idle-revert-notice=keep @id:step-no-narration-when-header-shows-new-state
  Scenario: Flipping back to what the last header showed adds no second notice; the first change's notice stays
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the turn ends
    And the user selects the default mode
    And the user selects plan mode
    Then set returns "committed"
    When the agent goes idle
    And the user prompts "Carry on."
    And a step is accepted
    Then the step carries one plan-mode notice
    And the request shows plan mode active

  @STEP-6 @STEP-7 @choice:idle-revert-notice=net @id:step-idle-revert-not-narrated
  Scenario: A change reverted between turns before the next request is never narrated
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the turn ends
    And the user selects the default mode
    And the user selects plan mode
    Then set returns "committed"
    When the agent goes idle
    And the user prompts "Carry on."
    And a step is accepted
    Then the step carries no plan-mode notice
    And the request shows plan mode active

  @STEP-6 @STEP-7 @id:step-idle-change-narrated-once-after-rejected-step
  Scenario: An idle commit's notice survives a rejected step and reaches the next accepted one, once
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the turn ends
    And the user selects plan mode
    Then set returns "committed"
    When the agent goes idle
    And the user prompts "Plan it."
    And a step is rejected
    Then the step carries no plan-mode notice
    When the agent goes idle
    And the user prompts "Plan it, please."
    And a step is accepted
    Then the step carries one plan-mode notice
    And the plan-mode notice is among the request's messages
    And the request shows plan mode active

  @STEP-6 @id:step-narrate-idle-commit
  Scenario: An idle commit after a header that showed the other state is narrated once, at the next step
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the turn ends
    And the user selects plan mode
    Then set returns "committed"
    When the agent goes idle
    And the user prompts "Plan it."
    And a step is accepted
    Then the step carries one plan-mode notice
    And the request shows plan mode active

  @STEP-6 @PEND-5 @id:step-no-narration-after-cancelled-round-trip
  Scenario: A selection switched away and back within a turn adds no notice at the step
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the turn ends
    And the user selects plan mode
    Then set returns "committed"
    When the agent goes idle
    And the user prompts "Plan it."
    And the user selects the default mode
    And the user selects plan mode
    Then set returns "cancelled"
    When a step is accepted
    Then the step carries one plan-mode notice
    And the request shows plan mode active

  @STEP-6 @PEND-5 @id:step-requeued-selection-narrated-once
  Scenario: A selection queued, cancelled and queued again in one turn is narrated once
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    Then set returns "queued"
    When the user selects the default mode
    Then set returns "cancelled"
    When the user selects plan mode
    Then set returns "queued"
    When a step is accepted
    Then plan/mode active is appended before the request header
    And the step carries one plan-mode notice
    And the request shows plan mode active

  @STEP-7 @id:step-request-reflects-new-state
  Scenario: The step that appends a selection already shows the new state in its request
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the user selects the default mode
    And a step is accepted
    Then plan/mode inactive is appended before the request header
    And the request shows plan mode inactive
    And the plan-mode notice is among the request's messages

  @STEP-7 @id:step-notice-before-header
  Scenario: The notice is part of the messages of the step that appends
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And a step is accepted
    Then the plan-mode notice is among the request's messages
    And the request shows plan mode active

  @STEP-5 @choice:idle-append-failure=pending @id:step-idle-append-failure-pends
  Scenario: An idle set whose append fails leaves the selection pending
    Given an agent with plan mode inactive
    When the host fails the plugin's next 1 append
    And the user selects plan mode
    Then set returns "queued"
    And no plan/mode event is appended
    And get reports inactive with active pending

  @STEP-2 @STEP-6 @id:step-retry-notice-once
  Scenario: A change applied before a failed request is not narrated again by the retry's pre-step
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And a step's request fails
    Then plan/mode active is appended before the request header
    And the step carries one plan-mode notice
    When the request is retried
    Then no plan/mode event is appended
    And the step carries no plan-mode notice
    And the request shows plan mode active
    And the turn carries exactly one plan-mode notice

  @STEP-2 @STEP-6 @id:step-retry-selection-during-failed-request
  Scenario: A selection made while the request fails is applied and narrated once by the retry's pre-step
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When a step's request fails
    And the user selects plan mode
    And the request is retried
    Then plan/mode active is appended before the request header
    And the step carries one plan-mode notice
    And the plan-mode notice is among the request's messages
    And the turn carries exactly one plan-mode notice

  @STEP-2 @STEP-6 @id:step-same-step-retry-selection-narrated-once
  Scenario: Inside a same-step retry the selection waits, then the next step applies and narrates it once
    Given the runtime retries failed requests inside the same step
    And an agent with plan mode inactive mid-turn, after a request that showed it
    When a step's request fails
    And the user selects plan mode
    And the request is retried
    Then no plan/mode event is appended
    And the step carries no plan-mode notice
    And get reports inactive with active pending
    When a step is accepted
    Then plan/mode active is appended before the request header
    And the step carries one plan-mode notice
    And the turn carries exactly one plan-mode notice

  @STEP-2 @STEP-6 @id:step-same-step-retry-repeats-no-notice
  Scenario: A same-step retry of a request that carried a notice adds none
    Given the runtime retries failed requests inside the same step
    And an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And a step's request fails
    And the request is retried
    Then no plan/mode event is appended
    And the step carries no plan-mode notice
    When a step is accepted
    Then no plan/mode event is appended
    And the turn carries exactly one plan-mode notice

  @STEP-2 @STEP-6 @id:step-retry-undo-narrated-against-failed-header
  Scenario: A failed request's header counts: undoing its change before the retry is narrated once more
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And a step's request fails
    Then the step carries one plan-mode notice
    When the user selects the default mode
    And the request is retried
    Then plan/mode inactive is appended before the request header
    And the step carries one plan-mode notice
    And the turn carries exactly two plan-mode notices

  @STEP-6 @STEP-7 @PEND-2 @id:step-continuation-with-nothing-claimed
  Scenario: A continuation after tool results runs with nothing claimed and carries the notice
    Given the runtime skips an accepted step whose decision carries no messages
    And plan mode is loaded
    When the user prompts "Look around."
    And the model calls exit_plan_mode with the plan "# Plan" and the user approves
    And the user selects plan mode
    And a step is accepted
    Then the step is accepted and its request is sent
    And plan/mode active is appended before the request header
    And the step carries one plan-mode notice
    And the plan-mode notice is among the request's messages
