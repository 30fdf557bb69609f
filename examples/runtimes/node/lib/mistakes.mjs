// Mistakes this runtime can be started with (--mistake NAME), each a
// realistic slip in its own code, with the clause it breaks. They exist to
// show that plankit finds each one and names its clause.

export const MISTAKES = Object.freeze({
  'rejected-step-drops-selection': ['STEP-3', 'a step the chain rejects or aborts forgets the waiting selection'],
  'failed-append-drops-selection': ['STEP-5', 'a pre-step append the store refuses forgets the waiting selection'],
  'cancel-keeps-entry': ['PEND-5', 'in an open turn, set back to the logged state answers cancelled but keeps the opposite selection waiting'],
  'fold-first': ['LOG-2', 'the fold takes the first plan/mode of the log, not the last'],
  'live-mirror': ['LOG-3', 'plan mode keeps its own copy of the state, updated only by its own appends, instead of folding the log'],
  'pending-dropped-at-turn-end': ['PEND-1', 'a selection still waiting when a turn ends is forgotten'],
  'notice-next-request': ['STEP-7', 'the notice of a selection appended at a pre-step is queued for the next step instead of this one'],
  'listener-appended': ['STEP-1', 'plan mode\'s pre-step listener is appended to the chain instead of prepended'],
  'uppercase-off': ['CMD-4', '/plan OFF (any case) is read as off'],
  'retry-not-dispatched': ['STEP-2', 'a request-recovery retry re-sends the request without dispatching agent/pre-step again'],
  'heading-after-text': ['EXIT-3', 'exit_plan_mode accepts a plan whose # heading comes after other text'],
  'wrong-reply-outcome': ['SVC-1', '/plan replies always announce that the selection was committed'],
  'stale-catalog-after-reload': ['SVC-2', 'the loop caches each agent\'s tool catalog at its first request, so after an unload exit_plan_mode stays offered'],
  'approval-one-step-late': ['EXIT-5', 'an approved exit is appended at the second accepted pre-step after the approval, not the next'],
});

export function readMistakes(names) {
  const set = new Set();
  for (const name of names) {
    if (!Object.hasOwn(MISTAKES, name)) {
      throw new Error(`unknown mistake ${JSON.stringify(name)}; known: ${Object.keys(MISTAKES).join(', ')}`);
    }
    set.add(name);
  }
  return set;
}
