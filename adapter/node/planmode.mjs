// The plan-mode package as both Node hosts (adapter/dsh, adapter/dsh-runtime)
// plug it into their cordis Context, the way dsh adds and removes a
// plugin: ctx.plugin(PlanModeController, config) and fiber.dispose(). It
// imports only Node's own modules, so each host keeps resolving its pinned
// packages from its own node_modules: the host passes the package in.

/** The plan-mode plugin's fiber in one Context: plugged in, disposed, plugged in again. */
export class PlanModeFiber {
  /** The fiber while the plugin is plugged in, else null. */
  fiber = null

  constructor (ctx, plugin) {
    this.ctx = ctx
    this.plugin = plugin
  }

  /**
   * Plug the plugin in with a copy of `config`. {} when its service
   * started; {error} when the plugin refused the config or did not start.
   */
  async plug (config) {
    this.fiber = this.ctx.plugin(this.plugin, config === undefined ? undefined : structuredClone(config))
    try {
      await this.fiber
    } catch (error) {
      return { error: error?.message ?? String(error) }
    }
    if (this.ctx.get('planMode') === undefined) return { error: `plan mode did not start (fiber state ${this.fiber.state})` }
    return {}
  }

  /** Dispose the fiber, with everything the plugin registered; nothing when it is not plugged in. */
  async unplug () {
    const fiber = this.fiber
    this.fiber = null
    if (fiber !== null) await fiber.dispose()
  }
}

/**
 * The package's planMode.get(agent) as a protocol getResult. get() returns
 * the raw `active` of the last plan/mode, so data that is not exactly
 * {active: boolean} (an outside writer's, or in a log an agent is opened
 * from) gives a string or nothing. The protocol carries a boolean: the
 * host reports what the package acts on — its truthiness, as the section
 * and the exit tool's gate read it — and the checks judge that.
 */
export function getResult (state) {
  const reply = { active: Boolean(state.active) }
  if (state.pending !== undefined) reply.pending = state.pending
  return reply
}
