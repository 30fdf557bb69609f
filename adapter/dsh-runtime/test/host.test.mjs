// The host speaks the runtime protocol around the real dsh agent loop: these
// tests drive host.mjs over stdin/stdout exactly as plankit does, and assert
// what the real loop and plan mode did.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { Client, HOST, notice, planEvents, types } from './client.mjs'

const PLAN = '# Plan\n\n1. Split the module.'
const exitCall = (id, answer = 'approve', extra = {}) => ({ id, name: 'exit_plan_mode', args: { plan: PLAN }, review: { answer, ...extra } })
const sectionNames = (request) => request.sections.map((s) => s.name)

test('start: a runtime-level host with its true capabilities; other levels and versions are refused', async (t) => {
  const c = new Client(t)
  assert.match((await c.raw('start', { protocol: 1, level: 'plugin' })).error.message, /level "plugin" is not supported/)
  assert.match((await c.raw('start', { protocol: 2, level: 'runtime' })).error.message, /protocol 2/)
  const id = await c.call('start', { protocol: 1, level: 'runtime' })
  assert.equal(id.protocol, 1)
  assert.equal(id.level, 'runtime')
  assert.equal(id.name, '@deepseek-ai/dsh-agent-loop')
  assert.equal(id.version, '0.1.0-rc.8')
  // minor 4: the loop and the plan-mode package, each with its installed version
  assert.deepEqual(id.components, [
    { name: '@deepseek-ai/dsh-agent-loop', version: '0.1.0-rc.8' },
    { name: '@deepseek-ai/dsh-plan-mode', version: '0.1.0-rc.8' },
  ])
  assert.equal(id.capabilities.retry, 'same-step')
  assert.equal(id.choices['section-source'], 'pending')
  assert.equal(id.minor, 5)
  for (const k of ['commands', 'userQuestions', 'hostTools', 'hostListeners', 'duringStream', 'outsideAppend', 'failAppend', 'resume', 'reload', 'reuse', 'commandOutcomes']) {
    assert.equal(id.capabilities[k], true, k)
  }
  assert.deepEqual(await c.stop(), { result: {}, code: 0 })
})

test('load: plan mode refuses a bad config at load; a good one composes', async (t) => {
  const c = new Client(t)
  await c.call('start', { protocol: 1, level: 'runtime' })
  for (const config of [{}, { section: '  ' }, { section: 3 }, { section: 'S', extra: true }]) {
    const reply = await c.call('load', { config, services: { commands: true, userQuestions: true } })
    assert.equal(typeof reply.error, 'string', `config ${JSON.stringify(config)} must be refused`)
  }
  assert.deepEqual(await c.call('load', { config: { section: 'S' }, services: { commands: false, userQuestions: false } }), {})
  await c.stop()
})

test('a full turn: plan mode entered between turns, the plan approved, plan mode left before the next step', async (t) => {
  const c = new Client(t)
  await c.ready()
  const set = await c.call('set', { agent: 'main', active: true })
  assert.equal(set.outcome, 'committed')
  assert.deepEqual(set.events, [{ seq: 0, type: 'plan/mode', data: { active: true } }])
  const turn = await c.call('turn', {
    agent: 'main',
    prompt: 'Plan the refactor.',
    script: { responses: [{ calls: [exitCall('x1')] }, { text: 'Starting.' }] },
  })
  const log = c.log()
  assert.deepEqual(planEvents(log), [true, false])
  // plan/mode {active:false} lands after step 1 ends and before step 2 starts.
  const off = log.findLastIndex((e) => e.type === 'plan/mode')
  assert.deepEqual(log[off - 1], { seq: off - 1, type: 'step/end', data: { turn: 1, step: 1 } })
  assert.deepEqual(log[off + 1], { seq: off + 1, type: 'step/start', data: { turn: 1, step: 2 } })
  assert.deepEqual(log.at(-1), { seq: log.length - 1, type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } })
  // Two requests, as sent: plan guidance in the first only; the tool catalog is stable.
  assert.equal(turn.requests.length, 2)
  const [first, second] = turn.requests
  assert.deepEqual(first.sections.find((s) => s.name === 'plan:policy'), { name: 'plan:policy', order: 50, text: 'Plan first.' })
  assert.ok(!sectionNames(second).includes('plan:policy'))
  assert.deepEqual(first.tools, ['exit_plan_mode'])
  assert.deepEqual(second.tools, ['exit_plan_mode'])
  assert.deepEqual(first.messages, [{ role: 'user', text: 'Plan the refactor.', source: { kind: 'user' } }])
  assert.deepEqual(second.messages.map((m) => m.role), ['user', 'assistant', 'tool'])
  assert.ok(!second.messages.some(notice), 'an approved exit is not narrated')
  // at: the log length when the request was sent; the header just before it is in the log.
  for (const r of turn.requests) assert.ok(log.slice(0, r.at).some((e) => e.type === 'request/header'))
  assert.deepEqual(turn.results, [{ id: 'x1', tool: { name: 'exit_plan_mode', ok: true, value: { approved: true }, asked: true } }])
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false })
  await c.stop()
})

test('/plan <message> commits between turns and steers the message into a turn it wakes', async (t) => {
  const c = new Client(t)
  await c.ready()
  const reply = await c.call('command', { agent: 'main', input: '/plan draft it', script: { responses: [{ text: 'Thinking.' }] } })
  assert.equal(reply.kind, 'success')
  assert.equal(reply.outcome, 'committed', 'the reply announces the selection committed (minor 5)')
  assert.ok(types(reply.events).includes('command/run'))
  assert.deepEqual(planEvents(reply.events), [true])
  assert.equal(reply.requests.length, 1)
  assert.ok(sectionNames(reply.requests[0]).includes('plan:policy'))
  assert.deepEqual(reply.requests[0].messages, [{ role: 'user', text: 'draft it', source: { kind: 'user' } }])
  const off = await c.call('command', { agent: 'main', input: '/plan off' })
  assert.equal(off.kind, 'success')
  assert.equal(off.outcome, 'committed')
  const again = await c.call('command', { agent: 'main', input: '/plan off' })
  assert.equal(again.outcome, 'noop', 'already inactive')
  assert.deepEqual(planEvents(off.events), [false])
  const unknown = await c.call('command', { agent: 'main', input: '/nope' })
  assert.equal(unknown.kind, 'error')
  assert.equal(unknown.outcome, undefined, 'an error announces no outcome')
  assert.equal(unknown.exception, undefined, 'an unknown command is a reply, not an exception')
  // The /plan handler throws when the idle append fails (the package's set
  // throws the store's failure on): the package's reply to a failed append,
  // not an exception inside it; the error keeps its text (minor 4).
  await c.call('fault', { agent: 'main', count: 1 })
  const thrown = await c.call('command', { agent: 'main', input: '/plan' })
  assert.equal(thrown.kind, 'error')
  assert.equal(thrown.exception, undefined, 'a failed append passed on is a reply, not an exception')
  assert.ok(thrown.text.length > 0, 'the reply keeps the text')
  await c.stop()
})

test('a selection while a host tool executes is queued, then appended and narrated at the next accepted pre-step', async (t) => {
  const c = new Client(t)
  await c.ready({ hostTools: [{ name: 'probe' }] })
  const turn = await c.call('turn', {
    agent: 'main',
    prompt: 'Look around.',
    script: { responses: [{ calls: [{ id: 'p1', name: 'probe', args: {}, during: [{ id: 's1', set: { active: true } }, { id: 'g1', get: {} }] }] }, { text: 'Done looking.' }] },
  })
  assert.deepEqual(turn.results, [
    { id: 's1', set: { outcome: 'queued' } },
    { id: 'g1', get: { active: false, pending: true } },
    { id: 'p1', tool: { name: 'probe', ok: true, value: 'ok' } },
  ])
  const [first, second] = turn.requests
  assert.ok(!sectionNames(first).includes('plan:policy'))
  assert.ok(sectionNames(second).includes('plan:policy'))
  assert.ok(notice(second.messages.at(-1)), 'the notice is the last message of the step that applied the selection')
  const log = c.log()
  const on = log.findIndex((e) => e.type === 'plan/mode')
  assert.equal(log[on + 1].type, 'step/start')
  assert.ok(second.at > on, 'the request of that step is sent after the append')
  await c.stop()
})

test('request recovery repeats the failed request in the same step, without a new pre-step', async (t) => {
  const c = new Client(t)
  await c.ready()
  const turn = await c.call('turn', {
    agent: 'main',
    prompt: 'Go.',
    script: { responses: [{ fail: true, during: [{ id: 's1', set: { active: true } }] }, { text: 'Recovered.' }] },
  })
  const log = c.log()
  assert.equal(types(log).filter((x) => x === 'step/start').length, 1)
  assert.ok(types(log).includes('llm/retry') && types(log).includes('llm/retry-started'))
  assert.equal(turn.requests.length, 2)
  assert.deepEqual(turn.requests[0].sections, turn.requests[1].sections, 'the retry reuses the step assembly')
  assert.equal(types(log).filter((x) => x === 'request/header').length, 1, 'the unchanged header of the retry is not logged again')
  assert.deepEqual(turn.results, [{ id: 's1', set: { outcome: 'queued' } }])
  assert.deepEqual(planEvents(log), [], 'no pre-step ran after the selection')
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: true })
  await c.stop()
})

test('host pre-step listeners: reject blocks the turn and abort ends it; the selection stays pending', async (t) => {
  const c = new Client(t)
  await c.ready({ listeners: [{ name: 'gate', position: 'after' }] })
  // Turn 1: a selection while streaming, then a continuation step the gate rejects.
  const blocked = await c.call('turn', {
    agent: 'main',
    prompt: 'One.',
    script: {
      responses: [{ calls: [{ id: 'x0', name: 'exit_plan_mode', args: { plan: PLAN } }], during: [{ id: 's1', set: { active: true } }] }],
      preSteps: [{ dispatch: 2, listener: 'gate', behaviour: 'reject' }],
    },
  })
  assert.deepEqual(blocked.events.at(-1).data, { turn: 1, reason: { kind: 'blocked' } })
  assert.deepEqual(planEvents(c.log()), [])
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: true })
  const aborted = await c.call('turn', {
    agent: 'main',
    prompt: 'Two.',
    script: { preSteps: [{ dispatch: 1, listener: 'gate', behaviour: 'abort' }] },
  })
  assert.equal(aborted.events.at(-1).data.reason.kind, 'aborted')
  assert.deepEqual(planEvents(c.log()), [])
  const accepted = await c.call('turn', { agent: 'main', prompt: 'Three.', script: {} })
  assert.deepEqual(planEvents(accepted.events), [true])
  await c.stop()
})

test('faults: an idle set whose append fails throws to the caller; a failed pre-step append keeps the selection pending', async (t) => {
  const c = new Client(t)
  await c.ready({ hostTools: [{ name: 'probe' }] })
  assert.deepEqual(await c.call('fault', { agent: 'main', count: 1 }), {})
  const idle = await c.call('set', { agent: 'main', active: true })
  assert.equal(typeof idle.error, 'string')
  assert.equal(idle.outcome, undefined)
  assert.equal(idle.events, undefined)
  const turn = await c.call('turn', {
    agent: 'main',
    prompt: 'Go.',
    script: { responses: [{ calls: [{ id: 'p1', name: 'probe', args: {}, during: [{ id: 'f', fault: { count: 1 } }, { id: 's', set: { active: true } }] }] }, { calls: [{ id: 'p2', name: 'probe', args: {} }] }, { text: 'ok' }] },
  })
  // Step 2's append failed (the step went on); step 3's appended.
  const log = c.log()
  const on = log.findIndex((e) => e.type === 'plan/mode')
  assert.deepEqual(log[on + 1].data, { turn: 1, step: 3 })
  assert.ok(!sectionNames(turn.requests[0]).includes('plan:policy'))
  assert.equal(turn.requests.length, 3)
  await c.stop()
})

test('an outside writer appends between turns and inside a turn; its events are reported in their place', async (t) => {
  const c = new Client(t)
  await c.ready()
  const outside = await c.call('append', { agent: 'main', type: 'plan/mode', data: { active: true } })
  assert.deepEqual(outside.events, [{ seq: 0, type: 'plan/mode', data: { active: true } }])
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true })
  const turn = await c.call('turn', { agent: 'main', prompt: 'Go.', script: { responses: [{ text: 'x', during: [{ id: 'w', append: { type: 'plan/mode', data: { active: false } } }] }] } })
  assert.deepEqual(turn.results, [{ id: 'w', append: {} }])
  assert.deepEqual(planEvents(c.log()), [true, false])
  await c.stop()
})

test('restart: a new process opened with the whole observed log resumes from the log alone', async (t) => {
  const a = new Client(t)
  await a.ready()
  await a.call('set', { agent: 'main', active: true })
  await a.call('turn', { agent: 'main', prompt: 'One.', script: { responses: [{ text: 'x', during: [{ id: 's', set: { active: false } }] }] } })
  const log = a.log()
  await a.stop()

  const b = new Client(t)
  await b.call('start', { protocol: 1, level: 'runtime' })
  await b.call('load', { config: { section: 'Plan first.' }, services: { commands: true, userQuestions: true } })
  b.logs.set('main', [...log])
  const opened = await b.call('open', { agent: 'main', events: log })
  assert.deepEqual(types(opened.events), ['session/end-seed'])
  assert.deepEqual(await b.call('get', { agent: 'main' }), { active: true }, 'the selection made after the last pre-step is lost; the log fold is in force')
  const turn = await b.call('turn', { agent: 'main', prompt: 'Two.', script: {} })
  const header = turn.events.find((e) => e.type === 'request/header')
  assert.equal(header.data.reason, 'resume')
  assert.equal(turn.events.find((e) => e.type === 'turn/start').data.turn, 2)
  assert.ok(sectionNames(turn.requests[0]).includes('plan:policy'))
  // The resumed transcript is the logged one.
  assert.deepEqual(turn.requests[0].messages.map((m) => m.text), ['One.', 'x', 'Two.'])
  await b.stop()
})

test('a reload while the plan review is open fails the call and plan mode stays on; a second agent has its own log', async (t) => {
  const c = new Client(t)
  await c.ready()
  await c.call('set', { agent: 'main', active: true })
  const turn = await c.call('turn', { agent: 'main', prompt: 'Plan.', script: { responses: [{ calls: [exitCall('x1', 'approve', { reload: true })] }, { text: 'ok' }] } })
  assert.equal(turn.results[0].id, 'x1')
  assert.equal(turn.results[0].tool.ok, false)
  assert.equal(turn.results[0].tool.asked, true)
  assert.deepEqual(planEvents(c.log()), [true])
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true })
  assert.deepEqual(await c.call('reload', {}), {})
  c.logs.set('child', [...c.log()])
  const child = await c.call('open', { agent: 'child', events: c.log() })
  assert.deepEqual(types(child.events), ['session/end-seed'])
  assert.deepEqual(await c.call('get', { agent: 'child' }), { active: true }, 'a copy of the log carries the state')
  await c.call('set', { agent: 'child', active: false })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true }, 'the agents do not share state')
  await c.stop()
})

test('the plan review as scripted: no answer keeps planning (the feedback alone as free text), dismiss closes it, replies and failing seams reach plan mode', async (t) => {
  const c = new Client(t)
  await c.ready()
  await c.call('set', { agent: 'main', active: true })
  const exit = (id, review) => ({ id, name: 'exit_plan_mode', args: { plan: PLAN }, ...(review === undefined ? {} : { review }) })
  const calls = [
    exit('none'),
    exit('empty', {}),
    exit('text', { feedback: 'cover the rollback' }),
    exit('dismiss', { answer: 'dismiss' }),
    exit('reply', { reply: { answers: [{ question: 'scope-check', selected: ['approve'] }] } }),
    exit('refused', { fail: 'refused' }),
  ]
  const turn = await c.call('turn', { agent: 'main', prompt: 'Plan.', script: { responses: [{ calls }, { text: 'Revising.' }] } })
  const errors = Object.fromEntries(turn.results.map((r) => [r.id, r.tool.ok ? 'ok' : r.tool.error]))
  const keepPlanning = /^Error: The user chose to keep planning; revise the plan/
  assert.match(errors.none, keepPlanning)
  assert.match(errors.empty, keepPlanning)
  assert.match(errors.text, /^Error: The user chose to keep planning; their feedback: cover the rollback/)
  assert.match(errors.dismiss, /dismissed the plan review/)
  assert.match(errors.reply, keepPlanning)
  assert.doesNotMatch(errors.refused, /keep planning|dismissed/)
  assert.ok(turn.results.every((r) => r.tool.asked), 'every call asked')
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true })
  // A review the host cannot play is refused before the turn runs.
  const bad = await c.raw('turn', { agent: 'main', prompt: 'Again.', script: { responses: [{ calls: [exit('x', { answer: 'maybe' })] }] } })
  assert.match(bad.error.message, /unknown review answer "maybe"/)
  await c.stop()
})

/** One scenario, run against a fresh or reused process: every reply line. */
async function scenario (c, withStart = true) {
  const lines = []
  const send = async (method, params) => lines.push(JSON.stringify((await c.raw(method, params)).result))
  if (withStart) await send('start', { protocol: 1, level: 'runtime' })
  await send('load', { config: { section: 'Plan first.' }, services: { commands: true, userQuestions: true }, hostTools: [{ name: 'probe' }] })
  await send('open', { agent: 'main', events: [] })
  await send('command', { agent: 'main', input: '/plan think first', script: { responses: [{ calls: [exitCall('k', 'keep-planning', { feedback: 'more tests' })] }, { calls: [exitCall('a')] }, { fail: true }, { text: 'Done.' }] } })
  await send('turn', { agent: 'main', prompt: 'Again.', script: { responses: [{ calls: [{ id: 'p', name: 'probe', args: { q: 1 }, during: [{ id: 's', set: { active: true } }] }] }] } })
  await send('get', { agent: 'main' })
  return lines
}

test('a restart by reset (start on the same process, --restarts reset) loses what a new process loses: a pending selection', async (t) => {
  const c = new Client(t)
  await c.ready({ listeners: [{ name: 'gate', position: 'after' }] })
  await c.call('turn', {
    agent: 'main',
    prompt: 'One.',
    script: {
      responses: [{ calls: [{ id: 'x0', name: 'exit_plan_mode', args: { plan: PLAN } }], during: [{ id: 's1', set: { active: true } }] }],
      preSteps: [{ dispatch: 2, listener: 'gate', behaviour: 'reject' }],
    },
  })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: true })
  const log = [...c.log()]
  // the kit's reset: start, the same load, open with the whole observed log
  await c.call('start', { protocol: 1, level: 'runtime' })
  await c.call('load', { config: { section: 'Plan first.' }, services: { commands: true, userQuestions: true }, listeners: [{ name: 'gate', position: 'after' }] })
  await c.call('open', { agent: 'main', events: log })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false }, 'nothing pending after the reset, as after a new process')
  await c.stop()
})

test('determinism: the same scenario gives byte-identical replies in two processes and in a reused one', async (t) => {
  const a = new Client(t)
  const first = await scenario(a)
  const again = await scenario(a) // reuse: start resets the process
  await a.stop()
  const b = new Client(t)
  const second = await scenario(b)
  await b.stop()
  assert.deepEqual(second, first)
  assert.deepEqual(again, first)
  const all = first.join('\n')
  assert.doesNotMatch(all, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, 'no random UUID is reported')
  assert.doesNotMatch(all, /"time"/, 'no time is reported')
  assert.match(all, /more tests/, 'keep-planning feedback reaches the model')
})

test('robustness: bad requests get error replies and the host goes on', async (t) => {
  const c = new Client(t)
  c.proc.stdin.write('not json\n')
  const { value } = await c.lines.next()
  assert.match(JSON.parse(value).error.message, /not JSON/)
  c.seq = 1
  assert.ok((await c.raw('frobnicate', {})).unsupported)
  assert.match((await c.raw('turn', { agent: 'main', prompt: 'x', script: {} })).error.message, /start first/)
  await c.ready()
  assert.match((await c.raw('get', { agent: 'ghost' })).error.message, /unknown agent/)
  assert.match((await c.raw('turn', { agent: 'main', prompt: 3, script: {} })).error.message, /prompt must be a string/)
  assert.match((await c.raw('turn', { agent: 'main', prompt: 'x', script: { responses: 'no' } })).error.message, /responses must be a list/)
  assert.match((await c.raw('open', { agent: 'other', events: [{ seq: 3, type: 'turn/start', data: { turn: 1 } }] })).error.message, /seq 3, want 0/)
  assert.match((await c.raw('fault', { agent: 'main', count: -1 })).error.message, /non-negative/)
  assert.match((await c.raw('append', { agent: 'main', type: '', data: {} })).error.message, /type must be a non-empty string/)
  const bad = await c.raw('turn', { agent: 'main', prompt: 'x', script: { responses: [{ text: 'y', during: [{ id: 'b', set: { active: 'yes' } }] }] } })
  assert.match(bad.error.message, /host action b: set.active must be a boolean/, 'a host action the host cannot carry out fails the turn request, after the turn')
  // Nothing observed is lost: the next reply carries the failed turn's observations too.
  const after = await c.call('turn', { agent: 'main', prompt: 'still here', script: {} })
  assert.equal(after.requests.length, 2)
  assert.deepEqual(after.events.filter((e) => e.type === 'turn/end').map((e) => e.data.turn), [1, 2])
  await c.stop()
})

test('end of stdin ends the process like stop', () => {
  const out = spawnSync(process.execPath, [HOST], { input: '{"seq":1,"method":"start","params":{"protocol":1,"level":"runtime"}}\n', encoding: 'utf8' })
  assert.equal(out.status, 0)
  assert.equal(JSON.parse(out.stdout).result.level, 'runtime')
})
