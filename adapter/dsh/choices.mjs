// The picks of @deepseek-ai/dsh-plan-mode (the version package.json pins)
// for the silent points of the specification. They are facts about the
// package, established by running it: test/choices.test.mjs checks each one
// against the package through host.mjs. The runtime-level host
// (adapter/dsh-runtime), which pins the same version, declares the same
// picks from here. This module imports nothing, so it resolves from either.
export const CHOICES = Object.freeze({
  'fold-end': 'clamp', // foldPlanMode stops at the log's end; a negative end folds nothing (not slice)
  'cancel-pending': 'keep-equal', // an in-turn cancel stores a selection equal to the logged state
  'section-source': 'pending', // plan:policy renders pendingIntents ?? fold(log)
  'reload-pending': 'drop', // selections live in the service instance's WeakMap
  'idle-append-failure': 'error', // set() appends outside try/catch: the throw reaches the caller
  'plan-heading': 'level-1', // the exit tool requires /^#\s+\S/ on the trimmed plan
  'plan-mode-data': 'fold-active', // foldPlanMode reads event.data.active whatever other fields the data has
  'plan-mode-malformed': 'truthy', // foldPlanMode sets active = event.data.active, whatever it is: its truthiness is the state
  'idle-revert-notice': 'keep' // an idle set() hands its notice to agent.inject() at the commit; a revert does not take it back
})
