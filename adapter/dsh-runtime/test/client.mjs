// The runtime-protocol client of the host's tests: the shared client
// (adapter/node/client.mjs) around host.mjs, keeping the observed log of
// each agent as the kit does.
import { fileURLToPath } from 'node:url'
import assert from 'node:assert/strict'
import { Client as Base } from '../../node/client.mjs'

export const HOST = fileURLToPath(new URL('../host.mjs', import.meta.url))

export class Client extends Base {
  constructor (t) {
    super(HOST, t)
    this.logs = new Map() // agent -> observed events
  }

  /** Send one request and return its result (a protocol error throws); observed events extend the agent's log. */
  async call (method, params = {}) {
    const result = await super.call(method, params)
    const events = result.events ?? []
    if (params.agent !== undefined && events.length > 0) {
      const log = this.logs.get(params.agent) ?? []
      for (const e of events) {
        assert.equal(e.seq, log.length, `${method}: event seq continues the observed log`)
        log.push(e)
      }
      this.logs.set(params.agent, log)
    }
    return result
  }

  log (agent = 'main') { return this.logs.get(agent) ?? [] }

  /** start + load + open main. */
  async ready (load = {}) {
    const id = await this.call('start', { protocol: 1, level: 'runtime' })
    const loaded = await this.call('load', { config: { section: 'Plan first.' }, services: { commands: true, userQuestions: true }, ...load })
    await this.call('open', { agent: 'main', events: [] })
    return { id, loaded }
  }
}

export const types = (events) => (events ?? []).map((e) => e.type)
export const notice = (m) => m.source?.kind === 'plugin' && m.source?.plugin === 'plan-mode' && m.source?.form === 'notice'
export const planEvents = (events) => (events ?? []).filter((e) => e.type === 'plan/mode').map((e) => e.data.active)
