// Points SPEC.md and the runtime protocol leave free, where this runtime
// differs from plankit's built-in runtime on purpose. --lay-aside NAME sets
// one back to the built-in runtime's way; it is for investigation only (to
// let a search go past a difference plankit reports at such a point), never
// how the runtime is meant to run.

export const FREEDOMS = Object.freeze({
  'own-tool': 'the runtime offers a tool of its own (jot_down) beside the host\'s tools',
  'own-section': 'the runtime renders a second base section of its own (node:etiquette) after plan:policy',
  'notice-words': 'the notices have this runtime\'s own text and summary (laid aside: the published package\'s sentences, docs/runtime-events.md)',
  'unload-withdraws-notice': 'an unload takes back the notices plan mode queued that no step has carried yet, so none is logged while it is unloaded',
  'unloaded-header': 'a request header logged while plan mode was unloaded described the inactive state (laid aside: the state the log folded to then)',
  'fault-scope': 'an armed append fault fails every plan/mode append to the agent\'s log, an outside writer\'s too',
});

export function readFreedoms(names) {
  const set = new Set();
  for (const name of names) {
    if (!Object.hasOwn(FREEDOMS, name)) throw new Error(`unknown free point ${JSON.stringify(name)}; known: ${Object.keys(FREEDOMS).join(', ')}`);
    set.add(name);
  }
  return set;
}
