#!/usr/bin/env node
// plankit adapter host for the published @deepseek-ai/dsh-plan-mode package.
//
// The host speaks plankit's adapter protocol v1 (docs/adapter-protocol.md):
// one JSON request per line on stdin, one JSON reply per line on stdout,
// free-form logs on stderr. It runs the real package inside a real
// @deepseek-ai/cordis Context with the smallest faithful host services the
// package needs (tools, systemPrompt, and optionally commands and
// userQuestions) and fake agents, and reports what the package did to them.
//
// The host decides nothing about plan mode. Every request is translated into
// one of the package's entry points:
//
//   load/reload  ctx.plugin(PlanModeController, config) / fiber.dispose()
//   set, get     ctx.get('planMode').set(agent, active) / .get(agent)
//   preStep      ctx.waterfall('agent/pre-step', {agent, messages, turn, step, signal}, next)
//   assemble     the registered sections' text({agent}) and the registered tools
//   exitTool     the registered exit_plan_mode tool's execute(args, {agent, signal})
//   command      the registered command's handler({agent, rawInput, attachments: []})
//   fold         the foldPlanMode export
//
// and the reply carries the effects the package performed on the host, in
// order: appends through agent.session.append (which throws when the request
// armed failAppends), agent.steer/agent.inject calls, userQuestions.ask calls,
// and the moment the listener called next() ("downstream").

import { createRequire } from 'node:module'
import { format } from 'node:util'
import { Context, Service } from '@deepseek-ai/cordis'
import PlanModeController, { foldPlanMode } from '@deepseek-ai/dsh-plan-mode'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { UserQuestionError } from '@deepseek-ai/dsh-user-questions'
import { protocolStdout, serve } from '../node/serve.mjs'
import { armedFault, isArmedFault } from '../node/faults.mjs'
import { answerReview, checkReview } from '../node/review.mjs'
import { toMessage, userMessageInput } from '../node/messages.mjs'
import { PlanModeFiber, getResult } from '../node/planmode.mjs'
import { CHOICES } from './choices.mjs' // the package's picks for the silent points
import { announce } from './announced.mjs' // what each /plan reply announces

const PROTOCOL = 1
const PROTOCOL_MINOR = 3 // minor 1: command outcomes, unload; minor 2: review replies, host tools, skipped empty steps; minor 3: command exceptions
const PACKAGE = '@deepseek-ai/dsh-plan-mode'
const VERSION = createRequire(import.meta.url)(`${PACKAGE}/package.json`).version

protocolStdout()

/** The effects one request observed, and the append faults it armed. */
class Call {
  constructor (failAppends = 0, review = undefined) {
    this.effects = []
    this.fail = failAppends
    this.review = review
    // the step's signal as the exit tool sees it (review.fail aborted fires it)
    this.abort = new AbortController()
  }
}

/** The request being handled; requests are handled one at a time. */
let call = null

function record (effect) {
  if (call === null) throw new Error('plankit host: the package acted on the host outside any request')
  call.effects.push(effect)
}

// Host services. Each is a cordis Service, so a registration made from the
// plugin's context is an effect of the plugin's fiber and disappears when
// the fiber is disposed, as with dsh's own services.

/**
 * A host service named `name` that keeps what is registered through its
 * `method` (in registration order) until the registering fiber is disposed.
 */
function registry (name, method) {
  return class extends Service {
    registered = []
    constructor (ctx) { super(ctx, name) }
    [method] (item) {
      return this.ctx.effect(() => {
        this.registered.push(item)
        return () => { this.registered.splice(this.registered.indexOf(item), 1) }
      }, `${name}.${method}()`)
    }
  }
}

const HostTools = registry('tools', 'register')
const HostSystemPrompt = registry('systemPrompt', 'section')
const HostCommands = registry('commands', 'register')

/**
 * The user-questions seam, answered from the exitTool request's scripted
 * review as adapter/node/review.mjs plays it; review.fail aborted fires the
 * call's signal while the question is open. review.reload reloads the
 * plan-mode plugin while the question is open, before the answer.
 */
class HostUserQuestions extends Service {
  constructor (ctx, host) {
    super(ctx, 'userQuestions')
    this.host = host
  }

  async ask ({ questions }) {
    record({ kind: 'ask', question: json(questions.length === 1 ? questions[0] : questions) })
    const review = call.review ?? {}
    if (review.reload) await this.host.reload()
    return answerReview(review, questions[0], { UserQuestionError, abort: () => call.abort.abort() })
  }
}

/** A dsh user message from a protocol Message. */
function fromMessage (m) {
  return createUserMessage(userMessageInput(m))
}

/** A JSON-safe deep copy. */
function json (value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value))
}

/**
 * A fake dsh agent: a session with the events the host has shown the
 * package, and steer/inject queues that only record. One session object per
 * agent for its whole life, because the package keys pending selections by
 * the session object.
 */
function newAgent (id, events) {
  const session = {
    id,
    events: [],
    append (type, data) {
      const effect = { kind: 'append', type, data: json(data) }
      if (call !== null && call.fail > 0) {
        call.fail--
        effect.failed = true
        record(effect)
        throw armedFault(new Error(`plankit host: append of ${type} failed (armed fault)`))
      }
      record(effect)
      const event = { seq: this.events.length, type, data: json(data) }
      this.events.push(event)
      return event
    },
  }
  for (const e of events) addEvent(session, e, id)
  return {
    id,
    session,
    steer (message) { record({ kind: 'steer', message: toMessage(message) }) },
    inject (message) { record({ kind: 'inject', message: toMessage(message) }) },
  }
}

function addEvent (session, e, agentId) {
  if (e.seq !== session.events.length) {
    throw new Error(`agent ${JSON.stringify(agentId)}: event seq ${e.seq}, want ${session.events.length}`)
  }
  session.events.push({ seq: e.seq, type: e.type, data: json(e.data) })
}

class Host {
  ctx = null
  plan = null // the package's PlanModeFiber in ctx
  config = undefined
  services = { commands: false, userQuestions: false }
  agents = new Map()
  tools = null
  prompt = null
  commands = null
  listener = undefined
  // The names of the host's own registered tools (load.hostTools).
  hostTools = new Set()

  async start (params) {
    await this.reset()
    if (params?.protocol !== PROTOCOL) throw new Error(`protocol ${JSON.stringify(params?.protocol)} is not supported (this host speaks ${PROTOCOL})`)
    return {
      protocol: PROTOCOL,
      minor: PROTOCOL_MINOR,
      name: PACKAGE,
      version: VERSION,
      language: 'javascript',
      choices: CHOICES,
      // reuse: a start on a process that served a scenario resets it to the
      // state of a new process (see reset()), so the kit may hand it on.
      // hostTools, emptySteps (minor 2): the host's own tools are registered
      // beside the package's and dispatched through tools/pre-execute; a
      // skipped empty step is the runtime's business (the package is not told).
      capabilities: { commands: true, userQuestions: true, fork: true, reload: true, reuse: true, commandOutcomes: true, unload: true, reviewReplies: true, hostTools: true, emptySteps: true },
    }
  }

  /**
   * Forget everything a scenario left: dispose the plugin's fiber (its
   * registrations, listener and service instance, which holds every pending
   * selection) and drop the Context, the host services and the agents. The
   * package keeps no module-level state, so what remains is a new process's.
   */
  async reset () {
    await this.plan?.unplug()
    this.ctx = null
    this.plan = null
    this.config = undefined
    this.services = { commands: false, userQuestions: false }
    this.agents = new Map()
    this.tools = null
    this.prompt = null
    this.commands = null
    this.listener = undefined
    this.hostTools = new Set()
  }

  /** Compose a fresh context with the requested services and load the plugin. */
  async load (params) {
    await this.plan?.unplug()
    this.config = params.config
    this.services = { commands: !!params.services?.commands, userQuestions: !!params.services?.userQuestions }
    const ctx = new Context()
    ctx.logger.exporter({
      export: (m) => process.stderr.write(`[${m.type}] ${m.name}: ${format(...m.args)}\n`),
    })
    // Observe how the plugin registers its pre-step listener (prepend or not).
    ctx.on('internal/listener', (name, _listener, options) => {
      if (name === 'agent/pre-step') this.listener = options?.prepend ? 'prepend' : 'append'
    })
    this.tools = new HostTools(ctx)
    // The host's own tools are in the registry before the package loads, as
    // the host's tool plugins would have registered them.
    this.hostTools = new Set()
    for (const t of params.hostTools ?? []) {
      this.tools.registered.push({ name: t.name, execute: async () => 'ok' })
      this.hostTools.add(t.name)
    }
    this.prompt = new HostSystemPrompt(ctx)
    this.commands = this.services.commands ? new HostCommands(ctx) : null
    if (this.services.userQuestions) new HostUserQuestions(ctx, this) // eslint-disable-line no-new
    this.ctx = ctx
    this.plan = new PlanModeFiber(ctx, PlanModeController)
    return this.plugin()
  }

  /** Plug the package in with the current config and report what it registered. */
  async plugin () {
    this.listener = undefined
    const plugged = await this.plan.plug(this.config)
    if (plugged.error !== undefined) return plugged
    const reply = {
      tools: this.pluginTools(),
      sections: this.prompt.registered.map((s) => s.name),
    }
    if (this.listener !== undefined) reply.listener = this.listener
    if (this.commands !== null) reply.commands = this.commands.registered.map((c) => c.name)
    return reply
  }

  /** Dispose the plugin's fiber and plug the package in again. */
  async reload () {
    if (this.ctx === null) throw new Error('reload before load')
    await this.plan.unplug()
    return this.plugin()
  }

  /**
   * Dispose the plugin's fiber without plugging it in again and report what
   * is still registered with the host's services: nothing, when the package
   * lets go of everything. The listener is reported when a pre-step listener
   * registered by the plugin is still in the context's hooks.
   */
  async unload () {
    if (this.ctx === null) throw new Error('unload before load')
    await this.plan.unplug()
    const reply = {}
    if (this.pluginTools().length > 0) reply.tools = this.pluginTools()
    if (this.prompt.registered.length > 0) reply.sections = this.prompt.registered.map((s) => s.name)
    if (this.commands !== null && this.commands.registered.length > 0) reply.commands = this.commands.registered.map((c) => c.name)
    if (this.preStepListeners() > 0) reply.listener = this.listener ?? 'append'
    return reply
  }

  /** The tools in the registry that are not the host's own: the package's. */
  pluginTools () {
    return this.tools.registered.filter((t) => !this.hostTools.has(t.name)).map((t) => ({ name: t.name }))
  }

  /** How many agent/pre-step listeners the context still dispatches to. */
  preStepListeners () {
    return (this.ctx?.events?._hooks?.['agent/pre-step'] ?? []).length
  }

  open ({ agent, events }) {
    if (typeof agent !== 'string' || agent === '') throw new Error('open: agent must be a non-empty string')
    this.agents.set(agent, newAgent(agent, events ?? []))
    return {}
  }

  /** Start a request on an agent: sync its mirror, arm faults. */
  begin ({ agent, sync, failAppends }, review) {
    const a = this.agents.get(agent)
    if (a === undefined) throw new Error(`unknown agent ${JSON.stringify(agent)}`)
    for (const e of sync ?? []) addEvent(a.session, e, agent)
    call = new Call(failAppends ?? 0, review)
    return a
  }

  service () {
    const planMode = this.ctx?.get('planMode')
    if (planMode === undefined) throw new Error('the plan-mode service is not loaded')
    return planMode
  }

  set (params) {
    const planMode = this.service()
    const agent = this.begin(params)
    const reply = {}
    try {
      reply.outcome = planMode.set(agent, params.active)
    } catch (error) {
      reply.error = error?.message ?? String(error)
    }
    reply.effects = call.effects
    return reply
  }

  get (params) {
    const planMode = this.service()
    const agent = this.begin(params)
    return getResult(planMode.get(agent))
  }

  async preStep (params) {
    const agent = this.begin(params)
    const abort = new AbortController()
    if (params.abortedBefore) abort.abort()
    const downstream = params.downstream ?? { kind: 'enter' }
    const inner = async () => {
      record({ kind: 'downstream' })
      if (params.abortDuring) abort.abort()
      if (downstream.kind === 'reject') return { kind: 'reject' }
      if (downstream.kind !== 'enter') throw new Error(`preStep: unknown downstream decision ${JSON.stringify(downstream.kind)}`)
      return { kind: 'enter', messages: (downstream.messages ?? []).map(fromMessage) }
    }
    const payload = {
      agent,
      messages: (params.messages ?? []).map(fromMessage),
      turn: params.turn,
      step: params.step,
      signal: abort.signal,
    }
    const decision = await this.ctx.waterfall('agent/pre-step', payload, inner)
    const reply = decision?.kind === 'enter'
      ? { kind: 'enter', messages: (decision.messages ?? []).map(toMessage) }
      : { kind: decision?.kind }
    return { decision: reply, effects: call.effects }
  }

  async assemble (params) {
    const agent = this.begin(params)
    const sections = []
    for (const s of this.prompt.registered) {
      const text = typeof s.text === 'function' ? await s.text({ agent }) : s.text
      if (text) sections.push({ name: s.name, order: s.order, text })
    }
    // The catalog as the host and the later assembly listeners give it
    // (params.tools, in order; a registered host tool the registry no longer
    // holds is gone), with the package's registered tools after it.
    const registry = new Set(this.tools.registered.map((t) => t.name))
    const given = (params.tools ?? []).filter((t) => !this.hostTools.has(t.name) || registry.has(t.name))
    return { sections, tools: [...given.map((t) => ({ name: t.name })), ...this.pluginTools()] }
  }

  /**
   * A host tool is about to run: dispatch dsh-tools' tools/pre-execute gate
   * through the context, where a plugin may allow or deny it; the innermost
   * decision allows.
   */
  async preTool (params) {
    const agent = this.begin(params)
    const exec = { callId: 'call', name: params.name, arguments: params.args ?? null, signal: new AbortController().signal, agent }
    const decision = await this.ctx.waterfall('tools/pre-execute', exec, async () => ({ kind: 'allow' }))
    const reply = decision?.kind === 'allow' ? { decision: 'allow' } : { decision: 'deny', reason: decision?.reason ?? String(decision?.kind) }
    if (call.effects.length > 0) reply.effects = call.effects
    return reply
  }

  async exitTool (params) {
    checkReview(params.review)
    const agent = this.begin(params, params.review)
    const tool = this.tools.registered.find((t) => t.name === 'exit_plan_mode')
    if (tool === undefined) throw new Error('exit_plan_mode is not registered')
    const reply = {}
    try {
      const result = await tool.execute(params.args, { agent, signal: call.abort.signal })
      reply.ok = true
      reply.result = json(result)
    } catch (error) {
      reply.ok = false
      reply.error = error?.message ?? String(error)
    }
    reply.effects = call.effects
    return reply
  }

  async command (params) {
    const agent = this.begin(params)
    const command = this.commands?.registered.find((c) => c.name === params.name)
    let reply
    if (command === undefined) {
      reply = { kind: 'error', text: `unknown command /${params.name}` }
    } else {
      try {
        const result = await command.handler({ agent, rawInput: params.input ?? '', attachments: [] })
        reply = { kind: result?.kind, text: result?.text ?? '' }
        const announced = announce(reply.kind, reply.text)
        if (announced !== undefined) reply.outcome = announced
      } catch (error) {
        // The handler threw: an exception inside the implementation, not a
        // reply (protocol minor 3) — unless what it threw is the scripted
        // store failure (an armed fault) passed on: failing the command on a
        // failed append is the implementation's reply to it.
        reply = { kind: 'error', text: error?.message ?? String(error) }
        if (!isArmedFault(error)) reply.exception = true
      }
    }
    reply.effects = call.effects
    return reply
  }

  fold ({ events, end }) {
    const log = (events ?? []).map((e) => ({ type: e.type, data: json(e.data) }))
    try {
      return { active: Boolean(end === undefined || end === null ? foldPlanMode(log) : foldPlanMode(log, end)) }
    } catch (error) {
      return { active: false, error: error?.message ?? String(error) }
    }
  }
}

const methods = new Set(['start', 'load', 'open', 'set', 'get', 'preStep', 'assemble', 'exitTool', 'preTool', 'command', 'fold', 'reload', 'unload', 'stop'])

const host = new Host()
serve(methods, async (method, params) => {
  try {
    return await host[method](params)
  } finally {
    call = null
  }
})
