Feature: runner self-test

  @LOG-1 @id:undefined-step
  Scenario: A step no definition matches
    Given plan mode is loaded
    When the moon is full
    Then get reports inactive with no pending selection

  @LOG-1 @id:passing
  Scenario: A passing scenario
    Given plan mode is loaded
    Then get reports inactive with no pending selection

  @LOG-1 @id:failing
  Scenario: A failing expectation
    Given plan mode is loaded
    Then get reports active with no pending selection

  @LOG-2 @choice:fold-end=clamp @id:choice-dependent
  Scenario: A scenario that depends on a choice
    Given plan mode is loaded
    When foldPlanMode runs over the events "active" up to 5
    Then foldPlanMode returns active
