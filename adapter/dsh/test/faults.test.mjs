import { test } from 'node:test'
import assert from 'node:assert/strict'
import { armedFault, isArmedFault } from '../../node/faults.mjs'

test('an armed fault is recognised as such, also when passed on as a cause', () => {
  const fault = armedFault(new Error('append of plan/mode failed (armed fault)'))
  assert.equal(isArmedFault(fault), true)
  assert.equal(isArmedFault(new Error('wrapped', { cause: fault })), true)
  assert.equal(isArmedFault(new Error('a crash inside the handler')), false)
  assert.equal(isArmedFault(new TypeError('x is undefined')), false)
  assert.equal(isArmedFault(undefined), false)
  assert.equal(isArmedFault('a string'), false)
})
