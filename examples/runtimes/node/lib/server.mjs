// The runtime protocol (docs/runtime-protocol.md): one method per request,
// each answered with a result, an error (the request could not be handled)
// or unsupported. Observations: every reply about an agent carries the
// events its log gained since the last reply about it, the requests the
// loop sent and the results of the script's host actions and tool calls.

import { HostApp } from './host.mjs';
import { READINGS } from './planmode.mjs';
import { Script } from './script.mjs';

export const IDENTITY = Object.freeze({
  name: 'plankit-example-node-runtime',
  version: '0.1.0',
  language: 'javascript',
});

const CAPABILITIES = Object.freeze({
  retry: 'pre-step',
  commands: true,
  userQuestions: true,
  hostTools: true,
  hostListeners: true,
  duringStream: true,
  outsideAppend: true,
  failAppend: true,
  resume: true,
  reload: true,
  reuse: true,
  reviewReplies: true,
  emptySteps: true,
  unload: true,
  commandOutcomes: true,
  assemblyTools: true,
});

export class ProtocolError extends Error {}

export class RuntimeServer {
  #instances = 0;

  constructor({ mistakes, laidAside = new Set(), planArg, journalDir }) {
    this.mistakes = mistakes;
    this.laidAside = laidAside;
    this.planArg = planArg;
    this.journalDir = journalDir;
    this.app = null;
    this.reported = new Map();
    this.stopped = false;
  }

  async handle(method, params) {
    if (method === 'start') return this.#start(params);
    if (method === 'stop') {
      this.stopped = true;
      return {};
    }
    if (!this.app) throw new ProtocolError(`${method} before start`);
    const app = this.app;
    switch (method) {
      case 'load':
        return app.compose(params);
      case 'open':
        app.open(params.agent, params.events ?? []);
        this.reported.set(params.agent, (params.events ?? []).length);
        return this.#observe(params.agent, null);
      case 'turn': {
        const script = new Script(app, params.agent, params.script);
        await app.prompt(params.agent, params.prompt, script);
        return this.#observe(params.agent, script);
      }
      case 'set': {
        app.agent(params.agent);
        return { ...app.select(params.agent, params.active), ...this.#observe(params.agent, null) };
      }
      case 'get': {
        app.agent(params.agent);
        const state = app.inspect(params.agent);
        if (!state) throw new ProtocolError('get while plan mode is not loaded');
        return state;
      }
      case 'command': {
        const script = new Script(app, params.agent, params.script);
        const steered = app.agent(params.agent).inbox.steered;
        const reply = await app.command(params.agent, params.input);
        // A message this command steered wakes the agent; the command
        // itself (a selection) starts nothing (PEND-2).
        if (app.agent(params.agent).inbox.steered > steered) await app.wake(params.agent, script);
        return { ...reply, ...this.#observe(params.agent, script) };
      }
      case 'append':
        app.agent(params.agent);
        app.outsideAppend(params.agent, params.type, params.data);
        return this.#observe(params.agent, null);
      case 'fault':
        app.agent(params.agent);
        app.armFaults(params.agent, params.count);
        return {};
      case 'reload':
        app.reload();
        return {};
      case 'unload':
        app.unload();
        return {};
      default:
        throw new ProtocolError(`unknown method ${method}`);
    }
  }

  // start (again) makes a new runtime: nothing of the previous one is kept.
  #start(params) {
    if (params?.level !== 'runtime') {
      throw new ProtocolError('this is a whole runtime (agent loop and plan mode): run it with --level runtime');
    }
    this.#instances += 1;
    this.app = new HostApp({
      mistakes: this.mistakes,
      laidAside: this.laidAside,
      planArg: this.planArg,
      journalDir: this.journalDir,
      stem: `${process.pid}-${this.#instances}`,
    });
    this.reported = new Map();
    return {
      protocol: 1,
      level: 'runtime',
      minor: 5,
      ...IDENTITY,
      choices: { ...READINGS },
      components: [
        { name: 'node-agent-loop', version: IDENTITY.version },
        { name: 'node-plan-mode', version: IDENTITY.version },
      ],
      capabilities: { ...CAPABILITIES },
    };
  }

  #observe(agentName, script) {
    const out = {};
    const events = this.app.agent(agentName).events;
    const from = this.reported.get(agentName) ?? 0;
    if (events.length > from) out.events = events.slice(from).map((e) => ({ seq: e.seq, type: e.type, data: e.data }));
    this.reported.set(agentName, events.length);
    if (script?.requests.length) out.requests = script.requests;
    if (script?.results.length) out.results = script.results;
    return out;
  }
}
