Feature: CFG — configuration and the prompt section
  The config is exactly { section: string }; the section text is rendered as
  plan:policy at order 50 while plan mode is active.

  @CFG-1 @id:cfg-validation
  Scenario Outline: The plugin config is validated at load [<case>]
    Given plan mode is configured with the raw config <config>
    Then plan mode <result>

    Examples:
      | case              | config                                        | result          |
      | valid             | {"section": "Plan first."}                    | loads           |
      | valid-multiline   | {"section": "Plan first.\\nThen act."}        | loads           |
      | missing-section   | {}                                            | refuses to load |
      | empty-section     | {"section": ""}                               | refuses to load |
      | blank-section     | {"section": "  \t "}                          | refuses to load |
      | number-section    | {"section": 5}                                | refuses to load |
      | null-section      | {"section": null}                             | refuses to load |
      | list-section      | {"section": ["Plan first."]}                  | refuses to load |
      | unknown-key       | {"section": "Plan first.", "mode": "strict"}  | refuses to load |
      | only-unknown-key  | {"policy": "Plan first."}                     | refuses to load |
      | not-an-object     | ["Plan first."]                               | refuses to load |

  @CFG-1 @id:cfg-valid-config-registers
  Scenario: A valid config loads and registers the plugin's parts
    Given plan mode is configured with the section "Plan first."
    Then the plugin registers the exit_plan_mode tool, the plan:policy section and the prepended pre-step listener

  @CFG-2 @id:cfg-section-while-active
  Scenario: While active, the exact section text is rendered as plan:policy at order 50
    Given plan mode is configured with the section:
      """
        Plan before you act.
          Read first; then present a plan with exit_plan_mode.
      """
    And an agent with plan mode active and an open turn
    When a step is accepted
    Then the request renders the plan:policy section with exactly the configured text at order 50

  @CFG-2 @id:cfg-no-section-while-inactive
  Scenario: While inactive, the plugin contributes no section text
    Given an agent with plan mode inactive and an open turn
    When a step is accepted
    Then the request has no plan:policy section

  @CFG-2 @id:cfg-section-leaves-with-plan-mode
  Scenario: Leaving plan mode removes the section from the next request
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the user selects the default mode
    And a step is accepted
    Then the request has no plan:policy section

  @CFG-2 @choice:section-source=log @id:cfg-section-renders-logged-state
  Scenario: When the append fails, the request renders the logged state (section from the log)
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And the host fails the plugin's next 1 append
    And a step is accepted
    Then no plan/mode event is appended
    And the request has no plan:policy section

  @CFG-2 @choice:section-source=pending @id:cfg-section-renders-pending-state
  Scenario: When the append fails, the request renders the pending selection (the published package)
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And the host fails the plugin's next 1 append
    And a step is accepted
    Then no plan/mode event is appended
    And the request renders the plan:policy section with exactly the configured text at order 50
