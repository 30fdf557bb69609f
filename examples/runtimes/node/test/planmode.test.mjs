// Unit tests of plan mode's pure parts: node --test examples/runtimes/node/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldPlanMode, opensWithHeading, readConfig, ConfigError, stateShownByLastHeader } from '../lib/planmode.mjs';
import { parseCommandLine } from '../lib/services.mjs';

const pm = (active) => ({ type: 'plan/mode', data: { active } });

test('the fold takes the last plan/mode with a boolean active', () => {
  assert.equal(foldPlanMode([]), false);
  assert.equal(foldPlanMode([pm(true), pm(false), pm(true)]), true);
  assert.equal(foldPlanMode([pm(true), { type: 'plan/mode', data: { active: 'no' } }]), true);
  assert.equal(foldPlanMode([pm(true), { type: 'plan/mode', data: { active: false, by: 'ui' } }]), false);
  assert.equal(foldPlanMode([pm(true), pm(false)], 1), true);
  assert.equal(foldPlanMode([pm(true)], 99), true);
  assert.equal(foldPlanMode([pm(true)], -1), false);
  assert.equal(foldPlanMode([pm(true), pm(false)], undefined, { firstWins: true }), true);
});

test('the config is exactly {section: non-blank text}', () => {
  assert.deepEqual(readConfig({ section: 'Plan first.' }), { section: 'Plan first.' });
  for (const bad of [null, [], 'x', {}, { section: '' }, { section: '  ' }, { section: 3 }, { section: 'a', extra: 1 }]) {
    assert.throws(() => readConfig(bad), ConfigError, JSON.stringify(bad));
  }
});

test('a command line keeps its argument as typed', () => {
  assert.deepEqual(parseCommandLine('/plan'), { name: 'plan', args: '' });
  assert.deepEqual(parseCommandLine('/plan off'), { name: 'plan', args: 'off' });
  assert.deepEqual(parseCommandLine('/plan  off '), { name: 'plan', args: ' off ' });
  assert.deepEqual(parseCommandLine('/plan think\nfirst'), { name: 'plan', args: 'think\nfirst' });
  assert.equal(parseCommandLine('plan'), null);
});

test('a plan opens with a level-1 heading', () => {
  assert.ok(opensWithHeading('# Plan\n1. edit'));
  assert.ok(opensWithHeading('\n\n  # Plan'));
  for (const bad of ['## Plan', '#Plan', 'Intro\n# Plan', '', '   ', '#', '# ']) assert.ok(!opensWithHeading(bad), JSON.stringify(bad));
  assert.ok(opensWithHeading('Intro\n# Plan', { anywhere: true }));
});

test('a header shows the state its sections show', () => {
  const header = (names, tools = ['exit_plan_mode']) => ({
    type: 'request/header',
    data: { header: { system: names.map((name) => ({ name, order: 0, text: 'x' })), tools: tools.map((name) => ({ name })) } },
  });
  assert.equal(stateShownByLastHeader([]), null);
  assert.equal(stateShownByLastHeader([header(['plan:policy'])]), true);
  assert.equal(stateShownByLastHeader([header(['plan:policy']), header([])]), false);
  // logged while plan mode was unloaded (no section, no exit tool), with the log folding to active
  assert.equal(stateShownByLastHeader([pm(true), header([], [])]), false);
  assert.equal(stateShownByLastHeader([pm(true), header([], [])], { unloadedShowsFold: true }), true);
});
