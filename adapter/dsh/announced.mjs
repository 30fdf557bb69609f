// What each of @deepseek-ai/dsh-plan-mode's /plan replies announces: the
// selection outcome its words tell the user (the protocols' command
// outcome, SVC-1). The package returns only text, so its meaning is read
// here from the package's own wording (lib/index.js); a text not listed is
// reported with no outcome, which the kit refuses as a broken reply. Both
// hosts of the package declare it from here: the plugin-level host.mjs and
// the runtime-level adapter/dsh-runtime/host.mjs, which pins the same
// version. This module imports nothing, so it resolves from either.
const ANNOUNCED = Object.freeze({
  'Plan mode off.': 'committed',
  'Leaving plan mode (applies from the next step).': 'queued',
  'Plan mode entry cancelled.': 'cancelled',
  'Plan mode is already inactive.': 'noop',
  'Plan mode on. Use /plan off to leave.': 'committed',
  'Entering plan mode (applies from the next step). Use /plan off to leave.': 'queued',
})

/**
 * The outcome a /plan result announces: for a success whose text is one of
 * the package's replies, its outcome; otherwise undefined (own keys only, so
 * a text such as "toString" announces nothing).
 */
export function announce (kind, text) {
  return kind === 'success' && Object.hasOwn(ANNOUNCED, text) ? ANNOUNCED[text] : undefined
}
