@runtime
Feature: CMD at runtime level — /plan typed by the user

  Background:
    Given a runtime with plan mode configured with section "Plan first."
    And a host tool "read_file"

  @CMD-2 @id:rt-cmd-bare-plan
  Scenario: bare /plan between turns selects plan mode at once
    When the user types "/plan"
    Then the command reports "success"
    And the step appends plan/mode true
    And get shows active true with nothing pending

  @CMD-3 @STEP-7 @id:rt-cmd-plan-message
  Scenario: /plan with a message selects plan mode and sends the message as the next step's user message
    When the user types "/plan think it through" and the turn plays:
      """
      responses:
        - text: Here is how I would approach it.
      """
    Then the command reports "success"
    And the step appends plan/mode true
    And the step sends 1 request
    And the requests show plan:policy as on

  @CMD-4 @id:rt-cmd-off-cancels-entry
  Scenario: /plan off inside a turn cancels a pending entry before any request sees it
    When the user sends "Read the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: r1, name: read_file, args: {path: a.go}, during: [{id: k1, command: {input: /plan off}}]}]
        - text: Read it.
      """
    Then result "s1" is "queued"
    And result "k1" is "success"
    And the step appends plan/mode nothing
    And the requests show plan:policy as off, off

  @CMD-4 @choice:plan-argument=trimmed @id:rt-cmd-off-padded
  Scenario: /plan off with surrounding whitespace leaves plan mode: the argument read trimmed
    When the user selects plan mode
    And the user types "/plan  off "
    Then the command reports "success"
    And the step appends plan/mode false
    And get shows active false with nothing pending

  @CMD-4 @id:rt-cmd-uppercase-off-is-a-message
  Scenario: /plan OFF is not the exact argument off: it is a message, which selects plan mode
    When the user types "/plan OFF"
    Then the command reports "success"
    And get shows active true with nothing pending

  @CMD-1 @id:rt-cmd-not-composed
  Scenario: without the commands service /plan is not a command
    Given the commands service is not composed
    When the user types "/plan"
    Then the command reports "error"
    And the step appends plan/mode nothing

  @CMD-2 @PEND-3 @id:rt-cmd-bare-plan-when-on
  Scenario: bare /plan in plan mode keeps plan mode on
    When the user selects plan mode
    And the user types "/plan"
    Then the command reports "success"
    And the step appends plan/mode nothing
    And get shows active true with nothing pending
