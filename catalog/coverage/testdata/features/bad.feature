@LOG-1
Feature: citations that coverage must reject (fixture)

  @PEND-99 @id:bad-unknown
  Scenario: cites a clause that does not exist
    Given an agent

  @FOO-1 @id:bad-foreign
  Scenario: cites a clause of an unknown group
    Given an agent

  @id:pend-queue
  Scenario: reuses another scenario's ID
    Given an agent

  @LOG-2 @choice:cancel-pending=maybe @choice:no-such-choice=x
  Scenario: has no ID
    Given an agent
