@runtime
Feature: EXIT at runtime level — exit_plan_mode called by the model

  Background:
    Given a runtime with plan mode configured with section "Plan first."
    And a host tool "read_file"

  @EXIT-1 @id:rt-exit-registered-inactive
  Scenario: exit_plan_mode is offered whether or not plan mode is active
    When the user sends "Edit the code."
    Then every request of the step offers exit_plan_mode
    When the user selects plan mode
    And the user sends "Plan the change."
    Then every request of the step offers exit_plan_mode

  @EXIT-1 @SVC-3 @id:rt-exit-host-tools-in-plan-mode
  Scenario: the host's tools stay in the catalog, in the host's order, and run while plan mode is on
    Given a host tool "write_file"
    When the user sends "Look first."
    And the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: r1, name: read_file, args: {path: a.go}}, {id: w1, name: write_file, args: {path: a.go}}]
        - text: Planned.
      """
    Then result "r1" is "ok"
    And result "w1" is "ok"
    And every request of the step offers exit_plan_mode
    And the requests show plan:policy as on, on

  @EXIT-1 @SVC-3 @id:rt-exit-assembly-tools-in-plan-mode
  Scenario: a tool another prompt-assembly listener adds after plan mode's stays in the catalog and runs while plan mode is on (capability assemblyTools)
    Given a host tool "search" added by a prompt-assembly listener after plan mode's
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: s1, name: search, args: {query: TODO}}]
        - text: Planned.
      """
    Then result "s1" is "ok"
    And every request of the step offers exit_plan_mode
    And the requests show plan:policy as on, on

  @EXIT-2 @id:rt-exit-outside-plan-mode
  Scenario: exit_plan_mode fails outside plan mode and changes nothing
    When the user sends "Edit the code." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {answer: approve}}]
      """
    Then result "c1" is "failed"
    And the step appends plan/mode nothing

  @EXIT-3 @id:rt-exit-plan-without-heading
  Scenario: a plan that does not open with a # heading fails and plan mode stays on
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "1. edit"}, review: {answer: approve}}]
      """
    Then result "c1" is "failed"
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on

  @EXIT-3 @id:rt-exit-plan-heading
  Scenario Outline: a plan must open with a # heading; one that does not fails and plan mode stays on [<case>]
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "<plan>"}, review: {answer: approve}}]
      """
    Then result "c1" is "failed"
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on

    Examples:
      | case                | plan                                |
      | hash-no-space       | #Plan\\n1. edit                     |
      | text-before-heading | Context first.\\n# Plan\\n1. edit   |

    @choice:plan-heading=level-1
    Examples: a lower-level heading under plan-heading=level-1
      | case            | plan               |
      | level-2-heading | ## Plan\\n1. edit  |
      | level-3-heading | ### Plan\\n1. edit |

  @EXIT-4 @EXIT-5 @id:rt-exit-approved
  Scenario: an approved plan returns approved, and the next step leaves plan mode silently
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {answer: approve}}]
        - text: Editing now.
      """
    Then result "c1" is "ok"
    And result "c1" carries "approved"
    And result "c1" asked the user
    And the step appends plan/mode false
    And the step logs 0 plan-mode notices
    And the requests show plan:policy as on, off

  @EXIT-5 @id:rt-exit-approved-rest-of-batch
  Scenario: after an approval, plan guidance stays in force for the rest of the tool batch
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls:
            - {id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {answer: approve}}
            - {id: r1, name: read_file, args: {path: a.go}, during: [{id: g1, get: {}}]}
        - text: Editing now.
      """
    Then result "c1" is "ok"
    And result "g1" is "active=true pending=false"
    And the requests show plan:policy as on, off

  @EXIT-6 @id:rt-exit-keep-planning
  Scenario: keep planning fails the call with the feedback, and plan mode stays on
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {answer: keep-planning, feedback: "Split step 1."}}]
        - text: Revising.
      """
    Then result "c1" is "failed"
    And result "c1" carries "Split step 1."
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on

  @EXIT-7 @id:rt-exit-no-channel
  Scenario: without a user-questions service the call fails and plan mode stays on
    Given the user-questions service is not composed
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {answer: approve}}]
      """
    Then result "c1" is "failed"
    And the step appends plan/mode nothing
    And get shows active true with nothing pending

  @EXIT-6 @id:rt-exit-approve-with-feedback
  Scenario: an approval that carries feedback text is keep planning
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {answer: approve, feedback: "But test first."}}]
      """
    Then result "c1" is "failed"
    And result "c1" carries "But test first."
    And the step appends plan/mode nothing
    And get shows active true with nothing pending

  @EXIT-7 @id:rt-exit-reload-during-review
  Scenario: a reload of plan mode while the review is open fails the call, and plan mode stays on
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {answer: approve, reload: true}}]
        - text: Waiting.
      """
    Then result "c1" is "failed"
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on

  @EXIT-6 @EXIT-5 @id:rt-exit-keep-planning-after-approval-same-batch
  Scenario: keep planning after an approval in the same tool batch withdraws the approved exit
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls:
            - {id: c1, name: exit_plan_mode, args: {plan: "# Plan v1"}, review: {answer: approve}}
            - {id: c2, name: exit_plan_mode, args: {plan: "# Plan v2"}, review: {answer: keep-planning, feedback: "Cover rollback."}}
        - text: Revising.
      """
    Then result "c1" is "ok"
    And result "c2" is "failed"
    And result "c2" carries "Cover rollback."
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on
    And get shows active true with nothing pending

  @EXIT-2 @PEND-4 @id:rt-exit-gate-ignores-queued-entry
  Scenario: a user's entry queued while the model calls exit_plan_mode does not open its gate
    When the user sends "Edit the code." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: true}}]
          calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan"}, review: {answer: approve}}]
        - text: Planning.
      """
    Then result "c1" is "failed"
    And the step appends plan/mode true
    And the requests show plan:policy as off, on

  @EXIT-5 @STEP-6 @id:rt-exit-approval-replaces-queued-user-exit
  Scenario: an approval replaces the user's queued exit, so plan mode is left without a notice
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - during: [{id: s1, set: {active: false}}]
          calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan"}, review: {answer: approve}}]
        - text: Editing now.
      """
    Then result "c1" is "ok"
    And the step appends plan/mode false
    And the step logs 0 plan-mode notices
    And the requests show plan:policy as on, off

  @EXIT-5 @EXIT-6 @id:rt-exit-reply-other-question-ignored
  Scenario: answers to another question are not the review's; the review's own approval approves
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {reply: {answers: [{question: scope-check, selected: [keep-planning]}, {selected: [approve]}]}}}]
        - text: Editing now.
      """
    Then result "c1" is "ok"
    And result "c1" carries "approved"
    And the step appends plan/mode false
    And the requests show plan:policy as on, off

  @EXIT-6 @EXIT-7 @id:rt-exit-reply-unknown-question
  Scenario: an approval of a question the tool did not ask leaves plan mode on
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {reply: {answers: [{question: scope-check, selected: [approve]}]}}}]
        - text: Revising.
      """
    Then result "c1" is "failed"
    And result "c1" asked the user
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on
    And get shows active true with nothing pending

  @EXIT-6 @EXIT-7 @id:rt-exit-reply-multi-select
  Scenario: selecting both options is no approval, and plan mode stays on
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {reply: {answers: [{selected: [approve, keep-planning]}]}}}]
        - text: Revising.
      """
    Then result "c1" is "failed"
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on

  @EXIT-6 @EXIT-7 @id:rt-exit-reply-several-review-answers
  Scenario: several answers to the review question are no approval
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {reply: {answers: [{selected: [approve]}, {selected: [keep-planning]}]}}}]
        - text: Revising.
      """
    Then result "c1" is "failed"
    And the step appends plan/mode nothing
    And get shows active true with nothing pending

  @EXIT-6 @id:rt-exit-reply-free-text-only
  Scenario: free text with no option selected is keep planning carrying that text
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {reply: {answers: [{custom: "Cover the rollback too."}]}}}]
        - text: Revising.
      """
    Then result "c1" is "failed"
    And result "c1" carries "Cover the rollback too."
    And the step appends plan/mode nothing

  @EXIT-6 @EXIT-7 @id:rt-exit-reply-no-answer
  Scenario: a reply with no answer at all fails the call, and plan mode stays on
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {reply: {answers: []}}}]
        - text: Revising.
      """
    Then result "c1" is "failed"
    And result "c1" asked the user
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on

  @EXIT-7 @EXIT-4 @id:rt-exit-seam-fails
  Scenario Outline: a review seam that fails fails the call, and plan mode stays on [<how>]
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls: [{id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {fail: <how>}}]
        - text: Waiting.
      """
    Then result "c1" is "failed"
    And result "c1" asked the user
    And the step appends plan/mode nothing
    And the requests show plan:policy as on, on
    And get shows active true with nothing pending

    Examples:
      | how         |
      | throws      |
      | refused     |
      | unavailable |

  @EXIT-7 @id:rt-exit-review-aborted
  Scenario: the step's signal aborting while the review is open fails the call and ends the turn aborted
    When the user selects plan mode
    And the user sends "Plan the change." and the turn plays:
      """
      responses:
        - calls:
            - {id: c1, name: exit_plan_mode, args: {plan: "# Plan\n1. edit"}, review: {fail: aborted}}
            - {id: r1, name: read_file, args: {path: a.go}}
      """
    Then result "c1" is "failed"
    And the step appends plan/mode nothing
    And the step sends 1 request
    And the turn ends "aborted"
    And get shows active true with nothing pending
