// A minimal runtime-protocol client for the host's tests: it spawns host.mjs
// and exchanges one NDJSON request/reply at a time, keeping the observed log
// of each agent as the kit does.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import assert from 'node:assert/strict'

export const HOST = fileURLToPath(new URL('../host.mjs', import.meta.url))

export class Client {
  /** Spawn a host; with a test context, the host is killed when the test ends, pass or fail. */
  constructor (t) {
    this.proc = spawn(process.execPath, [HOST], { stdio: ['pipe', 'pipe', 'pipe'] })
    t?.after(() => this.kill())
    this.stderr = ''
    this.proc.stderr.on('data', (d) => { this.stderr += d })
    this.lines = createInterface({ input: this.proc.stdout })[Symbol.asyncIterator]()
    this.seq = 0
    this.logs = new Map() // agent -> observed events
    this.exited = new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)))
  }

  /** Send one request and return the whole reply line, parsed. */
  async raw (method, params = {}) {
    const seq = ++this.seq
    this.proc.stdin.write(JSON.stringify({ seq, method, params }) + '\n')
    const { value, done } = await this.lines.next()
    if (done) throw new Error(`host exited before replying to ${method}; stderr:\n${this.stderr}`)
    const reply = JSON.parse(value)
    assert.equal(reply.seq, seq, `reply seq to ${method}`)
    return reply
  }

  /** Send one request and return its result (a protocol error throws); observed events extend the agent's log. */
  async call (method, params = {}) {
    const reply = await this.raw(method, params)
    if (reply.error || reply.unsupported) throw new Error(`${method}: ${JSON.stringify(reply)}\nstderr:\n${this.stderr}`)
    const events = reply.result.events ?? []
    if (params.agent !== undefined && events.length > 0) {
      const log = this.logs.get(params.agent) ?? []
      for (const e of events) {
        assert.equal(e.seq, log.length, `${method}: event seq continues the observed log`)
        log.push(e)
      }
      this.logs.set(params.agent, log)
    }
    return reply.result
  }

  log (agent = 'main') { return this.logs.get(agent) ?? [] }

  /** start + load + open main. */
  async ready (load = {}) {
    const id = await this.call('start', { protocol: 1, level: 'runtime' })
    const loaded = await this.call('load', { config: { section: 'Plan first.' }, services: { commands: true, userQuestions: true }, ...load })
    await this.call('open', { agent: 'main', events: [] })
    return { id, loaded }
  }

  async stop () {
    const result = await this.call('stop')
    const code = await this.exited
    return { result, code }
  }

  kill () {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill()
  }
}

export const types = (events) => (events ?? []).map((e) => e.type)
export const notice = (m) => m.source?.kind === 'plugin' && m.source?.plugin === 'plan-mode' && m.source?.form === 'notice'
export const planEvents = (events) => (events ?? []).filter((e) => e.type === 'plan/mode').map((e) => e.data.active)
