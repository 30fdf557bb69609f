// unload (runtime protocol minor 3): the host disposes the real plan-mode
// fiber without plugging it in again, and the real loop runs on without it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Client, planEvents, types } from './client.mjs'

test('unload: the section, the tool, /plan and the pending selection go; a reload starts clean from the log', async (t) => {
  const c = new Client(t)
  const id = await c.call('start', { protocol: 1, level: 'runtime', minor: 3 })
  assert.ok(id.minor >= 3, 'unload is minor 3')
  assert.equal(id.capabilities.unload, true)
  await c.call('load', { config: { section: 'Plan first.' }, services: { commands: true, userQuestions: true }, hostTools: [{ name: 'probe' }] })
  await c.call('open', { agent: 'main', events: [] })
  await c.call('set', { agent: 'main', active: true })
  // a selection while the last response streams stays pending after the turn
  await c.call('turn', { agent: 'main', prompt: 'One.', script: { responses: [{ text: 'x', during: [{ id: 's', set: { active: false } }] }] } })
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true, pending: false })
  assert.deepEqual(await c.call('unload', {}), {})
  const turn = await c.call('turn', { agent: 'main', prompt: 'Two.', script: { responses: [{ calls: [{ id: 'p', name: 'probe', args: {} }] }, { text: 'ok' }] } })
  assert.deepEqual(planEvents(turn.events), [], 'no plan/mode without the package, and the pending selection is lost')
  for (const r of turn.requests) {
    assert.ok(!r.sections.some((s) => s.name === 'plan:policy'), 'no plan:policy section')
    assert.deepEqual(r.tools, ['probe'], 'no exit_plan_mode; the host tool stays')
  }
  const plan = await c.call('command', { agent: 'main', input: '/plan' })
  assert.equal(plan.kind, 'error', '/plan is unknown')
  assert.deepEqual(planEvents(plan.events), [])
  assert.deepEqual(await c.call('reload', {}), {})
  assert.deepEqual(await c.call('get', { agent: 'main' }), { active: true }, 'loaded again: the log fold, nothing pending')
  const after = await c.call('turn', { agent: 'main', prompt: 'Three.', script: {} })
  assert.deepEqual(planEvents(after.events), [])
  assert.ok(after.requests[0].sections.some((s) => s.name === 'plan:policy'))
  assert.ok(types(after.events).includes('turn/end'))
  await c.stop()
})
