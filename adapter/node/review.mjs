// The user of the plan review as the kit scripts it (a review: answer,
// feedback, reply, fail), played as dsh's user-questions seam would play
// it, for both Node hosts (adapter/dsh, adapter/dsh-runtime). A review
// means what docs/adapter-protocol.md#exittool says (and sim.Review's
// Structured in the kit): approve and keep-planning select that one option
// with feedback as free text; no answer is a reply with the feedback alone
// as free text, or no answer at all; dismiss closes the question; reply is
// the seam's reply as given; fail makes the seam fail.
//
// It imports only Node's own modules, so each host keeps resolving its
// pinned packages from its own node_modules: the host passes in the
// UserQuestionError of its dsh-user-questions.

/** The answers a review may give (review.answer). */
export const REVIEW_ANSWERS = Object.freeze(['approve', 'keep-planning', 'dismiss'])

/** The options a reply's answer selects, by meaning. */
export const REVIEW_OPTIONS = Object.freeze(['approve', 'keep-planning'])

/**
 * How the seam fails (review.fail), as dsh-user-questions fails: the
 * message and the UserQuestionError code; throws is the UI's own error.
 */
const FAILURES = Object.freeze({
  throws: ['the question UI failed'],
  aborted: ['ask_user_question was aborted before the user answered', 'ASK_ABORTED'],
  refused: ['human interaction requires the exact live calling agent when an agent is supplied', 'CALLER_NOT_LIVE'],
  unavailable: ['no user-questions provider is registered', 'NO_PROVIDER'],
})

/** The ways the seam may be scripted to fail (review.fail). */
export const REVIEW_FAILS = Object.freeze(Object.keys(FAILURES))

/**
 * A scripted review the host cannot play is the kit's mistake: this throws
 * for one, so a host can answer it as a protocol error before the package
 * runs (inside ask() the package would report it as the tool failing).
 */
export function checkReview (review) {
  if (review === undefined) return
  if (review.answer !== undefined && !REVIEW_ANSWERS.includes(review.answer)) throw new Error(`plankit host: unknown review answer ${JSON.stringify(review.answer)}`)
  if (review.fail !== undefined && !REVIEW_FAILS.includes(review.fail)) throw new Error(`plankit host: unknown review fail ${JSON.stringify(review.fail)}`)
  for (const a of review.reply?.answers ?? []) {
    for (const s of a.selected ?? []) {
      if (!REVIEW_OPTIONS.includes(s)) throw new Error(`plankit host: unknown review option ${JSON.stringify(s)}`)
    }
  }
}

/**
 * What the seam does with `question` (the plan review the package asks)
 * for `review`: returns the reply it hands the package ({answers: [{id,
 * selected, custom?}]}, options by the question's own labels), or throws
 * as dsh-user-questions does when the user dismisses the question
 * (ASK_CANCELLED) or the seam fails. For fail "aborted", abort() is called
 * first: the host fires the signal of the call, as a cancelled step does.
 */
export function answerReview (review, question, { UserQuestionError, abort }) {
  checkReview(review)
  if (review.fail !== undefined) {
    if (review.fail === 'aborted') abort()
    const [message, code] = FAILURES[review.fail]
    throw code === undefined ? new Error(message) : new UserQuestionError(message, code)
  }
  if (review.answer === 'dismiss') throw new UserQuestionError('the user dismissed the question', 'ASK_CANCELLED')
  const approve = question?.intent?.approve
  if (approve === undefined) throw new Error('plankit host: the review question names no approve option')
  const labels = { approve, 'keep-planning': (question.options ?? []).map((o) => o.label).find((l) => l !== approve) }
  return {
    answers: scriptedAnswers(review).map((a) => {
      const item = { id: a.question ?? question.id, selected: (a.selected ?? []).map((s) => labels[s]) }
      if (typeof a.custom === 'string' && a.custom !== '') item.custom = a.custom
      return item
    })
  }
}

/** The reply's answers a review that neither dismisses nor fails stands for, options by meaning. */
function scriptedAnswers (review) {
  if (review.reply !== undefined) return review.reply.answers ?? []
  if (review.answer !== undefined) return [{ selected: [review.answer], custom: review.feedback }]
  if (review.feedback) return [{ custom: review.feedback }]
  return []
}
