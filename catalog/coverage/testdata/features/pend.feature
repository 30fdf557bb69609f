@PEND
Feature: pending selections (fixture)

  Background:
    Given an agent with plan mode inactive

  @PEND-4 @id:pend-queue
  Scenario: a selection during an open turn is queued
    Given an open turn
    When the user selects plan mode
    Then set returns "queued"

  Rule: cancelling

    @PEND-5 @id:pend-cancel @choice:cancel-pending=clear
    Scenario: selecting back cancels
      Given an open turn
      When the user selects plan mode
      And the user selects plan mode off
      Then set returns "cancelled"

  @id:pend-outcomes
  Scenario Outline: the set outcome matrix
    When the user selects <state>
    Then set returns "<outcome>"

    @PEND-3
    Examples: noops
      | state | outcome |
      | off   | noop    |

    @PEND-6 @PEND-3
    Examples: commits
      | state | outcome   |
      | on    | committed |
