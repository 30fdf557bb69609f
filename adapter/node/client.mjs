// The protocol client the Node hosts' tests share (adapter/dsh and
// adapter/dsh-runtime): it spawns a host and exchanges one NDJSON
// request/reply at a time. It imports only Node's own modules, so each host
// keeps resolving its pinned packages from its own node_modules.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import assert from 'node:assert/strict'

export class Client {
  /** Spawn the host script; with a test context, the host is killed when the test ends, pass or fail. */
  constructor (host, t) {
    this.proc = spawn(process.execPath, [host], { stdio: ['pipe', 'pipe', 'pipe'] })
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
    assert.equal(reply.seq, seq, `reply seq to ${method}`)
    return reply
  }

  /** Send one request and return its result; a protocol error throws. */
  async call (method, params = {}) {
    const reply = await this.raw(method, params)
    if (reply.error || reply.unsupported) throw new Error(`${method}: ${JSON.stringify(reply)}\nstderr:\n${this.stderr}`)
    return reply.result
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
