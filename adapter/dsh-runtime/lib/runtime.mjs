// One composed dsh runtime: the real agent loop with the real published
// services and the real plan-mode package, in one cordis Context. Only the
// model (ScriptedModel) and the user's answers (the userQuestions provider)
// are the host's own; both answer from the kit's script.
import { format } from 'node:util'
import { Context } from '@deepseek-ai/cordis'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import { AgentRegistry } from '@deepseek-ai/dsh-agent'
import { CommandRuntime } from '@deepseek-ai/dsh-commands'
import { LlmAdapter, LlmRuntime, resolveRetryPolicy } from '@deepseek-ai/dsh-llm'
import * as LlmRetry from '@deepseek-ai/dsh-llm-retry'
import PlanModeController from '@deepseek-ai/dsh-plan-mode'
import { SessionStore } from '@deepseek-ai/dsh-session'
import { SystemPrompt, renderPrompt } from '@deepseek-ai/dsh-system-prompt'
import { ToolRuntime, defineTool } from '@deepseek-ai/dsh-tools'
import { UserQuestionError, UserQuestionService } from '@deepseek-ai/dsh-user-questions'
import { PlanModeFiber, getResult } from '../../node/planmode.mjs'
import { armedFault, isArmedFault } from '../../node/faults.mjs'
import { answerReview, checkReview } from '../../node/review.mjs'
import { announce } from '../../dsh/announced.mjs'
import { StableIds } from './ids.mjs'
import { surfaceOptions, toEvent, toMessage, toSeed, userMessage } from './messages.mjs'

export const PROVIDER = 'plankit-script'
export const MODEL = 'scripted'

/** The text a request gets when the script has no response left for it. */
const DEFAULT_RESPONSE = Object.freeze({ text: 'Done.' })

/** The failure a scripted `fail` response finishes with: retryable under dsh's default policy. */
const SCRIPTED_FAILURE = Object.freeze({ message: 'scripted request failure', code: 'SERVER' })

/**
 * dsh's default request-recovery policy (normal mode, 5 retries, the default
 * retryable codes) with a 1 ms backoff and no jitter, so a scripted failure
 * is retried at once and the logged delay is the same on every run.
 */
const RETRY_POLICY = resolveRetryPolicy({ mode: 'normal', backoff: { initialDelayMs: 1, maxDelayMs: 1, jitterRatio: 0 } }, 'plankit retryPolicy')

/** Everything a scenario observes about one agent, and its script. */
class AgentRun {
  constructor (runtime, name) {
    this.runtime = runtime
    this.name = name
    this.agent = null
    this.ids = new StableIds()
    this.reported = 0 // events already reported
    this.requests = []
    this.results = []
    this.faults = 0 // plan/mode appends still armed to fail
    this.script = EMPTY_SCRIPT
    this.dispatches = 0 // agent/pre-step dispatches in the current turn request
    this.responses = 0 // responses consumed in the current turn
    this.calls = new Map() // dsh call id -> the scripted call
    this.current = null // the scripted call whose tool is executing
    this.failure = null // a host action the host could not carry out
    this.orders = null // section name -> registered section, for its order
    this.assembly = null // the last system-prompt assembly for this agent
    this.turn = 0
    this.step = 0
  }

  get session () { return this.agent.session }

  /** Arm the next `n` attempts to append plan/mode to this agent's log to fail. */
  fault (n) {
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`fault: count must be a non-negative integer, got ${JSON.stringify(n)}`)
    this.faults += n
  }

  /** Wrap the session's append so an armed fault makes a plan/mode append throw, as a failing store would. */
  wrapAppend () {
    const session = this.agent.session
    const original = session.append
    const run = this
    session.append = function append (type, ...rest) {
      if (type === 'plan/mode' && run.faults > 0) {
        run.faults--
        throw armedFault(new Error('append of plan/mode failed (armed fault)'))
      }
      return original.call(this, type, ...rest)
    }
  }

  /** Start a turn request (or a command that may wake the agent) with its script. */
  begin (script) {
    this.script = script
    this.responses = 0
    this.dispatches = 0
  }

  /** session/event: synchronous and post-commit; only bookkeeping here. */
  onEvent (event) {
    switch (event.type) {
      case 'turn/start': this.turn = event.data.turn; this.step = 0; break
      case 'step/start': this.step = event.data.step; break
      case 'tool/call': this.current = this.calls.get(event.data.callId) ?? null; break
      case 'tool/result': {
        const call = this.calls.get(event.data.message?.source?.callId)
        if (call === undefined) break
        const block = event.data.message?.content?.[0]
        const tool = { name: String(call.name), ok: block?.isError !== true }
        const text = (block?.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('')
        if (tool.ok) tool.value = call.value !== undefined ? call.value : text
        else tool.error = text
        if (call.asked) tool.asked = true
        this.results.push({ id: call.id, tool })
        this.current = null
        break
      }
    }
  }

  /** Everything observed since the previous reply, normalised; empty members are left out. */
  observe () {
    const events = this.agent.session.events
    const fresh = events.slice(this.reported)
    this.reported = events.length
    const out = {}
    if (fresh.length > 0) out.events = fresh.map((e) => toEvent(this.ids.replace(e)))
    if (this.requests.length > 0) out.requests = this.requests.splice(0)
    if (this.results.length > 0) out.results = this.results.splice(0).map((r) => this.ids.replace(r))
    return out
  }

  /** The request as sent, with the system prompt's sections by name. */
  describe (request) {
    const sections = []
    const assembly = this.assembly
    for (const s of assembly?.sections ?? []) {
      const text = renderPrompt({ sections: [s], variables: assembly.variables })
      if (text === '') continue
      const order = this.orders?.get(s.name)?.order
      sections.push(Number.isSafeInteger(order) ? { name: s.name, order, text } : { name: s.name, text })
    }
    const joined = sections.map((s) => s.text).join('\n\n')
    if (joined !== (request.system ?? '')) {
      process.stderr.write(`plankit host: the request's system prompt is not its assembly's sections (agent ${this.name}, step ${this.step})\n`)
      sections.splice(0, sections.length, { name: '(unattributed)', text: request.system ?? '' })
    }
    return this.ids.replace({
      at: this.agent.session.events.length,
      sections,
      tools: (request.tools ?? []).map((t) => t.name),
      messages: (request.messages ?? []).map(toMessage),
    })
  }

  /** The model: stream the next scripted response for `request`. */
  async * respond (request) {
    const k = ++this.responses
    const response = this.script.responses[k - 1] ?? DEFAULT_RESPONSE
    this.requests.push(this.describe(request))
    let ran = false
    const during = async () => {
      if (ran) return
      ran = true
      await this.runtime.act(this, response.during)
    }
    if (response.fail) {
      await during()
      yield { type: 'finish', reason: { kind: 'error', failure: { ...SCRIPTED_FAILURE } } }
      return
    }
    let index = 0
    if (typeof response.text === 'string' && response.text !== '') {
      yield { type: 'block-start', index, blockType: 'text' }
      await during()
      yield { type: 'text-delta', index, text: response.text }
      yield { type: 'block-end', index, block: { type: 'text', text: response.text } }
      index++
    }
    const calls = Array.isArray(response.calls) ? response.calls : []
    for (const [j, call] of calls.entries()) {
      const id = `call-${this.turn}-${k}-${j + 1}`
      this.calls.set(id, { ...call, id: String(call?.id ?? id) })
      const args = JSON.stringify(call?.args ?? {})
      yield { type: 'block-start', index, blockType: 'tool-call' }
      await during()
      yield { type: 'tool-call-delta', index, id, name: String(call?.name), argumentsDelta: args }
      yield { type: 'block-end', index, block: { type: 'tool-call', id, name: String(call?.name), arguments: args } }
      index++
    }
    await during()
    yield { type: 'finish', reason: { kind: calls.length > 0 ? 'tool-calls' : 'stop' } }
  }
}

/** The host's model: a dsh-llm adapter whose responses come from the script. */
class ScriptedModel extends LlmAdapter {
  constructor (runtime) {
    super()
    this.runtime = runtime
  }

  providerRetryPolicy () { return RETRY_POLICY }

  async * stream (request) {
    const run = this.runtime.agents.get(request.sessionId)
    if (run === undefined) throw new Error(`plankit host: a request for unknown session ${JSON.stringify(request.sessionId)}`)
    yield * run.respond(request)
  }
}

function errorText (error) {
  return error?.message ?? String(error)
}

export class Runtime {
  ctx = null
  fibers = []
  plan = null // the plan-mode package's PlanModeFiber in ctx
  config = undefined
  services = { commands: false, userQuestions: false }
  agents = new Map()

  /**
   * Compose the runtime: the real services, the host's model, tools and
   * listeners, and plan mode with the kit's config. A config plan mode
   * rejects is reported as `{error}` (nothing is registered then).
   */
  async load (params) {
    this.config = params.config
    this.services = { commands: params.services?.commands === true, userQuestions: params.services?.userQuestions === true }
    const hostTools = params.hostTools ?? []
    const listeners = params.listeners ?? []
    if (!Array.isArray(hostTools) || hostTools.some((t) => typeof t?.name !== 'string' || t.name === '')) throw new Error('load: hostTools must be a list of {name}')
    if (!Array.isArray(listeners) || listeners.some((l) => typeof l?.name !== 'string' || !['before', 'after'].includes(l.position))) {
      throw new Error('load: listeners must be a list of {name, position: "before"|"after"}')
    }
    const ctx = new Context()
    ctx.logger.exporter({ export: (m) => process.stderr.write(`[${m.type}] ${m.name}: ${format(...m.args)}\n`) })
    this.ctx = ctx
    this.plan = new PlanModeFiber(ctx, PlanModeController)
    const plug = async (plugin, config) => {
      const fiber = ctx.plugin(plugin, config)
      this.fibers.push(fiber)
      await fiber
      return fiber
    }
    await plug(SessionStore)
    await plug(AgentRegistry)
    await plug(LlmRuntime)
    await plug(ToolRuntime, {})
    await plug(SystemPrompt, {})
    if (this.services.userQuestions) await plug(UserQuestionService)
    if (this.services.commands) await plug(CommandRuntime)
    await plug(AgentLoop, { agents: [] })
    await plug(LlmRetry, {})
    ctx.llm.registerAdapter([PROVIDER], new ScriptedModel(this))
    if (this.services.userQuestions) ctx.userQuestions.registerProvider({ ask: (request) => this.ask(request) })
    ctx.on('session/event', (session, event) => this.agents.get(session.id)?.onEvent(event))
    ctx.on('system-prompt/assemble', async (assembly, context, next) => {
      const result = await next()
      const run = context?.agent === undefined ? undefined : this.agents.get(context.agent.id)
      if (run !== undefined) {
        run.assembly = result
        run.orders = sectionOrders(ctx, context.scope)
      }
      return result
    })
    // Counts the dispatches of agent/pre-step in a turn for the script's preSteps; registered
    // first, it passes every dispatch through unchanged.
    ctx.on('agent/pre-step', (payload, next) => {
      const run = this.agents.get(payload.agent?.id)
      if (run !== undefined) run.dispatches++
      return next()
    })
    ctx.on('tools/execute', async (exec, next) => {
      const result = await next()
      const call = this.agents.get(exec.agent?.id)?.calls.get(exec.callId)
      if (call !== undefined && result?.isError === false && result.value !== undefined) call.value = structuredClone(result.value)
      return result
    })
    for (const { name } of hostTools) ctx.tools.register(this.hostTool(name))
    for (const l of listeners) if (l.position === 'before') ctx.on('agent/pre-step', this.preStep(l.name))
    const reply = await this.plan.plug(this.config)
    if (reply.error === undefined) for (const l of listeners) if (l.position === 'after') ctx.on('agent/pre-step', this.preStep(l.name))
    return reply
  }

  /** Dispose plan mode and plug it in again, in the same process. */
  async reload () {
    if (this.ctx === null) throw new Error('reload before load')
    await this.plan.unplug()
    return this.plan.plug(this.config)
  }

  /**
   * Dispose plan mode without plugging it in again (cordis `fiber.dispose()`,
   * the real loop's way to remove a plugin): its service, listener, section,
   * tool and command go with it. A later reload plugs it in afresh.
   */
  async unload () {
    if (this.ctx === null) throw new Error('unload before load')
    await this.plan.unplug()
    return {}
  }

  /** Dispose everything, newest first. */
  async dispose () {
    const fibers = [this.plan?.fiber ?? null, ...this.fibers.reverse()].filter((f) => f !== null)
    this.fibers = []
    this.plan = null
    for (const fiber of fibers) {
      try {
        await fiber.dispose()
      } catch (error) {
        process.stderr.write(`plankit host: dispose: ${errorText(error)}\n`)
      }
    }
    this.ctx = null
    this.agents = new Map()
  }

  planMode () {
    const service = this.ctx?.get('planMode')
    if (service === undefined) throw new Error('the plan-mode service is not loaded')
    return service
  }

  run (name) {
    const run = this.agents.get(name)
    if (run === undefined) throw new Error(`unknown agent ${JSON.stringify(name)}`)
    return run
  }

  /** A new agent on a new session, seeded with the kit's log (a restart passes the whole log). */
  async open ({ agent: name, events }) {
    if (this.ctx === null) throw new Error('open before load')
    if (typeof name !== 'string' || name === '') throw new Error('open: agent must be a non-empty string')
    if (this.agents.has(name)) throw new Error(`open: agent ${JSON.stringify(name)} is already open`)
    if (events !== undefined && !Array.isArray(events)) throw new Error('open: events must be a list')
    const run = new AgentRun(this, name)
    const seed = events?.length > 0 ? toSeed(events, name) : undefined
    run.ids.adopt(seed)
    this.agents.set(name, run)
    try {
      const { agent } = await this.ctx.agents.create({
        sessionId: name,
        ...(seed === undefined ? {} : { seed }),
        agentOptions: { provider: PROVIDER, model: MODEL },
      })
      run.agent = agent
    } catch (error) {
      this.agents.delete(name)
      throw error
    }
    run.reported = seed?.length ?? 0
    run.turn = run.agent.session.events.findLast((e) => e.type === 'turn/start')?.data.turn ?? 0
    run.wrapAppend()
    return run.observe()
  }

  set ({ agent: name, active }) {
    const run = this.run(name)
    if (typeof active !== 'boolean') throw new Error('set: active must be a boolean')
    return { ...this.select(run, active), ...run.observe() }
  }

  get ({ agent: name }) {
    return this.state(this.run(name))
  }

  /**
   * A command the user types between turns, run through the real command
   * service. A turn it wakes (`/plan <message>` steers) runs with `script`
   * until the agent is idle again.
   */
  async command ({ agent: name, input, script }) {
    const run = this.run(name)
    if (typeof input !== 'string') throw new Error('command: input must be a string')
    run.begin(checkScript(script, 'command'))
    const reply = await this.runCommand(run, input)
    await run.agent.whenIdle()
    return { ...reply, ...run.observe() }
  }

  /** An outside writer appends to the live log between turns. */
  append ({ agent: name, type, data }) {
    const run = this.run(name)
    this.write(run, type, data)
    return run.observe()
  }

  fault ({ agent: name, count }) {
    this.run(name).fault(count)
    return {}
  }

  /** Admit a prompt (a follow-up to the idle agent) and run until the agent is idle again. */
  async turn ({ agent: name, prompt, script }) {
    const run = this.run(name)
    if (typeof prompt !== 'string') throw new Error('turn: prompt must be a string')
    run.begin(checkScript(script, 'turn'))
    run.agent.followup(userMessage(prompt))
    await run.agent.whenIdle()
    const failure = run.failure
    run.failure = null
    if (failure !== null) throw failure
    return run.observe()
  }

  /** planMode.set as a protocol setResult. */
  select (run, active) {
    try {
      return { outcome: this.planMode().set(run.agent, active) }
    } catch (error) {
      return { error: errorText(error) }
    }
  }

  /** planMode.get as a protocol getResult. */
  state (run) {
    return getResult(this.planMode().get(run.agent))
  }

  /** The command line through the real CommandRuntime, as a protocol commandResult. */
  async runCommand (run, input) {
    if (!this.services.commands) return { kind: 'error', text: `no command service is composed: ${input} is not a command here` }
    try {
      const executed = await this.ctx.commands.execute(run.agent, input, [], new AbortController().signal)
      if (executed === undefined) return { kind: 'error', text: `unknown command: ${input}` }
      const result = { kind: executed.result.kind === 'success' ? 'success' : 'error', text: executed.result.text ?? '' }
      // what the reply announces (minor 5): read from the package's
      // wording; a success not listed goes without, which the kit refuses
      const announced = announce(result.kind, result.text)
      if (announced !== undefined) result.outcome = announced
      return result
    } catch (error) {
      // The handler threw (the command runtime logged command/done and
      // rethrew): an exception inside the implementation, not a reply (minor 4)
      // — unless it passes on the scripted store failure (an armed fault):
      // failing the command on a failed append is the implementation's reply.
      if (isArmedFault(error)) return { kind: 'error', text: errorText(error) }
      return { kind: 'error', text: errorText(error), exception: true }
    }
  }

  /**
   * An outside writer's append; the store refusing it is the kit's bad
   * input, except an armed fault: this host's faults fail every plan/mode
   * append of the log (fault-scope every-append), so the append is answered
   * with an observation without the event, as the runtime protocol says.
   */
  write (run, type, data) {
    if (typeof type !== 'string' || type === '') throw new Error('append: type must be a non-empty string')
    try {
      run.agent.session.append(type, data === undefined ? {} : data, ...surfaceOptions(type))
    } catch (error) {
      if (isArmedFault(error)) return
      throw new Error(`the session refused the outside append of ${type}: ${errorText(error)}`)
    }
  }

  /**
   * Host actions, in order, at one point inside a turn; each result goes to
   * the turn's results under the action's id. A kit action the host cannot
   * carry out fails the whole turn request (an error reply once the turn is over).
   */
  async act (run, actions) {
    for (const action of Array.isArray(actions) ? actions : []) {
      try {
        const id = action?.id
        if (typeof id !== 'string' || id === '') throw new Error(`host action ${JSON.stringify(action)} has no id`)
        if (action.set !== undefined) {
          if (typeof action.set?.active !== 'boolean') throw new Error(`host action ${id}: set.active must be a boolean`)
          run.results.push({ id, set: this.select(run, action.set.active) })
        }
        else if (action.get !== undefined) run.results.push({ id, get: this.state(run) })
        else if (action.command !== undefined) {
          if (typeof action.command?.input !== 'string') throw new Error(`host action ${id}: command.input must be a string`)
          run.results.push({ id, command: await this.runCommand(run, action.command.input) })
        }
        else if (action.append !== undefined) {
          this.write(run, action.append?.type, action.append?.data)
          run.results.push({ id, append: {} })
        } else if (action.fault !== undefined) {
          run.fault(action.fault?.count)
          run.results.push({ id, fault: {} })
        } else throw new Error(`host action ${JSON.stringify(action)} names no action`)
      } catch (error) {
        run.failure ??= error
      }
    }
  }

  /**
   * A host pre-step listener named `name`. The script's preSteps say what it
   * does at the n-th dispatch of the turn: run host actions, then accept
   * (return next()), reject (return a rejection without calling next),
   * abort (cancel the step — its signal fires — then return next()) or drop
   * (return next()'s acceptance with no messages).
   */
  preStep (name) {
    return async (payload, next) => {
      const run = this.agents.get(payload.agent?.id)
      const entry = run?.script.preSteps.find((p) => p?.dispatch === run.dispatches && p.listener === name)
      if (entry === undefined) return next()
      await this.act(run, entry.during)
      switch (entry.behaviour) {
        case 'reject': return { kind: 'reject' }
        case 'abort':
          run.agent.cancel({ kind: 'host-listener', listener: name }, { keepInbox: true })
          return next()
        case 'drop': {
          // Take the step's messages for itself: the decision carries none.
          const decision = await next()
          return decision?.kind === 'enter' ? { ...decision, messages: [] } : decision
        }
        default: return next()
      }
    }
  }

  /** A tool of the host's own: runs the call's host actions while it executes; succeeds with "ok". */
  hostTool (name) {
    return defineTool({
      name,
      description: `Host tool ${name}.`,
      parameters: {},
      output: {
        schema: { type: 'string' },
        render: (_args, value) => [{ type: 'text', text: value }],
      },
      execute: async (_args, exec) => {
        const run = this.agents.get(exec.agent?.id)
        const call = run?.calls.get(exec.callId)
        if (call !== undefined) await this.act(run, call.during)
        return 'ok'
      },
    })
  }

  /**
   * The user's answer to a question (the plan review), from the executing
   * call's script as adapter/node/review.mjs plays it; with no review the
   * user gives no answer at all. review.fail aborted cancels the step, so
   * the call's signal fires while the question is open. review.reload
   * reloads plan mode while the question is open, before the answer.
   */
  async ask ({ questions, agent, signal }) {
    const run = this.agents.get(agent?.id)
    const call = run?.current ?? undefined
    if (call !== undefined) call.asked = true
    const review = call?.review ?? {}
    if (review.reload === true) await this.reload()
    const abort = () => {
      run.agent.cancel({ kind: 'host-review' }, { keepInbox: true })
      if (!signal?.aborted) throw new Error('plankit host: cancelling the step did not fire the review\'s signal')
    }
    return answerReview(review, questions[0], { UserQuestionError, abort })
  }
}

const EMPTY_SCRIPT = Object.freeze({ responses: Object.freeze([]), preSteps: Object.freeze([]) })

/** A turn's script, checked for shape; absent means the model answers "Done." and listeners accept. */
function checkScript (script, method) {
  if (script === undefined) return EMPTY_SCRIPT
  if (script === null || typeof script !== 'object' || Array.isArray(script)) throw new Error(`${method}: script must be an object`)
  const responses = script.responses ?? []
  const preSteps = script.preSteps ?? []
  if (!Array.isArray(responses)) throw new Error(`${method}: script.responses must be a list`)
  if (!Array.isArray(preSteps)) throw new Error(`${method}: script.preSteps must be a list`)
  for (const [i, r] of responses.entries()) {
    if (r === null || typeof r !== 'object') throw new Error(`${method}: script.responses[${i}] must be an object`)
    if (r.calls !== undefined && !Array.isArray(r.calls)) throw new Error(`${method}: script.responses[${i}].calls must be a list`)
    for (const [j, c] of (r.calls ?? []).entries()) {
      if (typeof c?.name !== 'string' || c.name === '') throw new Error(`${method}: script.responses[${i}].calls[${j}].name must be a non-empty string`)
      checkReview(c.review)
    }
  }
  return { responses, preSteps }
}

/** The registered order of each system-prompt section visible to `scope` (read-only; empty if unavailable). */
function sectionOrders (ctx, scope) {
  try {
    return ctx.systemPrompt.layers.merge(scope, (layer) => layer.sections)
  } catch {
    return new Map()
  }
}
