// The host application: it composes the agent loop with its services, its
// own sections and tool, the host's tools and pre-step listeners, and plan
// mode; it loads, reloads and unloads plan mode and runs typed commands.
//
// What happens "outside" during a turn (the model's answers, the host's
// listeners and tools, the user's answers to a plan review) is played by a
// Script (script.mjs) that the host holds while a request runs.

import { AgentLoop } from './loop.mjs';
import { ConfigError, PlanMode } from './planmode.mjs';
import { CommandRegistry, PreStepChain, PromptSections, ToolRegistry, parseCommandLine } from './services.mjs';
import { SessionStore, StoreRefusal } from './store.mjs';
import { Journal } from './journal.mjs';

const OWN_SECTIONS = [
  {
    name: 'node:persona',
    order: 10,
    text: 'You are a careful software engineer working in the user\'s checkout. Read before you write.',
  },
  {
    name: 'node:etiquette',
    order: 80,
    text: 'Keep replies short. Name files by their path. Say what you did not do.',
  },
];

// The runtime's own tool: a scratch note the model keeps for itself.
const JOT_DOWN = {
  name: 'jot_down',
  description: 'Write a short note to yourself; it is returned to you unchanged.',
  execute: (args) => ({ noted: typeof args?.note === 'string' ? args.note : '' }),
};

export class HostApp {
  constructor({ mistakes, laidAside, planArg, journalDir, stem }) {
    this.mistakes = mistakes;
    this.laidAside = laidAside;
    this.planArg = planArg;
    this.journal = journalDir ? new Journal(journalDir, stem) : null;
    this.script = null; // the Script of the request being served
    this.planMode = null;
    this.loaded = false;
  }

  // Builds the runtime and loads plan mode with the given config.
  compose({ config, services, hostTools = [], listeners = [] }) {
    this.config = config;
    this.store = new SessionStore({ journal: this.journal, faultsSpareOutsiders: this.laidAside.has('fault-scope') });
    this.chain = new PreStepChain();
    this.tools = new ToolRegistry();
    this.sections = new PromptSections();
    this.commands = services.commands ? new CommandRegistry() : null;
    this.seam = services.userQuestions ? { ask: (request) => this.#ask(request) } : null;
    this.loop = new AgentLoop({
      store: this.store,
      chain: this.chain,
      tools: this.tools,
      sections: this.sections,
      staleCatalog: this.mistakes.has('stale-catalog-after-reload'),
      retryThroughPreStep: !this.mistakes.has('retry-not-dispatched'),
    });
    for (const s of OWN_SECTIONS) {
      if (s.order > 50 && this.laidAside.has('own-section')) continue;
      this.sections.add({ name: s.name, order: s.order, text: () => s.text });
    }
    if (!this.laidAside.has('own-tool')) this.tools.register(JOT_DOWN);
    for (const t of hostTools.filter((t) => !t.assembly)) this.tools.register(this.#hostTool(t.name));
    for (const l of listeners.filter((l) => l.position === 'before')) this.chain.use(l.name, this.#hostListener(l.name));
    let error;
    try {
      this.planMode = this.#newPlanMode(new Map());
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      error = err.message;
    }
    for (const l of listeners.filter((l) => l.position === 'after')) this.chain.use(l.name, this.#hostListener(l.name));
    const late = hostTools.filter((t) => t.assembly).map((t) => this.#hostTool(t.name));
    if (late.length > 0) this.tools.assembler((tools) => [...tools, ...late]);
    return error === undefined ? {} : { error };
  }

  #newPlanMode(selections) {
    const host = {
      store: this.store,
      chain: this.chain,
      tools: this.tools,
      sections: this.sections,
      commands: this.commands,
      loop: this.loop,
      questions: () => this.seam,
      inbox: (name) => (this.store.has(name) ? this.loop.agent(name).inbox : null),
    };
    return new PlanMode(host, this.config, {
      mistakes: this.mistakes,
      laidAside: this.laidAside,
      planArg: this.planArg,
      selections,
    }).attach();
  }

  // Disposes plan mode and loads it again; the selections waiting in the
  // old instance are handed to the new one (reload-pending=keep).
  reload() {
    const carried = this.planMode ? this.planMode.selections : new Map();
    this.planMode?.dispose();
    this.planMode = this.#newPlanMode(carried);
  }

  unload() {
    this.planMode?.dispose({ withdrawNotices: !this.laidAside.has('unload-withdraws-notice') });
    this.planMode = null;
  }

  open(name, events) {
    return this.loop.open(name, events);
  }

  agent(name) {
    return this.loop.agent(name);
  }

  // --- plan mode's service, as the host reaches it --------------------------

  select(name, active) {
    if (!this.planMode) return { error: 'plan mode is not loaded' };
    try {
      return { outcome: this.planMode.set(name, active) };
    } catch (err) {
      return { error: String(err?.message ?? err) };
    }
  }

  inspect(name) {
    if (!this.planMode) return null;
    return this.planMode.get(name);
  }

  outsideAppend(name, type, data) {
    try {
      this.store.append(name, type, data, { outside: true });
    } catch (err) {
      if (!(err instanceof StoreRefusal)) throw err;
    }
  }

  armFaults(name, count) {
    this.store.armFaults(name, count);
  }

  // --- commands -------------------------------------------------------------

  async command(name, input) {
    if (!this.commands) return { kind: 'error', text: 'This session has no commands.' };
    const agent = this.loop.agent(name);
    const parsed = parseCommandLine(input);
    const commandId = `cmd-${agent.events.length}`;
    agent.append('command/run', { commandId, name: parsed?.name ?? '', args: parsed?.args ?? input, source: { kind: 'user' } });
    const command = parsed ? this.commands.find(parsed.name) : null;
    let reply;
    if (!command) {
      reply = { kind: 'error', text: parsed ? `There is no /${parsed.name} command.` : 'Commands start with "/".' };
    } else {
      try {
        reply = await command.run({ agent: name, args: parsed.args });
      } catch (err) {
        reply = { kind: 'error', text: String(err?.message ?? err), exception: true };
      }
    }
    const done = { commandId, kind: reply.kind, text: reply.text };
    if (reply.outcome) done.outcome = reply.outcome;
    agent.append('command/done', done);
    return reply;
  }

  // --- turns ----------------------------------------------------------------

  async prompt(name, text, script) {
    const agent = this.loop.agent(name);
    agent.inbox.admit({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' }, via: 'prompt' });
    await this.#run(agent, 'prompt', script);
  }

  // A steered message wakes an idle agent: it runs a turn for it.
  async wake(name, script) {
    const agent = this.loop.agent(name);
    if (agent.status === 'idle' && agent.inbox.wantsStep()) await this.#run(agent, 'steer', script);
  }

  async #run(agent, trigger, script) {
    const outer = this.script;
    this.script = script;
    try {
      await this.loop.runTurn(agent, trigger, script);
    } finally {
      this.script = outer;
    }
  }

  // --- the host's own code --------------------------------------------------

  #hostTool(name) {
    return {
      name,
      description: `The host's ${name} tool.`,
      execute: async (_args, { callId }) => {
        await this.script?.whileToolRuns(callId);
        return 'ok';
      },
    };
  }

  #hostListener(name) {
    return async (ctx, next) => {
      const plan = this.script?.preStep(ctx.dispatch, name);
      if (!plan) return next();
      await this.script.act(plan.during ?? [], ctx.agent.name);
      switch (plan.behaviour) {
        case 'reject':
          return { kind: 'reject' };
        case 'abort':
          ctx.abort(`${name} cancelled the step`);
          return next();
        case 'drop': {
          const decision = await next();
          return decision?.kind === 'accept' ? { kind: 'accept', messages: [] } : decision;
        }
        default:
          return next();
      }
    };
  }

  #ask(request) {
    if (!this.script) throw new Error('nobody is there to answer');
    return this.script.review(request);
  }
}
