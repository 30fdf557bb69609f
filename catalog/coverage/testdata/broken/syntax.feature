Feature: broken

  Scenario: fine
    Given a step

  This line is not Gherkin
  Scenario Outline: no examples
    Given <x>
