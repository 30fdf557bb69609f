#!/usr/bin/env node
// A whole agent runtime (its own loop, with plan mode as a plugin of it),
// served over plankit's runtime protocol on stdin/stdout: one JSON request
// per line in, one JSON reply per line out. Node 20, built-in modules only.
//
//   node examples/runtimes/node/runtime.mjs [--mistake NAME]... [--plan-arg untrimmed|trimmed] [--session-dir DIR]
//
// --mistake NAME     start with a seeded mistake (lib/mistakes.mjs lists them)
// --plan-arg         how /plan reads its argument: untrimmed (default: the
//                    text after "/plan " exactly as typed) or trimmed
// --session-dir DIR  also write every agent's session log there as JSONL
//                    (one file per agent and runtime instance)
// --lay-aside NAME   for investigation only: behave as plankit's built-in
//                    runtime at one free point (lib/freedoms.mjs), so that a
//                    search can get past a difference plankit trips on

import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { MISTAKES, readMistakes } from './lib/mistakes.mjs';
import { FREEDOMS, readFreedoms } from './lib/freedoms.mjs';
import { ProtocolError, RuntimeServer } from './lib/server.mjs';

function options() {
  const { values } = parseArgs({
    options: {
      mistake: { type: 'string', multiple: true, default: [] },
      'plan-arg': { type: 'string', default: 'untrimmed' },
      'session-dir': { type: 'string' },
      'lay-aside': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`usage: runtime.mjs [--mistake NAME]... [--plan-arg untrimmed|trimmed] [--session-dir DIR] [--lay-aside NAME]...\nmistakes:\n`);
    for (const [name, [clause, what]] of Object.entries(MISTAKES)) process.stdout.write(`  ${name} (${clause}): ${what}\n`);
    process.stdout.write('free points that --lay-aside can set back:\n');
    for (const [name, what] of Object.entries(FREEDOMS)) process.stdout.write(`  ${name}: ${what}\n`);
    process.exit(0);
  }
  if (!['untrimmed', 'trimmed'].includes(values['plan-arg'])) throw new Error(`--plan-arg must be untrimmed or trimmed, not ${values['plan-arg']}`);
  return {
    mistakes: readMistakes(values.mistake),
    laidAside: readFreedoms(values['lay-aside']),
    planArg: values['plan-arg'],
    journalDir: values['session-dir'] ?? null,
  };
}

function reply(message) {
  return new Promise((resolve) => process.stdout.write(JSON.stringify(message) + '\n', resolve));
}

async function main() {
  let server;
  try {
    server = new RuntimeServer(options());
  } catch (err) {
    process.stderr.write(`runtime.mjs: ${err.message}\n`);
    process.exit(2);
  }
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (err) {
      process.stderr.write(`runtime.mjs: unreadable request line: ${err.message}\n`);
      continue;
    }
    const seq = request.seq;
    try {
      const result = await server.handle(request.method, request.params ?? {});
      await reply({ seq, result });
    } catch (err) {
      if (!(err instanceof ProtocolError)) process.stderr.write(`${err?.stack ?? err}\n`);
      await reply({ seq, error: { message: String(err?.message ?? err) } });
    }
    if (server.stopped) break;
  }
  process.exit(0);
}

main();
