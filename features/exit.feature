Feature: EXIT — the exit tool
  exit_plan_mode is always registered, works only in plan mode, needs a
  markdown plan with a # heading and leaves plan mode only on approval.

  @EXIT-1 @id:exit-tool-registered-inactive
  Scenario: The tool is in the catalog while plan mode is inactive
    Given an agent with plan mode inactive and an open turn
    When a step is accepted
    Then the request's tools are "exit_plan_mode"

  @EXIT-1 @id:exit-catalog-stable-across-flip
  Scenario: Entering plan mode changes the section, never the tool catalog
    Given an agent with plan mode inactive mid-turn, after a request that showed it
    When the user selects plan mode
    And a step is accepted
    Then the request shows plan mode active
    And the request's tool catalog is the same as the previous request's

  @EXIT-1 @id:exit-catalog-stable-leaving
  Scenario: Leaving plan mode keeps the tool in the catalog
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the user selects the default mode
    And a step is accepted
    Then the request's tools are "exit_plan_mode"
    And the request's tool catalog is the same as the previous request's

  @EXIT-2 @id:exit-fails-outside-plan-mode
  Scenario: Executing exit_plan_mode outside plan mode fails
    Given an agent with plan mode inactive and an open turn
    When the model calls exit_plan_mode with the plan "# Plan\n\n1. Do it." and the user approves
    Then exit_plan_mode fails
    And the plan is not presented for review
    And get reports inactive with no pending selection

  @EXIT-2 @id:exit-runs-in-plan-mode
  Scenario: In plan mode exit_plan_mode runs and presents the plan
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "# Plan\n\n1. Do it." and the user approves
    Then the plan is presented for review exactly once, carrying "# Plan\n\n1. Do it."
    And exit_plan_mode succeeds with {"approved": true}

  @EXIT-3 @id:exit-plan-heading
  Scenario Outline: The plan must be a complete markdown plan starting with a # heading [<case>]
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "<plan>" and the user approves
    Then <outcome>

    Examples:
      | case             | plan                                  | outcome                                         |
      | heading          | # Refactor\n\n1. Split the module.    | exit_plan_mode succeeds with {"approved": true} |
      | heading-padded   | \n  # Refactor\n1. Split.             | exit_plan_mode succeeds with {"approved": true} |
      | no-heading       | Refactor: split the module.           | exit_plan_mode fails                            |
      | list-only        | 1. Split the module.                  | exit_plan_mode fails                            |
      | empty            |                                       | exit_plan_mode fails                            |
      | blank            | \n   \n                               | exit_plan_mode fails                            |
      | hash-no-space    | #Refactor                             | exit_plan_mode fails                            |
      | heading-only-hash | #                                    | exit_plan_mode fails                            |
      | text-before-heading | Some context.\n# Refactor\n1. Split. | exit_plan_mode fails                          |
      | heading-no-body  | # Refactor                            | exit_plan_mode succeeds with {"approved": true} |

    @choice:plan-heading=level-1
    Examples: a lower-level heading
      | case             | plan                                  | outcome                                         |
      | level-2-heading  | ## Refactor\n\n1. Split.              | exit_plan_mode fails                            |

  @EXIT-3 @id:exit-plan-argument-required
  Scenario: A call without a plan fails
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the arguments {"summary": "# Plan"}
    Then exit_plan_mode fails
    And the plan is not presented for review

  @EXIT-4 @id:exit-presents-plan
  Scenario: The plan is presented for review through the user-questions seam
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "# Ship it\n\n- tests\n- docs" and the user keeps planning with the feedback "Add a rollback step."
    Then the plan is presented for review exactly once, carrying "# Ship it\n\n- tests\n- docs"

  @EXIT-4 @id:exit-no-review-for-bad-plan
  Scenario: A plan without a heading is not presented
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "Just do it." and the user approves
    Then the plan is not presented for review

  @EXIT-5 @id:exit-approval-pending-silent-exit
  Scenario: Approval returns {approved: true} and records a pending exit
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan\n\n1. Do it." and the user approves
    Then exit_plan_mode succeeds with {"approved": true}
    And no plan/mode event is appended
    And get reports active with inactive pending

  @EXIT-5 @id:exit-approved-exit-not-narrated
  Scenario: The approved exit is appended at the next accepted step without a notice
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan\n\n1. Do it." and the user approves
    And a step is accepted
    Then plan/mode inactive is appended before the request header
    And the step carries no plan-mode notice
    And the request shows plan mode inactive

  @EXIT-5 @id:exit-approved-exit-waits-for-accepted-step
  Scenario: The approved exit waits through a rejected step
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan" and the user approves
    And a step is rejected
    Then no plan/mode event is appended
    And get reports active with inactive pending

  @EXIT-6 @id:exit-review-answers
  Scenario Outline: The review's answer decides the call [<case>]
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "# Plan" and the user <answer> with the feedback "<feedback>"
    Then <outcome>
    And get reports <after>

    Examples:
      | case                   | answer         | feedback              | outcome                                             | after                              |
      | keep-planning-feedback | keeps planning | Split step 2 in two.  | exit_plan_mode fails carrying the feedback "Split step 2 in two." | active with no pending selection |
      | approve-with-feedback  | approves       | But rename the flag.  | exit_plan_mode fails carrying the feedback "But rename the flag." | active with no pending selection |
      | approve                | approves       |                       | exit_plan_mode succeeds with {"approved": true}     | active with inactive pending       |

  @EXIT-6 @id:exit-keep-planning-then-present-again
  Scenario: After "keep planning" the model revises and presents again
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "# Plan v1" and the user keeps planning with the feedback "More detail."
    Then exit_plan_mode fails carrying the feedback "More detail."
    When the model calls exit_plan_mode with the plan "# Plan v2" and the user approves
    Then exit_plan_mode succeeds with {"approved": true}

  @EXIT-7 @id:exit-no-channel-fails
  Scenario: Without an interaction channel the call fails and plan mode stays on
    Given the user-questions service is not composed
    And an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "# Plan" and the user approves
    Then exit_plan_mode fails
    And get reports active with no pending selection

  @EXIT-7 @id:exit-reload-during-review-fails
  Scenario: A reload of the service while the review is open fails the call
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode and the plan-mode service is reloaded during the review
    Then exit_plan_mode fails
    And get reports active with no pending selection

  @EXIT-7 @id:exit-dismissed-review-fails
  Scenario: A dismissed review fails the call; plan mode is never left implicitly
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "# Plan" and the user dismisses the review
    Then exit_plan_mode fails
    And the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @EXIT-6 @EXIT-5 @id:exit-keep-planning-after-approval-same-batch
  Scenario: "Keep planning" after an approval in the same tool batch keeps plan mode on
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode twice in one tool batch:
      | plan       | answer         | feedback          |
      | # Plan v1  | approves       |                   |
      | # Plan v2  | keeps planning | Cover rollback.   |
    Then call 1 of the batch succeeds with {"approved": true}
    And exit_plan_mode fails carrying the feedback "Cover rollback."
    And get reports active with no pending selection
    And the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @EXIT-6 @STEP-5 @id:exit-keep-planning-after-failed-append
  Scenario: "Keep planning" after an approval whose append failed keeps plan mode on
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan v1" and the user approves
    And the host fails the plugin's next 1 append
    And the model calls exit_plan_mode with the plan "# Plan v2" and the user keeps planning with the feedback "Cover rollback."
    Then the plan is presented for review exactly once, carrying "# Plan v2"
    And exit_plan_mode fails carrying the feedback "Cover rollback."
    And get reports active with no pending selection
    And the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @EXIT-5 @EXIT-4 @id:exit-second-call-after-approval-reaches-review
  Scenario: A second exit_plan_mode in the same tool batch after an approval reaches review again
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode twice in one tool batch:
      | plan       | answer   | feedback |
      | # Plan v1  | approves |          |
      | # Plan v2  | approves |          |
    Then the plan is presented for review 2 times
    And call 1 of the batch succeeds with {"approved": true}
    And call 2 of the batch succeeds with {"approved": true}
    And get reports active with inactive pending
    And the next accepted step appends plan/mode inactive before the request header

  @EXIT-2 @PEND-4 @id:exit-gate-ignores-pending-entry
  Scenario: A pending entry does not open the exit tool's gate: it reads the logged state
    Given an agent with plan mode inactive and an open turn
    When the user selects plan mode
    And the host fails the plugin's next 1 append
    And the model calls exit_plan_mode with the plan "# Plan" and the user approves
    Then exit_plan_mode fails
    And the plan is not presented for review
    And get reports inactive with active pending

  @EXIT-2 @EXIT-4 @id:exit-gate-ignores-pending-exit
  Scenario: A user's pending exit does not close the exit tool's gate: the plan still reaches review
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the user selects the default mode
    And the host fails the plugin's next 1 append
    And the model calls exit_plan_mode with the plan "# Plan" and the user approves
    Then the plan is presented for review exactly once, carrying "# Plan"
    And exit_plan_mode succeeds with {"approved": true}

  @EXIT-5 @STEP-6 @id:exit-approval-replaces-queued-user-exit
  Scenario: An approval replaces a user's queued exit, so the exit is appended without a notice
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the user selects the default mode
    And the host fails the plugin's next 1 append
    And the model calls exit_plan_mode with the plan "# Plan" and the user approves
    And a step is accepted
    Then plan/mode inactive is appended before the request header
    And the step carries no plan-mode notice
    And the request shows plan mode inactive

  @EXIT-6 @PEND-1 @id:exit-keep-planning-leaves-user-selection
  Scenario: "Keep planning" leaves a user's own queued exit pending
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the user selects the default mode
    And the host fails the plugin's next 1 append
    And the model calls exit_plan_mode with the plan "# Plan" and the user keeps planning with the feedback "Later."
    Then exit_plan_mode fails carrying the feedback "Later."
    And get reports active with inactive pending
    And the next accepted step appends plan/mode inactive before the request header
    And the step carries one plan-mode notice

  @EXIT-5 @EXIT-6 @id:exit-reply-other-question-ignored
  Scenario: Answers to another question are not the review's: the review's own approval approves
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan" and the review seam replies:
      | question         | selected      | custom |
      | another question | keep planning |        |
      | the review       | approve       |        |
    Then exit_plan_mode succeeds with {"approved": true}
    And get reports active with inactive pending

  @EXIT-6 @EXIT-7 @id:exit-reply-unknown-question
  Scenario: An approval of a question the tool did not ask leaves plan mode on
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan" and the review seam replies:
      | question         | selected | custom |
      | another question | approve  |        |
    Then exit_plan_mode fails
    And get reports active with no pending selection
    And the next accepted step appends no plan/mode event
    And the request shows plan mode active

  @EXIT-6 @EXIT-7 @id:exit-reply-multi-select
  Scenario: Selecting both options is no approval: plan mode stays on
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan" and the review seam replies:
      | question   | selected               | custom |
      | the review | approve, keep planning |        |
    Then exit_plan_mode fails
    And get reports active with no pending selection
    And the next accepted step appends no plan/mode event

  @EXIT-6 @EXIT-7 @id:exit-reply-several-review-answers
  Scenario: Several answers to the review question are no approval: plan mode stays on
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan" and the review seam replies:
      | question   | selected      | custom |
      | the review | approve       |        |
      | the review | keep planning |        |
    Then exit_plan_mode fails
    And get reports active with no pending selection

  @EXIT-6 @id:exit-reply-free-text-only
  Scenario: Free text with no option selected is keep planning carrying that text
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan" and the review seam replies:
      | question   | selected | custom                 |
      | the review |          | Cover the rollback too. |
    Then exit_plan_mode fails carrying the feedback "Cover the rollback too."
    And get reports active with no pending selection

  @EXIT-6 @EXIT-7 @id:exit-reply-no-answer
  Scenario: A reply with no answer at all fails the call; plan mode stays on
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan" and the review seam replies with no answer
    Then the plan is presented for review exactly once, carrying "# Plan"
    And exit_plan_mode fails
    And get reports active with no pending selection
    And the next accepted step appends no plan/mode event

  @EXIT-7 @EXIT-4 @id:exit-seam-fails
  Scenario Outline: A review seam that fails fails the call; plan mode stays on [<case>]
    Given an agent with plan mode active and an open turn
    When the model calls exit_plan_mode with the plan "# Plan" and the review seam <how>
    Then the plan is presented for review exactly once, carrying "# Plan"
    And exit_plan_mode fails
    And get reports active with no pending selection

    Examples:
      | case        | how               |
      | throws      | throws            |
      | refused     | refuses the agent |
      | unavailable | has no way to ask |

  @EXIT-7 @id:exit-review-aborted
  Scenario: The step's signal aborting while the review is open fails the call and ends the turn; plan mode stays on
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode with the plan "# Plan" and the review seam is aborted by the step's signal
    Then exit_plan_mode fails
    And the turn has ended with the reason "aborted"
    And get reports active with no pending selection
    And the log folds to active

  @EXIT-7 @EXIT-5 @id:exit-seam-fails-after-approval
  Scenario: A seam failing for a second call leaves the first call's approval in force
    Given an agent with plan mode active mid-turn, after a request that showed it
    When the model calls exit_plan_mode twice in one tool batch:
      | plan       | answer               | feedback |
      | # Plan v1  | approves             |          |
      | # Plan v2  | dismisses the review |          |
    Then call 1 of the batch succeeds with {"approved": true}
    And exit_plan_mode fails
    And get reports active with inactive pending

  @EXIT-1 @SVC-3 @id:exit-catalog-host-tools-across-flips
  Scenario: The catalog is the host's tools plus exit_plan_mode, the same in and out of plan mode
    Given the host registers the tools "read, write" before plan mode loads
    And a prompt-assembly listener after plan mode's adds the tool "search"
    And plan mode is loaded
    When the user prompts "Tidy the README."
    And a step is accepted
    Then the request's tool catalog is the host's tools "read, write, search" in that order plus exit_plan_mode
    When the user selects plan mode
    And a step is accepted
    Then the request shows plan mode active
    And the request's tool catalog is the host's tools "read, write, search" in that order plus exit_plan_mode
    And the request's tool catalog is the same as the previous request's
    When the user selects the default mode
    And a step is accepted
    Then the request shows plan mode inactive
    And the request's tool catalog is the same as the previous request's
