// The adapter-protocol client of the host's tests: the shared client
// (adapter/node/client.mjs) around host.mjs, keeping main's log as the
// runtime would.
import { fileURLToPath } from 'node:url'
import { Client as Base } from '../../node/client.mjs'

export const HOST = fileURLToPath(new URL('../host.mjs', import.meta.url))

export class Client extends Base {
  constructor (t) { super(HOST, t) }

  /** start + load + open main, the usual preamble. */
  async ready (services = { commands: true, userQuestions: true }, config = { section: 'Plan first.' }) {
    await this.call('start', { protocol: 1 })
    return this.loadMain(services, config)
  }

  /** load + open main on `events` (its log from then on). */
  async loadMain (services, config, events = []) {
    const load = await this.call('load', { config, services })
    await this.call('open', { agent: 'main', events })
    this.log = [...events]
    return load
  }

  /** An event the host (runtime) appended to main's log, to sync next. */
  event (type, data) {
    const e = { seq: this.log.length, type, data }
    this.log.push(e)
    return e
  }

  /** Record the successful appends of a reply's effects into the local log. */
  applied (result) {
    for (const ef of result.effects ?? []) {
      if (ef.kind === 'append' && !ef.failed) this.log.push({ seq: this.log.length, type: ef.type, data: ef.data })
    }
    return result
  }
}

export const user = (text) => ({ role: 'user', text, source: { kind: 'user' } })
