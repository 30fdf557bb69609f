#!/usr/bin/env node
// Serves planmode.mjs over plankit's adapter protocol (docs/adapter-protocol.md):
// one JSON request per line on stdin, one JSON reply per line on stdout.
//
// This file is the host side only: it keeps each agent's log as the kit
// sends it, hands the plugin agent handles whose every use is recorded as an
// effect, and turns the plugin's answers into replies.
//
//   node examples/adapters/node/plugin.mjs [--mistake NAME] [--plain]
//        [--trimmed|--untrimmed] [--notice-after] [--settled-pending]
//
// --mistake NAME seeds one of planmode.MISTAKES; --plain leaves out the
// fields of this plugin's own that the strict schemas do not know (for
// --validate-protocol runs). The other flags pick the other reading of a
// point SPEC.md leaves open (planmode.PlanMode's options): --trimmed reads
// the /plan argument without its surrounding whitespace (the default,
// --untrimmed, reads it as typed); --notice-after puts a pre-step's notice
// after the other listeners' messages; --settled-pending keeps reporting a
// selection another writer has already logged until the next step.

import readline from 'node:readline';
import * as pm from './planmode.mjs';

const PROTOCOL = 1;
const MINOR = 3;

class Refusal extends Error {}

const USAGE = 'plugin.mjs [--mistake NAME] [--plain] [--trimmed|--untrimmed] [--notice-after] [--settled-pending]';

function parseArgs(argv) {
  const opts = { mistake: '', plain: false, trimmed: false, noticeAfter: false, settledPending: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--plain') opts.plain = true;
    else if (a === '--trimmed') opts.trimmed = true;
    else if (a === '--untrimmed') opts.trimmed = false;
    else if (a === '--notice-after') opts.noticeAfter = true;
    else if (a === '--settled-pending') opts.settledPending = true;
    else if (a === '--mistake' && i + 1 < argv.length) opts.mistake = argv[++i];
    else if (a.startsWith('--mistake=')) opts.mistake = a.slice('--mistake='.length);
    else throw new Error(`unknown argument ${JSON.stringify(a)}; usage: ${USAGE}`);
  }
  if (opts.mistake !== '' && !pm.MISTAKES.includes(opts.mistake)) {
    throw new Error(`unknown mistake ${JSON.stringify(opts.mistake)}; known: ${pm.MISTAKES.join(', ')}`);
  }
  return opts;
}

// A scripted review as the user-questions seam would answer it, in the
// plugin's own labels.
function scriptedReply(review) {
  const label = (meaning) => (meaning === 'approve' ? pm.REVIEW.go : pm.REVIEW.notYet);
  if (review.answer === 'dismiss') return { dismissed: true };
  if (review.reply) {
    return {
      answers: (review.reply.answers || []).map((a) => ({
        question: a.question === undefined ? pm.REVIEW.id : a.question,
        picked: (a.selected || []).map(label),
        text: a.custom,
      })),
    };
  }
  if (review.answer === 'approve' || review.answer === 'keep-planning') {
    return { answers: [{ question: pm.REVIEW.id, picked: [label(review.answer)], text: review.feedback }] };
  }
  return { answers: review.feedback ? [{ question: pm.REVIEW.id, picked: [], text: review.feedback }] : [] };
}

const SEAM_FAILURES = {
  throws: 'the question window crashed',
  aborted: 'the step was aborted while the question was open',
  refused: 'questions cannot be asked on behalf of this agent',
  unavailable: 'no question provider is installed',
};

function dropEmpty(decision) {
  const out = { kind: decision.kind };
  if (decision.messages && decision.messages.length > 0) out.messages = decision.messages;
  return out;
}

class Host {
  constructor(opts) {
    this.opts = opts;
    this.reset();
  }

  reset() {
    pm.forgetEverything();
    this.plugin = null;
    this.settings = undefined;
    this.services = { commands: false, userQuestions: false };
    this.logs = new Map(); // agent -> { events: [...] }, one object per agent for its life
  }

  compose() {
    const o = this.opts;
    return new pm.PlanMode(this.settings, this.services, {
      mistake: o.mistake,
      trimmed: o.trimmed,
      noticeAfter: o.noticeAfter,
      settledPending: o.settledPending,
      extras: !o.plain,
    });
  }

  registered(plugin) {
    const r = plugin.registration();
    const out = { listener: r.listener, tools: r.tools.map((name) => ({ name })), sections: r.sections };
    if (r.commands.length > 0) out.commands = r.commands;
    return out;
  }

  loaded() {
    if (this.plugin === null) throw new Refusal('plan mode is not loaded');
    return this.plugin;
  }

  // enter applies an agent-scoped request's sync and returns the agent
  // handle the plugin acts through, recording what it does.
  enter(params) {
    const plugin = this.loaded();
    const name = params.agent;
    const log = this.logs.get(name);
    if (log === undefined) throw new Refusal(`unknown agent ${JSON.stringify(name)}`);
    for (const e of params.sync || []) {
      if (e.seq !== log.events.length) {
        throw new Refusal(`agent ${JSON.stringify(name)}: sync event has seq ${e.seq}, the log has ${log.events.length} events`);
      }
      log.events.push({ seq: e.seq, type: e.type, data: e.data });
    }
    const effects = [];
    let failing = params.failAppends || 0;
    const agent = {
      id: name,
      session: {
        events: log.events,
        append(type, data) {
          const effect = { kind: 'append', type, data };
          effects.push(effect);
          if (failing > 0) {
            failing--;
            effect.failed = true;
            throw new Error('the session store refused the write');
          }
          log.events.push({ seq: log.events.length, type, data });
        },
      },
      steer: (message) => effects.push({ kind: 'steer', message }),
      inject: (message) => effects.push({ kind: 'inject', message }),
    };
    return { plugin, agent, effects };
  }

  // --- methods ---

  start(params) {
    if (params.protocol !== PROTOCOL) throw new Refusal(`this plugin speaks adapter protocol ${PROTOCOL}, not ${params.protocol}`);
    this.reset();
    return {
      protocol: PROTOCOL,
      minor: MINOR,
      name: 'plankit-example-node',
      version: '0.1.0',
      language: 'javascript',
      choices: { ...pm.READINGS },
      capabilities: {
        commands: true,
        userQuestions: true,
        fork: true,
        reload: true,
        reuse: true,
        commandOutcomes: true,
        unload: true,
        reviewReplies: true,
        hostTools: true,
        emptySteps: true,
      },
    };
  }

  load(params) {
    if (this.plugin !== null) this.plugin.dispose();
    this.plugin = null;
    this.services = {
      commands: Boolean(params.services && params.services.commands),
      userQuestions: Boolean(params.services && params.services.userQuestions),
    };
    try {
      this.settings = pm.readSettings(params.config);
    } catch (e) {
      if (e instanceof pm.SettingsError) return { error: e.message };
      throw e;
    }
    this.plugin = this.compose();
    return this.registered(this.plugin);
  }

  open(params) {
    this.logs.set(params.agent, { events: (params.events || []).map((e) => ({ seq: e.seq, type: e.type, data: e.data })) });
    return {};
  }

  get(params) {
    const { plugin, agent } = this.enter(params);
    return plugin.get(agent);
  }

  set(params) {
    const { plugin, agent, effects } = this.enter(params);
    const outcome = plugin.set(agent, params.active);
    return { outcome, effects };
  }

  preStep(params) {
    const { plugin, agent, effects } = this.enter(params);
    const signal = { aborted: Boolean(params.abortedBefore) };
    const downstream = params.downstream || { kind: 'enter' };
    const next = () => {
      effects.push({ kind: 'downstream' });
      if (params.abortDuring) signal.aborted = true;
      return { kind: downstream.kind, messages: [...(downstream.messages || [])] };
    };
    const step = { turn: params.turn, step: params.step, retry: params.retry || 0, skipsEmpty: Boolean(params.skipsEmpty), signal };
    const decision = plugin.preStep(agent, step, next);
    return { decision: dropEmpty(decision), effects };
  }

  assemble(params) {
    const { plugin, agent } = this.enter(params);
    return { sections: plugin.sections(agent), tools: plugin.catalog(params.tools || []) };
  }

  exitTool(params) {
    const { plugin, agent, effects } = this.enter(params);
    const review = params.review || {};
    const ask = (question) => {
      effects.push({ kind: 'ask', question });
      if (review.reload) this.reload();
      if (review.fail) throw new Error(SEAM_FAILURES[review.fail] || review.fail);
      return scriptedReply(review);
    };
    const r = plugin.exitTool(agent, params.args, ask);
    const out = { ok: r.ok, effects };
    if (r.ok) out.result = r.result;
    else out.error = r.error;
    return out;
  }

  preTool(params) {
    const { plugin, agent, effects } = this.enter(params);
    const g = plugin.gate(agent, params.name, params.args);
    return g.allow ? { decision: 'allow', effects } : { decision: 'deny', reason: g.reason, effects };
  }

  command(params) {
    const { plugin, agent, effects } = this.enter(params);
    if (params.name !== pm.COMMAND || !plugin.registration().commands.includes(params.name)) {
      return { kind: 'error', text: `no command /${params.name} here`, effects };
    }
    try {
      return { ...plugin.command(agent, params.input), effects };
    } catch (e) {
      return { kind: 'error', text: String(e && e.message), exception: true, effects };
    }
  }

  fold(params) {
    return { active: pm.foldPlanMode(params.events || [], params.end) };
  }

  reload() {
    const old = this.loaded();
    old.dispose();
    this.plugin = this.compose();
    old.handOver(this.plugin);
    return this.registered(this.plugin);
  }

  unload() {
    const old = this.loaded();
    old.dispose();
    if (this.opts.mistake === 'unload-keeps-exit-tool') {
      // The seeded mistake: the tool's registration outlives the dispose
      // (and the plugin behind it); its section and listener go.
      old.linger();
      return { tools: [{ name: pm.EXIT_TOOL }] };
    }
    this.plugin = null;
    return {};
  }

  stop() {
    return {};
  }
}

const METHODS = ['start', 'load', 'open', 'get', 'set', 'preStep', 'assemble', 'exitTool', 'preTool', 'command', 'fold', 'reload', 'unload', 'stop'];

function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`plugin.mjs: ${e.message}\n`);
    process.exit(2);
  }
  const host = new Host(opts);
  const debug = Boolean(process.env.PLANMODE_NODE_DEBUG);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      process.stdout.write(JSON.stringify({ seq: 0, error: { message: `not JSON: ${e.message}` } }) + '\n');
      return;
    }
    if (debug) process.stderr.write(`> ${line}\n`);
    const reply = { seq: request.seq };
    const method = request.method;
    if (!METHODS.includes(method)) {
      reply.unsupported = { message: `method ${JSON.stringify(method)} is not implemented` };
    } else {
      try {
        reply.result = host[method](request.params || {});
      } catch (e) {
        reply.error = { message: e instanceof Refusal ? e.message : `${e && e.name}: ${e && e.message}` };
      }
    }
    const text = JSON.stringify(reply);
    if (debug) process.stderr.write(`< ${text}\n`);
    process.stdout.write(text + '\n');
    if (method === 'stop') {
      lines.close();
      process.exit(0);
    }
  });
  lines.on('close', () => process.exit(0));
}

main();
