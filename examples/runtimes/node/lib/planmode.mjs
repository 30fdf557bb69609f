// Plan mode, as a plugin of the agent loop.
//
// The state in force is the fold of the agent's log (the last plan/mode
// with a boolean `active`). The plugin holds only what SPEC.md calls
// process-local: the selections waiting for the next accepted in-turn
// pre-step. It contributes:
//   - the service: get(agent) and set(agent, active);
//   - an agent/pre-step listener, prepended, which lets the rest of the
//     chain decide first and, on an accepted step, appends the waiting
//     selection and puts its notice first among the step's messages;
//   - the `plan:policy` system-prompt section (order 50), rendered from the
//     log while plan mode is on;
//   - the `exit_plan_mode` tool, registered whatever the state;
//   - the `/plan` command, when the loop has a command service.

import { PLAN_MODE_EVENT, StoreRefusal } from './store.mjs';
import { openTurn } from './loop.mjs';
import { ToolFailure } from './services.mjs';

export const SECTION_NAME = 'plan:policy';
export const SECTION_ORDER = 50;
export const EXIT_TOOL = 'exit_plan_mode';
export const PLUGIN_ID = 'plan-mode';

// What this implementation reads where SPEC.md is silent (declared to the
// kit as `choices`).
export const READINGS = Object.freeze({
  // Where this runtime reads otherwise than plankit's defaults:
  'reload-pending': 'keep', // a reload in place hands waiting selections to the new instance
  'idle-append-failure': 'pending', // an idle set whose append fails waits for the next accepted pre-step
  'idle-revert-notice': 'keep', // an idle change's notice, once queued, is not taken back
  'plan-mode-malformed': 'keep', // a plan/mode without a boolean active changes nothing
  // Where it reads as the defaults do (declared, so the checks of them run):
  'fold-end': 'clamp',
  'cancel-pending': 'clear',
  'section-source': 'log',
  'plan-heading': 'level-1',
  'empty-step': 'keep-pending',
  'plan-mode-data': 'fold-active',
});

export class ConfigError extends Error {}

export function readConfig(raw) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError('plan mode needs its settings as an object: {"section": "<policy text>"}');
  }
  const stray = Object.keys(raw).filter((k) => k !== 'section');
  if (stray.length > 0) throw new ConfigError(`plan mode does not know the setting(s) ${stray.join(', ')}; only "section" is read`);
  if (!Object.hasOwn(raw, 'section')) throw new ConfigError('plan mode needs "section", the policy text shown while planning');
  if (typeof raw.section !== 'string') throw new ConfigError('plan mode\'s "section" must be text');
  if (raw.section.trim() === '') throw new ConfigError('plan mode\'s "section" is blank');
  return { section: raw.section };
}

// LOG-2: the active of the last plan/mode among events[0:end).
export function foldPlanMode(events, end = events.length, { firstWins = false } = {}) {
  const stop = Math.max(0, Math.min(end, events.length));
  let active = false;
  for (let i = 0; i < stop; i += 1) {
    const e = events[i];
    if (e.type !== PLAN_MODE_EVENT || !e.data || typeof e.data.active !== 'boolean') continue;
    active = e.data.active;
    if (firstWins) break;
  }
  return active;
}

// Which state the last logged request header showed the model: on when it
// carried the plan:policy section, off when it did not (also when plan mode
// was not loaded then: that request had no plan guidance), null when no
// request has been logged yet.
export function stateShownByLastHeader(events, { unloadedShowsFold = false } = {}) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    if (events[i].type !== 'request/header') continue;
    const header = events[i].data?.header;
    const shown = Array.isArray(header?.system) && header.system.some((s) => s?.name === SECTION_NAME);
    const loaded = shown || (Array.isArray(header?.tools) && header.tools.some((t) => t?.name === EXIT_TOOL));
    if (!loaded && unloadedShowsFold) return foldPlanMode(events, i);
    return shown;
  }
  return null;
}

// EXIT-3 (plan-heading=level-1): the plan, leading blank lines aside,
// opens with a level-1 ATX heading that has text.
export function opensWithHeading(plan, { anywhere = false } = {}) {
  const lines = plan.trim().split('\n');
  const isHeading = (line) => /^#[ \t]+\S/.test(line);
  return anywhere ? lines.some(isHeading) : isHeading(lines[0]);
}

const WORDS = {
  notice: {
    true: {
      text: '[planning mode on] The user switched planning mode on. Investigate and propose a plan; do not change files yet.',
      summary: 'Planning mode switched on by the user',
    },
    false: {
      text: '[planning mode off] The user switched planning mode off. You may carry out changes again.',
      summary: 'Planning mode switched off by the user',
    },
  },
  reply: {
    true: {
      committed: 'Planning mode is on. Type /plan off to leave it.',
      queued: 'Planning mode will be on from the next step.',
      cancelled: 'Staying in planning mode: the pending switch is withdrawn.',
      noop: 'Planning mode was already on.',
    },
    false: {
      committed: 'Planning mode is off.',
      queued: 'Planning mode will be off from the next step.',
      cancelled: 'Staying out of planning mode: the pending switch is withdrawn.',
      noop: 'Planning mode was already off.',
    },
  },
  steered: ' Your message goes to the model with it.',
  review: {
    id: 'plan-approval',
    title: 'Plan for review',
    prompt: 'Leave planning mode and carry out this plan?',
    go: 'go-ahead',
    revise: 'revise',
  },
  tool: {
    outside: 'exit_plan_mode only works while planning mode is on; nothing was submitted.',
    noPlan: 'Submit the plan as markdown whose first line is a level-1 heading ("# Title") followed by the steps.',
    noChannel: 'Nobody can review a plan in this session (no question channel), so planning mode stays on.',
    seam: (why) => `The plan review could not take place (${why}); planning mode stays on.`,
    reloaded: 'Plan mode was restarted while the plan was under review; planning mode stays on. Present the plan again.',
    dismissed: 'The user closed the review without an answer. Stop here and wait for the user; planning mode stays on.',
    revise: (feedback) =>
      feedback === undefined
        ? 'The user wants more planning before any change. Revise the plan and present it again.'
        : `The user wants more planning before any change. Their feedback: ${feedback}`,
  },
};

// The published package's notices (NOTES.md), for --lay-aside notice-words.
const PACKAGE_NOTICE = {
  true: { text: 'The user switched this session to plan mode.', summary: 'The user switched this session to plan mode.' },
  false: {
    text: 'The user switched this session back to the default mode.',
    summary: 'The user switched this session back to the default mode.',
  },
};

export class PlanMode {
  #undo = [];
  #mirror = new Map();

  // host: {store, chain, tools, sections, commands, questions(), inbox(agent), loop}
  // selections: the map of waiting selections (a reload that keeps them
  // passes the old instance's map).
  constructor(host, config, { mistakes = new Set(), laidAside = new Set(), planArg = 'untrimmed', selections = new Map() } = {}) {
    this.host = host;
    this.config = readConfig(config);
    this.mistakes = mistakes;
    this.laidAside = laidAside;
    this.planArg = planArg;
    this.selections = selections;
    this.disposed = false;
  }

  attach() {
    const { chain, tools, sections, commands, loop } = this.host;
    const prepend = !this.mistakes.has('listener-appended');
    this.#undo.push(chain.use(PLUGIN_ID, (ctx, next) => this.#preStep(ctx, next), { prepend }));
    this.#undo.push(
      sections.add({ name: SECTION_NAME, order: SECTION_ORDER, text: ({ agent }) => (this.stateOf(agent.name) ? this.config.section : '') }),
    );
    this.#undo.push(
      tools.register({
        name: EXIT_TOOL,
        description: 'Present your finished plan to the user for approval and leave planning mode.',
        execute: (args, ctx) => this.#exit(args, ctx),
      }),
    );
    if (commands) {
      this.#undo.push(commands.register({ name: 'plan', summary: '/plan [off|message]', run: (input) => this.#command(input) }));
    }
    this.#undo.push(loop.onTurnEnd((agent) => this.#turnEnded(agent)));
    return this;
  }

  // Unregisters everything. An unload also withdraws the notices this
  // instance queued and nobody has read yet: without plan mode, nothing of
  // it reaches the model.
  dispose({ withdrawNotices = false } = {}) {
    for (const undo of this.#undo.reverse()) undo();
    this.#undo = [];
    this.disposed = true;
    if (withdrawNotices) for (const name of this.host.store.agents()) this.host.inbox(name)?.retract(PLUGIN_ID);
  }

  // --- the state ---------------------------------------------------------

  stateOf(agentName) {
    if (this.mistakes.has('live-mirror')) return this.#mirror.get(agentName) ?? false;
    return foldPlanMode(this.host.store.events(agentName), undefined, { firstWins: this.mistakes.has('fold-first') });
  }

  #write(agentName, active) {
    this.host.store.append(agentName, PLAN_MODE_EVENT, { active });
    this.#mirror.set(agentName, active);
  }

  // --- the service -------------------------------------------------------

  get(agentName) {
    const result = { active: this.stateOf(agentName) };
    const waiting = this.selections.get(agentName);
    if (waiting) result.pending = waiting.active;
    return result;
  }

  set(agentName, active) {
    if (typeof active !== 'boolean') throw new TypeError('set(agent, active) takes a boolean');
    const logged = this.stateOf(agentName);
    const waiting = this.selections.get(agentName);
    if (waiting && waiting.active === active) return 'noop';
    if (active === logged) {
      if (!waiting) return 'noop';
      if (!this.mistakes.has('cancel-keeps-entry') || !this.#turnOpen(agentName)) this.selections.delete(agentName);
      return 'cancelled';
    }
    if (this.#turnOpen(agentName)) {
      this.selections.set(agentName, { active, by: 'user' });
      return 'queued';
    }
    try {
      this.#write(agentName, active);
    } catch (err) {
      if (!(err instanceof StoreRefusal)) throw err;
      this.selections.set(agentName, { active, by: 'user' });
      return 'queued';
    }
    this.selections.delete(agentName);
    if (this.#owesNotice(agentName, active)) this.host.inbox(agentName).inject(this.#notice(active), PLUGIN_ID);
    return 'committed';
  }

  #turnOpen(agentName) {
    return openTurn(this.host.store.events(agentName)) !== null;
  }

  #owesNotice(agentName, active) {
    const shown = stateShownByLastHeader(this.host.store.events(agentName), {
      unloadedShowsFold: this.laidAside.has('unloaded-header'),
    });
    return shown !== null && shown !== active;
  }

  #notice(active) {
    const w = this.laidAside.has('notice-words') ? PACKAGE_NOTICE[active] : WORDS.notice[active];
    return {
      role: 'user',
      content: [{ type: 'text', text: w.text }],
      source: { kind: 'plugin', plugin: PLUGIN_ID, form: 'notice', summary: w.summary },
    };
  }

  // --- agent/pre-step ----------------------------------------------------

  async #preStep(ctx, next) {
    const decision = await next();
    const name = ctx.agent.name;
    if (decision?.kind !== 'accept' || ctx.signal.aborted) {
      if (this.mistakes.has('rejected-step-drops-selection')) this.selections.delete(name);
      return decision;
    }
    const messages = decision.messages ?? [];
    if (ctx.skipsEmpty && messages.length === 0) return decision; // the step will not run (empty-step=keep-pending)
    const waiting = this.selections.get(name);
    if (!waiting) return decision;
    if (waiting.late) {
      waiting.late = false;
      return decision;
    }
    if (waiting.active === this.stateOf(name)) {
      this.selections.delete(name);
      return decision;
    }
    try {
      this.#write(name, waiting.active);
    } catch (err) {
      if (!(err instanceof StoreRefusal)) throw err;
      if (this.mistakes.has('failed-append-drops-selection')) this.selections.delete(name);
      return decision;
    }
    this.selections.delete(name);
    if (waiting.by !== 'user' || !this.#owesNotice(name, waiting.active)) return decision;
    const notice = this.#notice(waiting.active);
    if (this.mistakes.has('notice-next-request')) {
      this.host.inbox(name).inject(notice, PLUGIN_ID);
      return decision;
    }
    return { ...decision, messages: [notice, ...messages] };
  }

  #turnEnded(agent) {
    if (this.mistakes.has('pending-dropped-at-turn-end')) this.selections.delete(agent.name);
  }

  // --- exit_plan_mode ----------------------------------------------------

  async #exit(args, { agent, callId, signal }) {
    const name = agent.name;
    if (!this.stateOf(name)) throw new ToolFailure(WORDS.tool.outside);
    const plan = args !== null && typeof args === 'object' && !Array.isArray(args) ? args.plan : undefined;
    if (typeof plan !== 'string' || !opensWithHeading(plan, { anywhere: this.mistakes.has('heading-after-text') })) {
      throw new ToolFailure(WORDS.tool.noPlan);
    }
    const seam = this.host.questions();
    if (!seam) throw new ToolFailure(WORDS.tool.noChannel);
    const r = WORDS.review;
    const question = {
      id: r.id,
      title: r.title,
      prompt: r.prompt,
      body: plan,
      choices: [
        { id: r.go, label: 'Go ahead' },
        { id: r.revise, label: 'Keep planning' },
      ],
    };
    let reply;
    try {
      reply = await seam.ask({ agent: name, callId, signal, questions: [question] });
    } catch (err) {
      throw new ToolFailure(WORDS.tool.seam(err?.message ?? String(err)));
    }
    if (this.disposed) throw new ToolFailure(WORDS.tool.reloaded);
    if (reply.dismissed) throw new ToolFailure(WORDS.tool.dismissed);
    const mine = (reply.answers ?? []).filter((a) => a.question === r.id);
    const only = mine.length === 1 ? mine[0] : null;
    const approved = only !== null && only.picked.length === 1 && only.picked[0] === r.go && only.note === undefined;
    if (approved) {
      this.selections.set(name, { active: false, by: 'approval', late: this.mistakes.has('approval-one-step-late') });
      return { approved: true };
    }
    if (this.selections.get(name)?.by === 'approval') this.selections.delete(name);
    throw new ToolFailure(WORDS.tool.revise(only?.note));
  }

  // --- /plan -------------------------------------------------------------

  #command({ agent, args }) {
    const arg = this.planArg === 'trimmed' ? args.trim() : args;
    const off = this.mistakes.has('uppercase-off') ? arg.toLowerCase() === 'off' : arg === 'off';
    const active = !off;
    const outcome = this.set(agent, active);
    let text = WORDS.reply[active][outcome];
    if (!off && arg !== '') {
      this.host.inbox(agent).steer({ role: 'user', content: [{ type: 'text', text: arg }], source: { kind: 'user' } });
      text += WORDS.steered;
    }
    const announced = this.mistakes.has('wrong-reply-outcome') ? 'committed' : outcome;
    if (announced !== outcome) text = WORDS.reply[active][announced];
    return { kind: 'success', text, outcome: announced };
  }
}
