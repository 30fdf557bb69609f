// The runtime over its protocol, as plankit drives it: one process per test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const RUNTIME = fileURLToPath(new URL('../runtime.mjs', import.meta.url));

function session(args = []) {
  const child = spawn(process.execPath, [RUNTIME, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let seq = 0;
  return {
    async call(method, params = {}) {
      seq += 1;
      child.stdin.write(JSON.stringify({ seq, method, params }) + '\n');
      const { value } = await lines.next();
      const reply = JSON.parse(value);
      assert.equal(reply.seq, seq);
      if (reply.error) throw new Error(reply.error.message);
      return reply.result;
    },
    async close() {
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

async function ready(args, services = { commands: true, userQuestions: true }, extra = {}) {
  const s = session(args);
  await s.call('start', { protocol: 1, level: 'runtime', minor: 5 });
  assert.deepEqual(await s.call('load', { config: { section: 'Plan first.' }, services, ...extra }), {});
  await s.call('open', { agent: 'main', events: [] });
  return s;
}

const types = (r) => (r.events ?? []).map((e) => (e.type === 'plan/mode' ? `plan/mode ${e.data.active}` : e.type));
const isNotice = (m) => m.source?.kind === 'plugin' && m.source?.plugin === 'plan-mode';

test('a plugin-level start is refused: this is a runtime', async () => {
  const s = session();
  await assert.rejects(s.call('start', { protocol: 1 }), /runtime/);
  await s.close();
});

test('a refused config is reported by load', async () => {
  const s = session();
  await s.call('start', { protocol: 1, level: 'runtime' });
  const r = await s.call('load', { config: { section: 'x', extra: true }, services: { commands: true, userQuestions: true } });
  assert.match(r.error, /extra/);
  await s.close();
});

test('an approved exit is appended silently at the next step', async () => {
  const s = await ready();
  assert.equal((await s.call('set', { agent: 'main', active: true })).outcome, 'committed');
  const r = await s.call('turn', {
    agent: 'main',
    prompt: 'Plan it.',
    script: { responses: [{ calls: [{ id: 'c1', name: 'exit_plan_mode', args: { plan: '# Plan\n1. go' }, review: { answer: 'approve' } }] }, { text: 'Going.' }] },
  });
  assert.deepEqual(types(r), [
    'turn/start', 'user/message', 'request/header', 'assistant/message', 'node/usage', 'tool/result',
    'plan/mode false', 'request/header', 'assistant/message', 'node/usage', 'turn/end',
  ]);
  assert.deepEqual(r.results, [{ id: 'c1', tool: { name: 'exit_plan_mode', ok: true, asked: true, value: { approved: true } } }]);
  assert.deepEqual(r.requests.map((q) => q.sections.some((x) => x.name === 'plan:policy')), [true, false]);
  assert.equal(r.requests[1].messages.filter(isNotice).length, 0);
  assert.deepEqual(await s.call('get', { agent: 'main' }), { active: false });
  await s.close();
});

test('a selection made while the model streams waits for the next step, whose notice comes first', async () => {
  const s = await ready([], undefined, { hostTools: [{ name: 'read_file' }] });
  await s.call('turn', { agent: 'main', prompt: 'Hello.', script: {} });
  const r = await s.call('turn', {
    agent: 'main',
    prompt: 'Read it.',
    script: {
      responses: [
        {
          during: [{ id: 's1', set: { active: true } }, { id: 's2', set: { active: true } }, { id: 'g1', get: {} }],
          calls: [{ id: 'r1', name: 'read_file', args: {}, during: [{ id: 's3', set: { active: false } }, { id: 's4', set: { active: true } }] }],
        },
        { text: 'Read.' },
      ],
    },
  });
  const outcomes = Object.fromEntries(r.results.map((x) => [x.id, x.set?.outcome ?? x.get ?? x.tool?.ok]));
  assert.deepEqual(outcomes, { s1: 'queued', s2: 'noop', g1: { active: false, pending: true }, s3: 'cancelled', s4: 'queued', r1: true });
  const second = r.requests[1];
  assert.ok(second.sections.some((x) => x.name === 'plan:policy'));
  assert.ok(isNotice(second.messages.at(-1)), 'the notice is the last message: the first of its step, which carries no other');
  const planAt = r.events.findIndex((e) => e.type === 'plan/mode');
  assert.equal(r.events[planAt + 1].type, 'user/message');
  assert.ok(isNotice(r.events[planAt + 1].data));
  await s.close();
});

test('an armed fault fails an outside writer\'s plan/mode too', async () => {
  const s = await ready();
  await s.call('fault', { agent: 'main', count: 1 });
  assert.deepEqual(await s.call('append', { agent: 'main', type: 'plan/mode', data: { active: true } }), {});
  const r = await s.call('append', { agent: 'main', type: 'plan/mode', data: { active: true } });
  assert.deepEqual(types(r), ['plan/mode true']);
  await s.close();
});

test('/plan reads its argument untrimmed unless told to trim', async () => {
  for (const [args, off] of [[[], false], [['--plan-arg', 'trimmed'], true]]) {
    const s = await ready(args);
    await s.call('set', { agent: 'main', active: true });
    const r = await s.call('command', { agent: 'main', input: '/plan  off ' });
    assert.equal(r.kind, 'success');
    assert.equal(r.outcome, off ? 'committed' : 'noop');
    assert.equal(types(r).includes('turn/start'), !off, 'a message wakes the agent; off does not');
    await s.close();
  }
});

test('a reset start forgets everything, pending selections included', async () => {
  const s = await ready();
  await s.call('turn', { agent: 'main', prompt: 'Hi.', script: { responses: [{ text: 'Hi.', during: [{ id: 's', set: { active: true } }] }] } });
  assert.deepEqual(await s.call('get', { agent: 'main' }), { active: false, pending: true });
  await s.call('start', { protocol: 1, level: 'runtime' });
  await s.call('load', { config: { section: 'Plan first.' }, services: { commands: true, userQuestions: true } });
  await s.call('open', { agent: 'main', events: [{ seq: 0, type: 'plan/mode', data: { active: true } }] });
  assert.deepEqual(await s.call('get', { agent: 'main' }), { active: true });
  await s.close();
});
