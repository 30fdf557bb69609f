#!/usr/bin/env node
// plankit runtime-level host for the real dsh agent loop.
//
// It speaks plankit's runtime protocol (docs/runtime-protocol.md): one JSON
// request per line on stdin, one JSON reply per line on stdout, free-form
// logs on stderr. Behind it runs the published @deepseek-ai/dsh-agent-loop
// with the published plan-mode package and the published services (session
// store, agent registry, LLM runtime, tools, system prompt, user questions,
// commands, request recovery by dsh-llm-retry) — see lib/runtime.mjs. Only
// the model and the user's answers are the host's own; they answer from the
// kit's script. The host decides nothing about plan mode.
import './lib/polyfill.mjs' // first: the dsh modules need Promise.withResolvers on Node 20
import { createRequire } from 'node:module'
import { Runtime } from './lib/runtime.mjs'
import { protocolStdout, serve } from '../node/serve.mjs'
// The plan-mode package's picks for the spec's silent points, declared once
// beside the plugin-level host (whose tests prove them against the package).
// section-source=pending is also what the loop shows: it assembles the
// prompt before the pre-step.
import { CHOICES } from '../dsh/choices.mjs'

const PROTOCOL = 1
const PROTOCOL_MINOR = 5 // minor 2: review replies; minor 3: unload; minor 4: components; minor 5: command outcomes
const LEVEL = 'runtime'
const require = createRequire(import.meta.url)
const LOOP = '@deepseek-ai/dsh-agent-loop'
const LOOP_VERSION = require(`${LOOP}/package.json`).version
const PLAN_MODE = '@deepseek-ai/dsh-plan-mode'

// The name and version are the loop's; the components name both the loop and
// the plan-mode package, each with the version installed, so a report says
// which plan-mode package was checked.
const COMPONENTS = [LOOP, PLAN_MODE].map((name) => ({ name, version: require(`${name}/package.json`).version }))

// What this runtime can be scripted to do, honestly.
const CAPABILITIES = {
  retry: 'same-step', // dsh-llm-retry repeats a failed request inside the step, without a new pre-step
  commands: true, // the real CommandRuntime runs /plan
  userQuestions: true, // the real UserQuestionService, answered from the script
  hostTools: true, // tools of the host's own (dsh-tools defineTool) run host actions while they execute
  hostListeners: true, // host agent/pre-step listeners registered before or after plan mode
  emptySteps: true, // a host listener may take a step's messages (drop); the real loop skips an accepted step with nothing to send
  duringStream: true, // host actions while the model streams a response
  outsideAppend: true, // an outside writer appends to the live session
  failAppend: true, // the session's append throws for plan/mode while faults are armed
  resume: true, // open seeds a new session with the whole log, as dsh resumes one
  reload: true, // dispose the plan-mode fiber and plug it in again
  reuse: true, // a start on a used process disposes the whole composition: the state of a new process
  reviewReplies: true, // (minor 2) the review's reply as given, and the seam failing as dsh-user-questions fails
  unload: true, // (minor 3) dispose the plan-mode fiber without plugging it in again
  commandOutcomes: true, // (minor 5) each /plan reply's outcome, read from the package's wording (../dsh/announced.mjs)
}

protocolStdout()

class Host {
  runtime = null
  started = false

  async start (params) {
    if (params?.protocol !== PROTOCOL) throw new Error(`protocol ${JSON.stringify(params?.protocol)} is not supported (this host speaks ${PROTOCOL})`)
    if (params?.level !== LEVEL) {
      throw new Error(`level ${JSON.stringify(params?.level)} is not supported: this host is a whole runtime (level "runtime"); the plan-mode package alone is checked by adapter/dsh/host.mjs`)
    }
    await this.reset()
    this.started = true
    return {
      protocol: PROTOCOL,
      minor: PROTOCOL_MINOR,
      level: LEVEL,
      name: LOOP,
      version: LOOP_VERSION,
      language: 'javascript',
      choices: CHOICES,
      components: COMPONENTS,
      capabilities: CAPABILITIES,
    }
  }

  /** Forget a served scenario: dispose the whole composition (agents, services, plan mode). */
  async reset () {
    if (this.runtime !== null) await this.runtime.dispose()
    this.runtime = null
  }

  need () {
    if (!this.started) throw new Error('start first')
    if (this.runtime === null) throw new Error('load first')
    return this.runtime
  }

  async load (params) {
    if (!this.started) throw new Error('start first')
    await this.reset()
    this.runtime = new Runtime()
    return this.runtime.load(params)
  }

  open (params) { return this.need().open(params) }
  set (params) { return this.need().set(params) }
  get (params) { return this.need().get(params) }
  command (params) { return this.need().command(params) }
  append (params) { return this.need().append(params) }
  fault (params) { return this.need().fault(params) }
  turn (params) { return this.need().turn(params) }
  reload () { return this.need().reload() }
  unload () { return this.need().unload() }
}

const METHODS = new Set(['start', 'load', 'open', 'set', 'get', 'command', 'append', 'fault', 'turn', 'reload', 'unload', 'stop'])

process.on('unhandledRejection', (error) => {
  process.stderr.write(`plankit host: unhandled rejection: ${error?.stack ?? error}\n`)
})

// Nothing the runtime holds outlives the process, so it is not disposed
// at the end.
const host = new Host()
serve(METHODS, (method, params) => host[method](params))
