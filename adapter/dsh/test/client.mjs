// A minimal adapter-protocol client for the host's tests: it spawns
// host.mjs and exchanges one NDJSON request/reply at a time.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

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
    this.exited = new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)))
  }

  /** Send one request and return the whole reply line, parsed. */
  async raw (method, params = {}) {
    const seq = ++this.seq
    this.proc.stdin.write(JSON.stringify({ seq, method, params }) + '\n')
    const { value, done } = await this.lines.next()
    if (done) throw new Error(`host exited before replying to ${method}; stderr:\n${this.stderr}`)
    const reply = JSON.parse(value)
    if (reply.seq !== seq) throw new Error(`reply seq ${reply.seq}, want ${seq}`)
    return reply
  }

  /** Send one request and return its result; a protocol error throws. */
  async call (method, params = {}) {
    const reply = await this.raw(method, params)
    if (reply.error || reply.unsupported) throw new Error(`${method}: ${JSON.stringify(reply)}`)
    return reply.result
  }

  /** start + load + open main, the usual preamble. */
  async ready (services = { commands: true, userQuestions: true }, config = { section: 'Plan first.' }) {
    await this.call('start', { protocol: 1 })
    const load = await this.call('load', { config, services })
    await this.call('open', { agent: 'main', events: [] })
    this.log = []
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

  async stop () {
    const result = await this.call('stop')
    const code = await this.exited
    return { result, code }
  }

  kill () {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill()
  }
}

export const user = (text) => ({ role: 'user', text, source: { kind: 'user' } })
