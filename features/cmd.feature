Feature: CMD — the /plan command
  /plan [off|message] exists only when the commands service is composed.

  @CMD-1 @id:cmd-registered-with-commands-service
  Scenario: /plan is registered when the commands service is composed
    Given plan mode is loaded
    Then /plan is registered

  @CMD-1 @id:cmd-absent-without-commands-service
  Scenario: /plan is not registered without the commands service
    Given the commands service is not composed
    And an agent with plan mode inactive
    Then /plan is not registered
    When the user types "/plan"
    Then the command is unknown
    And no plan/mode event is appended

  @CMD-2 @id:cmd-bare-plan-idle
  Scenario: Bare /plan selects plan mode between turns
    Given an agent with plan mode inactive
    When the user types "/plan"
    Then the command succeeds
    And plan/mode active is appended
    And no step or turn is started

  @CMD-2 @id:cmd-bare-plan-mid-turn
  Scenario: Bare /plan during an open turn queues plan mode
    Given an agent with plan mode inactive and an open turn
    When the user types "/plan"
    Then the command succeeds
    And no plan/mode event is appended
    And get reports inactive with active pending

  @CMD-2 @id:cmd-bare-plan-already-on
  Scenario: Bare /plan when plan mode is on changes nothing
    Given an agent with plan mode active
    When the user types "/plan"
    Then the command succeeds
    And no plan/mode event is appended
    And get reports active with no pending selection

  @CMD-3 @id:cmd-plan-message-steers
  Scenario: /plan <message> selects plan mode and steers the message into the next step
    Given an agent with plan mode inactive
    When the user types "/plan Sketch the migration."
    Then plan/mode active is appended
    When a step is accepted
    Then the step logs the user message "Sketch the migration."
    And the request shows plan mode active

  @CMD-3 @id:cmd-plan-message-mid-turn
  Scenario: /plan <message> during an open turn: the message and the selection land in the same step
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user types "/plan Reconsider the schema."
    Then no plan/mode event is appended
    When a step is accepted
    Then plan/mode active is appended before the request header
    And the step logs the user message "Reconsider the schema."
    And the request shows plan mode active

  @CMD-3 @id:cmd-plan-offline-is-a-message
  Scenario: An argument other than exactly "off" is a message
    Given an agent with plan mode inactive
    When the user types "/plan offline mode first"
    Then plan/mode active is appended
    When a step is accepted
    Then the step logs the user message "offline mode first"

  @CMD-4 @id:cmd-off-commits-idle
  Scenario: /plan off selects the default mode
    Given an agent with plan mode active
    When the user types "/plan off"
    Then the command succeeds
    And plan/mode inactive is appended

  @CMD-4 @choice:cancel-pending=clear @id:cmd-off-cancels-pending-entry
  Scenario: /plan off cancels a pending entry before it is appended
    Given an agent with plan mode inactive and an open turn
    When the user types "/plan"
    And the user types "/plan off"
    Then the command succeeds
    And get reports inactive with no pending selection
    And the next accepted step appends no plan/mode event
    And the request shows plan mode inactive

  @CMD-4 @id:cmd-off-cancels-pending-entry-any-choice
  Scenario: A cancelled entry is never seen by a request
    Given an agent with plan mode inactive and an open turn
    When the user types "/plan Draft it."
    And the user types "/plan off"
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode inactive

  @CMD-4 @id:cmd-uppercase-off-is-a-message
  Scenario: Only the exact argument "off" leaves plan mode
    Given an agent with plan mode inactive
    When the user types "/plan OFF"
    Then plan/mode active is appended

  @CMD-4 @choice:plan-argument=trimmed @id:cmd-off-with-surrounding-whitespace
  Scenario: "off" with surrounding whitespace is still the exact argument off, read trimmed
    Given an agent with plan mode active
    When the user types "/plan   off  "
    Then the command succeeds
    And the reply announces committed
    And the command steers nothing
    And plan/mode inactive is appended

  @CMD-2 @choice:plan-argument=trimmed @id:cmd-blank-argument-is-bare-plan
  Scenario: An argument of only whitespace is bare /plan, read trimmed: nothing is steered
    Given an agent with plan mode inactive
    When the user types "/plan    "
    Then the command succeeds
    And the reply announces committed
    And the command steers nothing
    And plan/mode active is appended
    And no step or turn is started

  @CMD-3 @choice:plan-argument=trimmed @id:cmd-message-trimmed
  Scenario: A message is steered without its surrounding whitespace, read trimmed
    Given an agent with plan mode inactive and an open turn
    When the user types "/plan   Sketch it first.  "
    Then the reply announces queued
    And the command steers "Sketch it first."

  @CMD-3 @CMD-4 @choice:plan-argument=exact @id:cmd-padded-off-is-a-message-exact
  Scenario: "off" with surrounding whitespace is a message when the argument is read as typed
    Given an agent with plan mode active and an open turn
    When the user types "/plan   off  "
    Then the command succeeds
    And the reply announces noop
    And the command steers "  off  "
    And get reports active with no pending selection

  @CMD-3 @choice:plan-argument=exact @id:cmd-message-as-typed-exact
  Scenario: A message is steered as typed when the argument is read as typed
    Given an agent with plan mode inactive and an open turn
    When the user types "/plan   Sketch it first.  "
    Then the reply announces queued
    And the command steers "  Sketch it first.  "

  @CMD-3 @CMD-4 @id:cmd-off-other-case-or-trailing-text-is-a-message
  Scenario Outline: Only the exact word off selects inactive; anything else is a message [<case>]
    Given an agent with plan mode active and an open turn
    When the user types "<input>"
    Then the command succeeds
    And the reply announces noop
    And the command steers "<message>"
    And get reports active with no pending selection

    Examples:
      | case          | input           | message   |
      | capitalised   | /plan Off       | Off       |
      | upper-case    | /plan OFF       | OFF       |
      | trailing-text | /plan off now   | off now   |
      | joined        | /plan off-topic | off-topic |

  @CMD-3 @id:cmd-message-steered-when-nothing-changes
  Scenario: A message is steered even when plan mode is already on
    Given an agent with plan mode active
    When the user types "/plan Keep the schema."
    Then the command succeeds
    And the reply announces noop
    And the command steers "Keep the schema."
    And no plan/mode event is appended
    When a step is accepted
    Then the step logs the user message "Keep the schema."
    And the request shows plan mode active

  @CMD-4 @id:cmd-off-when-off-idle
  Scenario: /plan off when plan mode is already off, between turns
    Given an agent with plan mode inactive
    When the user types "/plan off"
    Then the command succeeds
    And the reply announces noop
    And no plan/mode event is appended
    And no step or turn is started

  @CMD-4 @id:cmd-off-when-off-mid-turn
  Scenario: /plan off when plan mode is already off, during a turn
    Given an agent with plan mode inactive and an open turn
    When the user types "/plan off"
    Then the command succeeds
    And the reply announces noop
    And get reports inactive with no pending selection
    And the next accepted step appends no plan/mode event

  @CMD-2 @SVC-1 @id:cmd-replies-announce-what-happened
  Scenario: Each reply announces the outcome of the selection it made
    Given an agent with plan mode inactive and an open turn
    When the user types "/plan"
    Then the reply announces queued
    When the user types "/plan"
    Then the reply announces noop
    When the user types "/plan off"
    Then the reply announces cancelled
    And the next accepted step appends no plan/mode event

  @CMD-1 @id:cmd-other-names-unknown
  Scenario Outline: Other command names stay unknown [<case>]
    Given an agent with plan mode active
    When the user types "<input>"
    Then the command is unknown
    And no plan/mode event is appended

    Examples:
      | case       | input      |
      | plural     | /plans off |
      | capital    | /Plan off  |
      | joined-off | /planoff   |
