@runtime
Feature: CFG at runtime level — the section in the request actually sent

  @CFG-2 @id:rt-cfg-section-in-request
  Scenario: while active, the request carries the configured section as plan:policy at order 50
    Given a runtime with plan mode configured with section "Think before you edit."
    When the user selects plan mode
    And the user sends "Plan the change."
    Then the plan:policy section of request 1 of the step is "Think before you edit." at order 50

  @CFG-2 @id:rt-cfg-no-section-inactive
  Scenario: while inactive, plan mode contributes no section
    Given a runtime with plan mode configured with section "Think before you edit."
    When the user sends "Edit the code."
    Then the requests show plan:policy as off

  @CFG-1 @id:rt-cfg-unknown-key-refused
  Scenario: a config with an unknown key is refused when the runtime loads
    Given a runtime with plan mode configured with:
      """
      {"section": "Plan first.", "extra": 1}
      """
    Then plan mode refuses the config
