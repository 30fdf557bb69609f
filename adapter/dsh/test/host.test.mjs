// The host speaks the adapter protocol around the real package: these tests
// drive host.mjs over stdin/stdout exactly as plankit does.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Client, user } from './client.mjs'

const notice = (m) => m.source.kind === 'plugin' && m.source.plugin === 'plan-mode' && m.source.form === 'notice'

test('start reports the package, its choices and capabilities', async (t) => {
  const c = new Client(t)
  const id = await c.call('start', { protocol: 1 })
  assert.equal(id.protocol, 1)
  assert.equal(id.minor, 3)
  assert.equal(id.name, '@deepseek-ai/dsh-plan-mode')
  assert.equal(id.version, '0.1.0-rc.8')
  assert.deepEqual(Object.keys(id.choices).sort(), ['cancel-pending', 'fold-end', 'idle-append-failure', 'idle-revert-notice', 'plan-heading', 'plan-mode-data', 'plan-mode-malformed', 'reload-pending', 'section-source'])
  assert.deepEqual(id.capabilities, { commands: true, userQuestions: true, fork: true, reload: true, reuse: true, commandOutcomes: true, unload: true, reviewReplies: true, hostTools: true, emptySteps: true })
  assert.deepEqual(await c.stop(), { result: {}, code: 0 })
})

test('start refuses another protocol version as a protocol error', async (t) => {
  const c = new Client(t)
  const reply = await c.raw('start', { protocol: 2 })
  assert.match(reply.error.message, /protocol 2/)
  await c.stop()
})

test('load reports what the package registered, and how it registered its listener', async (t) => {
  const c = new Client(t)
  await c.call('start', { protocol: 1 })
  const full = await c.call('load', { config: { section: 'S' }, services: { commands: true, userQuestions: true } })
  assert.deepEqual(full, { tools: [{ name: 'exit_plan_mode' }], sections: ['plan:policy'], listener: 'append', commands: ['plan'] })
  const bare = await c.call('load', { config: { section: 'S' }, services: { commands: false, userQuestions: false } })
  assert.equal(bare.commands, undefined, 'no commands service, no /plan')
  for (const config of [{}, { section: '  ' }, { section: 3 }, { section: 'S', extra: true }, null]) {
    const reply = await c.call('load', { config, services: {} })
    assert.ok(reply.error, `config ${JSON.stringify(config)} must be rejected at load`)
    assert.equal(reply.tools, undefined)
  }
  await c.stop()
})

test('preStep: downstream first, then the append, then the notice on the accepted decision', async (t) => {
  const c = new Client(t)
  await c.ready()
  // Turn 1: header shows inactive.
  const sync = [c.event('turn/start', { turn: 1 }), c.event('step/start', { turn: 1, step: 1 }), c.event('request/header', { header: {}, reason: 'initial' })]
  const set = await c.call('set', { agent: 'main', sync, active: true })
  assert.deepEqual(set, { outcome: 'queued', effects: [] })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: true })
  const step = c.applied(await c.call('preStep', {
    agent: 'main', sync: [c.event('step/end', {})], turn: 1, step: 2, messages: [],
    downstream: { kind: 'enter', messages: [user('go on')] },
  }))
  assert.deepEqual(step.effects.map((e) => e.kind), ['downstream', 'append'])
  assert.deepEqual(step.effects[1], { kind: 'append', type: 'plan/mode', data: { active: true } })
  assert.equal(step.decision.kind, 'enter')
  assert.deepEqual(step.decision.messages[0], user('go on'))
  assert.equal(step.decision.messages.length, 2)
  assert.ok(notice(step.decision.messages[1]))
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true })
  await c.stop()
})

test('preStep: a rejected or aborted step appends nothing; a failed append keeps the selection pending', async (t) => {
  const c = new Client(t)
  await c.ready()
  await c.call('set', { agent: 'main', sync: [c.event('turn/start', { turn: 1 })], active: true })
  const base = { agent: 'main', turn: 1, step: 1, messages: [] }
  const rejected = await c.call('preStep', { ...base, downstream: { kind: 'reject' } })
  assert.deepEqual(rejected, { decision: { kind: 'reject' }, effects: [{ kind: 'downstream' }] })
  const before = await c.call('preStep', { ...base, downstream: { kind: 'enter' }, abortedBefore: true })
  assert.deepEqual(before.effects, [{ kind: 'downstream' }])
  const during = await c.call('preStep', { ...base, downstream: { kind: 'enter' }, abortDuring: true })
  assert.deepEqual(during.effects, [{ kind: 'downstream' }])
  const failed = await c.call('preStep', { ...base, downstream: { kind: 'enter' }, failAppends: 1 })
  assert.deepEqual(failed.effects, [{ kind: 'downstream' }, { kind: 'append', type: 'plan/mode', data: { active: true }, failed: true }])
  assert.deepEqual(failed.decision, { kind: 'enter', messages: [] })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: true })
  const ok = await c.call('preStep', { ...base, downstream: { kind: 'enter' } })
  assert.deepEqual(ok.effects, [{ kind: 'downstream' }, { kind: 'append', type: 'plan/mode', data: { active: true } }])
  await c.stop()
})

test('idle set commits at once and injects the notice when the last header showed the other state', async (t) => {
  const c = new Client(t)
  await c.ready()
  const sync = [c.event('turn/start', { turn: 1 }), c.event('request/header', {}), c.event('turn/end', { turn: 1, reason: 'completed' })]
  const set = await c.call('set', { agent: 'main', sync, active: true })
  assert.equal(set.outcome, 'committed')
  assert.deepEqual(set.effects.map((e) => e.kind), ['append', 'inject'])
  assert.ok(notice(set.effects[1].message))
  await c.stop()
})

test('command: /plan <message> selects plan mode and steers the message; unknown commands fail', async (t) => {
  const c = new Client(t)
  await c.ready()
  const r = await c.call('command', { agent: 'main', name: 'plan', input: 'draft it' })
  assert.equal(r.kind, 'success')
  assert.equal(r.outcome, 'committed', 'the reply announces the outcome its text means')
  assert.deepEqual(r.effects, [{ kind: 'append', type: 'plan/mode', data: { active: true } }, { kind: 'steer', message: user('draft it') }])
  const off = await c.call('command', { agent: 'main', name: 'plan', input: ' off ' })
  assert.equal(off.outcome, 'committed')
  const again = await c.call('command', { agent: 'main', name: 'plan', input: 'off' })
  assert.equal(again.outcome, 'noop')
  const other = await c.call('command', { agent: 'main', name: 'nope', input: '' })
  assert.equal(other.kind, 'error')
  assert.equal(other.exception, undefined, 'an unknown command is a reply, not an exception')
  // The handler throws when the idle append fails (the package's set throws
  // the store's failure on): that is the package's reply to a failed append
  // (idle-append-failure=error), not an exception inside it, so the reply is
  // an ordinary error that keeps the text (protocol minor 3).
  const thrown = await c.call('command', { agent: 'main', name: 'plan', input: '', failAppends: 1 })
  assert.equal(thrown.kind, 'error')
  assert.equal(thrown.exception, undefined, 'a failed append passed on is a reply, not an exception')
  assert.ok(thrown.text.length > 0, 'the reply keeps the text')
  await c.stop()
})

test('exitTool: review answers reach the package through the user-questions seam', async (t) => {
  const c = new Client(t)
  await c.ready()
  const args = { plan: '# Plan\n\n1. Do it.' }
  const off = await c.call('exitTool', { agent: 'main', args, review: { answer: 'approve' } })
  assert.equal(off.ok, false, 'outside plan mode the tool fails')
  assert.deepEqual(off.effects, [])
  c.applied(await c.call('set', { agent: 'main', active: true }))
  const keep = await c.call('exitTool', { agent: 'main', args, review: { answer: 'keep-planning', feedback: 'add tests' } })
  assert.equal(keep.ok, false)
  assert.match(keep.error, /add tests/)
  assert.equal(keep.effects[0].kind, 'ask')
  assert.equal(keep.effects[0].question.detail, args.plan)
  const dismissed = await c.call('exitTool', { agent: 'main', args, review: { answer: 'dismiss' } })
  assert.equal(dismissed.ok, false)
  const reloaded = await c.call('exitTool', { agent: 'main', args, review: { answer: 'approve', reload: true } })
  assert.equal(reloaded.ok, false)
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true })
  const approved = await c.call('exitTool', { agent: 'main', args, review: { answer: 'approve' } })
  assert.deepEqual(approved.result, { approved: true })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true, pending: false })
  await c.stop()
})

test('exitTool: review replies and failing seams reach the package as dsh-user-questions would hand them', async (t) => {
  const c = new Client(t)
  await c.ready()
  const args = { plan: '# Plan\n\n1. Do it.' }
  c.applied(await c.call('set', { agent: 'main', active: true }))
  const call = (review) => c.call('exitTool', { agent: 'main', args, review })
  // only the one answer to the review question counts
  const other = await call({ reply: { answers: [{ question: 'scope-check', selected: ['keep-planning'] }, { selected: ['approve'] }] } })
  assert.deepEqual(other.result, { approved: true })
  c.applied(await c.call('set', { agent: 'main', active: true }))
  for (const reply of [
    { answers: [{ question: 'scope-check', selected: ['approve'] }] },
    { answers: [{ selected: ['approve', 'keep-planning'] }] },
    { answers: [{ selected: ['approve'] }, { selected: ['approve'] }] },
    { answers: [] }
  ]) {
    const r = await call({ reply })
    assert.equal(r.ok, false, JSON.stringify(reply))
    assert.equal(r.effects[0].kind, 'ask')
  }
  const text = await call({ reply: { answers: [{ custom: 'cover the rollback' }] } })
  assert.match(text.error, /cover the rollback/)
  // no answer: the feedback alone is free text
  const feedback = await call({ feedback: 'split step 2' })
  assert.match(feedback.error, /their feedback: split step 2/)
  for (const fail of ['throws', 'aborted', 'refused', 'unavailable']) {
    const r = await call({ fail })
    assert.equal(r.ok, false, fail)
    assert.equal(r.effects[0].kind, 'ask')
  }
  assert.match((await c.raw('exitTool', { agent: 'main', args, review: { fail: 'explodes' } })).error.message, /unknown review fail/)
  await c.stop()
})

test('exitTool without the user-questions service: the package sees no channel', async (t) => {
  const c = new Client(t)
  await c.ready({ commands: false, userQuestions: false })
  c.applied(await c.call('set', { agent: 'main', active: true }))
  const r = await c.call('exitTool', { agent: 'main', args: { plan: '# P' }, review: { answer: 'approve' } })
  assert.equal(r.ok, false)
  assert.deepEqual(r.effects, [])
  await c.stop()
})

test('protocol errors: unknown agent, out-of-order sync, unknown method', async (t) => {
  const c = new Client(t)
  await c.ready()
  assert.match((await c.raw('get', { agent: 'ghost' })).error.message, /unknown agent/)
  assert.match((await c.raw('get', { agent: 'main', sync: [{ seq: 4, type: 'turn/start', data: {} }] })).error.message, /seq 4, want 0/)
  assert.ok((await c.raw('frobnicate', {})).unsupported)
  await c.stop()
})

test('reuse: a second start resets the process to the state of a new one', async (t) => {
  const c = new Client(t)
  const id = await c.call('start', { protocol: 1 })
  assert.equal(id.capabilities.reuse, true)
  await c.loadMain({ commands: true, userQuestions: true }, { section: 'S' })
  await c.call('set', { agent: 'main', sync: [{ seq: 0, type: 'turn/start', data: { turn: 1 } }], active: true })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: true })
  await c.call('start', { protocol: 1 })
  assert.match((await c.raw('get', { agent: 'main' })).error.message, /not loaded|unknown agent/, 'nothing is loaded after a reset')
  const load = await c.call('load', { config: { section: 'S' }, services: { commands: false, userQuestions: false } })
  assert.equal(load.commands, undefined, 'no /plan without the commands service')
  assert.match((await c.raw('get', { agent: 'main' })).error.message, /unknown agent/, 'agents are forgotten')
  await c.call('open', { agent: 'main', events: [{ seq: 0, type: 'turn/start', data: { turn: 1 } }] })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false }, 'the pending selection is gone')
  await c.stop()
})

test('end of stdin ends the process like stop', async (t) => {
  const c = new Client(t)
  await c.call('start', { protocol: 1 })
  c.proc.stdin.end()
  assert.equal(await c.exited, 0)
})

test('unload disposes the plugin: nothing stays registered, not even the pre-step listener', async (t) => {
  const c = new Client(t)
  await c.ready()
  assert.deepEqual(await c.call('unload', {}), {})
  await c.stop()
})

test('host tools: the registry holds them before the package, the catalog keeps them in order, and the package never denies a call', async (t) => {
  const c = new Client(t)
  await c.call('start', { protocol: 1 })
  const load = await c.call('load', { config: { section: 'S' }, services: { commands: true, userQuestions: true }, hostTools: [{ name: 'read' }, { name: 'write' }] })
  assert.deepEqual(load.tools, [{ name: 'exit_plan_mode' }], 'load lists only the package\'s own tools')
  await c.call('open', { agent: 'main', events: [] })
  const tools = [{ name: 'read' }, { name: 'write' }, { name: 'search' }]
  const off = await c.call('assemble', { agent: 'main', tools })
  assert.deepEqual(off.tools, [...tools, { name: 'exit_plan_mode' }])
  await c.call('set', { agent: 'main', active: true })
  const on = await c.call('assemble', { agent: 'main', tools })
  assert.deepEqual(on.tools, off.tools, 'the catalog does not change with the state')
  assert.deepEqual(await c.call('preTool', { agent: 'main', name: 'write', args: { path: 'a' } }), { decision: 'allow' })
  await c.stop()
})
