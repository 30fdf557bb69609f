// The host declares the package's picks for the specification's silent
// points at start. Each declaration is a fact about the package: these
// tests run the package through the host and fail if it behaves otherwise.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Client } from './client.mjs'

async function declared (c) {
  const id = await c.call('start', { protocol: 1 })
  return id.choices
}

/** The first event of a turn-1 log: a set after it is in a turn. */
const IN_TURN = [{ seq: 0, type: 'turn/start', data: { turn: 1 } }]

test('fold-end=clamp: an end beyond the log folds the whole log, a negative end folds nothing (not slice)', async (t) => {
  const c = new Client(t)
  assert.equal((await declared(c))['fold-end'], 'clamp')
  const events = [{ seq: 0, type: 'plan/mode', data: { active: true } }]
  assert.deepEqual(await c.call('fold', { events, end: 7 }), { active: true })
  assert.deepEqual(await c.call('fold', { events, end: -1 }), { active: false })
  assert.deepEqual(await c.call('fold', { events, end: 0 }), { active: false })
  assert.deepEqual(await c.call('fold', { events }), { active: true })
  // Not slice: on this log events.slice(0, -1) would fold to active.
  const longer = [
    { seq: 0, type: 'plan/mode', data: { active: false } },
    { seq: 1, type: 'plan/mode', data: { active: true } },
    { seq: 2, type: 'turn/end', data: { turn: 1 } }
  ]
  assert.deepEqual(await c.call('fold', { events: longer, end: -1 }), { active: false })
  assert.deepEqual(await c.call('fold', { events: longer, end: 9 }), { active: true })
  await c.stop()
})

test('cancel-pending=keep-equal: after an in-turn cancel, get shows a pending equal to the logged state', async (t) => {
  const c = new Client(t)
  const choice = (await declared(c))['cancel-pending']
  await c.loadMain({}, { section: 'S' })
  assert.equal((await c.call('set', { agent: 'main', sync: IN_TURN, active: true })).outcome, 'queued')
  assert.equal((await c.call('set', { agent: 'main', active: false })).outcome, 'cancelled')
  assert.equal(choice, 'keep-equal')
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: false })
  await c.stop()
})

test('section-source=pending: plan:policy renders a pending selection before it is logged', async (t) => {
  const c = new Client(t)
  assert.equal((await declared(c))['section-source'], 'pending')
  await c.loadMain({}, { section: 'Plan first.' })
  assert.deepEqual((await c.call('assemble', { agent: 'main', sync: IN_TURN })).sections, [])
  await c.call('set', { agent: 'main', active: true })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: true })
  assert.deepEqual((await c.call('assemble', { agent: 'main' })).sections, [{ name: 'plan:policy', order: 50, text: 'Plan first.' }])
  await c.stop()
})

test('reload-pending=drop: a reload of the service forgets pending selections', async (t) => {
  const c = new Client(t)
  assert.equal((await declared(c))['reload-pending'], 'drop')
  await c.loadMain({}, { section: 'S' })
  await c.call('set', { agent: 'main', sync: IN_TURN, active: true })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false, pending: true })
  assert.equal((await c.call('reload')).error, undefined)
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false })
  await c.stop()
})

test('idle-append-failure=error: an idle set whose append fails throws and changes nothing', async (t) => {
  const c = new Client(t)
  assert.equal((await declared(c))['idle-append-failure'], 'error')
  await c.loadMain({}, { section: 'S' })
  const r = await c.call('set', { agent: 'main', active: true, failAppends: 1 })
  assert.equal(r.outcome, undefined)
  assert.ok(r.error)
  assert.deepEqual(r.effects, [{ kind: 'append', type: 'plan/mode', data: { active: true }, failed: true }])
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: false })
  await c.stop()
})

test('plan-heading=level-1: only a level-1 heading opens a plan', async (t) => {
  const c = new Client(t)
  assert.equal((await declared(c))['plan-heading'], 'level-1')
  await c.loadMain({ userQuestions: true }, { section: 'S' }, [{ seq: 0, type: 'plan/mode', data: { active: true } }])
  for (const plan of ['## Plan', 'Plan', '#Plan', '', '   ']) {
    const r = await c.call('exitTool', { agent: 'main', args: { plan }, review: { answer: 'approve' } })
    assert.equal(r.ok, false, JSON.stringify(plan))
    assert.deepEqual(r.effects, [], `${JSON.stringify(plan)} must not reach review`)
  }
  const r = await c.call('exitTool', { agent: 'main', args: { plan: '  # Plan\n' }, review: { answer: 'approve' } })
  assert.equal(r.ok, true)
  await c.stop()
})

test('plan-mode-data=fold-active: a boolean active folds whatever other fields the data has', async (t) => {
  const c = new Client(t)
  assert.equal((await declared(c))['plan-mode-data'], 'fold-active')
  const events = [
    { seq: 0, type: 'plan/mode', data: { active: true } },
    { seq: 1, type: 'plan/mode', data: { active: false, by: 'ui' } }
  ]
  assert.deepEqual(await c.call('fold', { events }), { active: false })
  assert.deepEqual(await c.call('fold', { events: [{ seq: 0, type: 'plan/mode', data: { active: true, by: 'ui' } }] }), { active: true })
  await c.stop()
})

test('plan-mode-malformed=truthy: data with no boolean active folds to the truthiness of its active', async (t) => {
  const c = new Client(t)
  assert.equal((await declared(c))['plan-mode-malformed'], 'truthy')
  const on = { seq: 0, type: 'plan/mode', data: { active: true } }
  const off = { seq: 0, type: 'plan/mode', data: { active: false } }
  for (const [before, data, want] of [[off, { active: 'yes' }, true], [off, { active: 'no' }, true], [on, {}, false], [on, { active: '' }, false], [on, { active: 0 }, false]]) {
    const events = [before, { seq: 1, type: 'plan/mode', data }]
    assert.deepEqual(await c.call('fold', { events }), { active: want }, JSON.stringify(data))
  }
  // The state in force is the same fold: an agent opened from such a log.
  await c.loadMain({}, { section: 'S' }, [off, { seq: 1, type: 'plan/mode', data: { active: 'no' } }])
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true })
  await c.stop()
})

test('idle-revert-notice=keep: an idle commit injects its notice at once, and a revert before the next request takes nothing back', async (t) => {
  const c = new Client(t)
  assert.equal((await declared(c))['idle-revert-notice'], 'keep')
  await c.loadMain({}, { section: 'S' })
  const sync = [c.event('turn/start', { turn: 1 }), c.event('request/header', {}), c.event('turn/end', { turn: 1, reason: 'completed' })]
  const on = await c.call('set', { agent: 'main', sync, active: true })
  assert.equal(on.outcome, 'committed')
  assert.deepEqual(on.effects.map((e) => e.kind), ['append', 'inject'])
  const off = await c.call('set', { agent: 'main', active: false })
  assert.equal(off.outcome, 'committed')
  assert.deepEqual(off.effects.map((e) => e.kind), ['append'])
  await c.stop()
})
