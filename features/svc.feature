Feature: SVC — the service
  ctx.planMode owns get/set, the pre-step application, the section, the
  command and the exit tool; the package is optional and soft guidance.

  @SVC-1 @id:svc-registers-what-it-owns
  Scenario: The service registers its section, exit tool, pre-step listener and command
    Given plan mode is loaded
    Then the plugin registers the exit_plan_mode tool, the plan:policy section and the prepended pre-step listener
    And /plan is registered

  @SVC-1 @id:svc-get-on-fresh-agent
  Scenario: get on a fresh session reports inactive with no pending selection
    Given plan mode is loaded
    Then get reports inactive with no pending selection
    And the log has no plan/mode event

  @SVC-1 @id:svc-set-and-get-agree
  Scenario: set and get agree on the selection they own
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    Then set returns "queued"
    And get reports inactive with active pending

  @SVC-2 @id:svc-runs-without-package
  Scenario: Without the package the agent loop runs with no plan-mode section or tool
    Given the runtime runs without the plan-mode package
    When the user prompts "Fix the bug."
    And a step is accepted
    Then the step is accepted and its request is sent
    And the request has no plan:policy section
    And the request's tools are ""
    And the log has no plan/mode event

  @SVC-2 @id:svc-no-command-or-tool-without-package
  Scenario: Without the package there is no /plan command and no exit tool
    Given the runtime runs without the plan-mode package
    When the user types "/plan"
    Then the command is unknown
    When the user prompts "Plan it."
    And the model calls exit_plan_mode with the plan "# Plan" and the user approves
    Then exit_plan_mode is unknown to the runtime
    And the log has no plan/mode event

  @SVC-3 @id:svc-soft-guidance-never-blocks
  Scenario: In plan mode the plugin passes the downstream decision through: it guides, never blocks
    Given an agent with plan mode active and an open turn
    When a step is accepted
    Then the plugin passed the downstream decision through
    And the step is accepted and its request is sent

  @SVC-3 @id:svc-writes-only-plan-state
  Scenario: The plugin writes only its own plan state to the log
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And a step is accepted
    And the model calls exit_plan_mode with the plan "# Plan" and the user approves
    And a step is accepted
    Then the plugin appended only plan/mode events
    And the plugin passed the downstream decision through

  @SVC-4 @id:svc-set-outcomes-are-the-four
  Scenario: set returns only the four outcomes of its catalog signature
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    Then set returns "queued"
    When the user selects plan mode
    Then set returns "noop"
    When the user selects the default mode
    Then set returns "cancelled"
    When the turn ends
    And the user selects plan mode
    Then set returns "committed"

  @SVC-4 @id:svc-get-shape
  Scenario: get's reply has the catalog's shape: pending present only while a selection waits
    Given an agent with plan mode active
    Then get reports active with no pending selection
    When the user prompts "Go."
    And the user selects the default mode
    Then get reports active with inactive pending

  @SVC-2 @PEND-8 @id:svc-unload-takes-everything
  Scenario: Unloading the plugin takes its listener, section, tool and pending selection
    Given an agent with plan mode active and an open turn
    And the user selects the default mode
    When the plan-mode plugin is unloaded
    Then /plan is not registered
    When a step is accepted
    Then no plan/mode event is appended
    And the step carries no plan-mode notices
    And the request has no plan:policy section
    And the request's tools are ""

  @SVC-2 @id:svc-unload-command-unknown
  Scenario: After an unload /plan is an unknown command
    Given an agent with plan mode inactive
    When the plan-mode plugin is unloaded
    And the user types "/plan"
    Then the command is unknown
    And no plan/mode event is appended

  @SVC-1 @PEND-8 @id:svc-load-after-unload-starts-from-log
  Scenario: A load after an unload starts clean from the log
    Given an agent with plan mode active and an open turn
    And the user selects the default mode
    When the plan-mode plugin is unloaded
    And the turn ends
    And the plan-mode plugin is loaded again
    Then get reports active with no pending selection
    When the user prompts "Go on."
    And a step is accepted
    Then no plan/mode event is appended
    And the request shows plan mode active

  @SVC-3 @EXIT-1 @id:svc-host-tools-run-in-any-mode
  Scenario Outline: The host's tools run with plan mode <mode>: plan mode never blocks them [<mode>]
    Given the host registers the tools "read, write" before plan mode loads
    And a prompt-assembly listener after plan mode's adds the tool "search"
    And an agent with plan mode <mode> and an open turn
    When a step is accepted and the model calls the host tools "read, write, search"
    Then every host tool call ran and succeeded
    And the request shows plan mode <mode>
    And the request's tool catalog is the host's tools "read, write, search" in that order plus exit_plan_mode

    Examples:
      | mode     |
      | active   |
      | inactive |

  @SVC-2 @LOG-3 @id:svc-load-folds-writes-made-while-unloaded
  Scenario: A load folds what outside writers logged while the plugin was unloaded
    Given an agent with plan mode inactive
    When the plan-mode plugin is unloaded
    And another process appends plan/mode with the data {"active": true}
    And the plan-mode plugin is loaded again
    Then get reports active with no pending selection
    When the user prompts "Go on."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @PEND-8 @SVC-2 @id:svc-unload-loses-idle-leftover
  Scenario: An unload loses a selection left pending after the last step
    Given an agent with plan mode inactive and an open turn
    When a step is accepted
    And the user selects plan mode
    And the turn ends
    And the plan-mode plugin is unloaded
    And the plan-mode plugin is loaded again
    Then get reports inactive with no pending selection
    When the user prompts "Go on."
    Then the next accepted step appends no plan/mode event
    And the request shows plan mode inactive

  @STEP-6 @SVC-2 @choice:unloaded-header=fold @id:svc-unloaded-header-describes-the-fold
  Scenario: A request logged while plan mode was unloaded described the state the log folds to
    Given an agent with plan mode active
    When the user prompts "Look around."
    And a step is accepted
    And the turn ends
    And the plan-mode plugin is unloaded
    And the user prompts "Go on."
    And a step is accepted
    And the turn ends
    And the plan-mode plugin is loaded again
    And the user selects the default mode
    And the user prompts "Again."
    And a step is accepted
    Then the step carries one plan-mode notice

  @STEP-6 @SVC-2 @choice:unloaded-header=shown @id:svc-unloaded-header-describes-what-it-showed
  Scenario: A request logged while plan mode was unloaded described what it showed: no plan guidance
    Given an agent with plan mode active
    When the user prompts "Look around."
    And a step is accepted
    And the turn ends
    And the plan-mode plugin is unloaded
    And the user prompts "Go on."
    And a step is accepted
    And the turn ends
    And the plan-mode plugin is loaded again
    And the user selects the default mode
    And the user prompts "Again."
    And a step is accepted
    Then the step carries no plan-mode notices

  @STEP-6 @SVC-2 @choice:unloaded-header=skipped @id:svc-unloaded-header-skipped
  Scenario: A request logged while plan mode was unloaded described nothing: the last one logged while composed counts
    Given an agent with plan mode inactive
    When the user prompts "Look around."
    And a step is accepted
    And the turn ends
    And the user selects plan mode
    And the plan-mode plugin is unloaded
    And the user prompts "Go on."
    And a step is accepted
    And the turn ends
    And the plan-mode plugin is loaded again
    And the user selects the default mode
    And the user prompts "Again."
    And a step is accepted
    Then the step carries no plan-mode notices
