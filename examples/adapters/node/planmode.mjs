// Plan mode as a runtime plugin, written from SPEC.md.
//
// This module knows nothing about plankit's protocol. It talks to its runtime
// through the handles the runtime gives it:
//
//   agent = { id, session: { events, append(type, data) }, steer(message), inject(message) }
//
// `session.events` is the agent's durable log (read only); `append` writes to
// it and throws when the host fails the write. `steer` queues a message for the
// running turn's next step and wakes the agent; `inject` queues one for the
// next step without waking it.
//
// The plugin keeps no copy of the plan state: every read folds the log
// (LOG-3). What it keeps is process-local: the selections waiting for the next
// accepted pre-step (PEND-1, PEND-8), and a per-log cursor so the fold is not
// recomputed from the start on every call.

export const PLUGIN = 'plan-mode';
export const EVENT = 'plan/mode';
export const SECTION = 'plan:policy';
export const SECTION_ORDER = 50;
export const EXIT_TOOL = 'exit_plan_mode';
export const COMMAND = 'plan';

// The readings of the points SPEC.md leaves open (docs/spec-choices.md),
// declared at start. Several differ from plankit's defaults on purpose.
export const READINGS = Object.freeze({
  'fold-end': 'slice', // foldPlanMode(events, end) reads end as events.slice(0, end)
  'cancel-pending': 'clear', // a cancelled selection leaves nothing pending
  'section-source': 'log', // plan:policy follows the logged state
  'reload-pending': 'drop', // a reload disposes the waiting selections
  'idle-append-failure': 'pending', // a failed idle append keeps the selection waiting
  'plan-heading': 'level-1', // "a # heading": a level-1 ATX heading
  'empty-step': 'keep-pending', // a step the runtime will skip is not an accepted step
  'plan-mode-data': 'fold-active', // extra fields beside a boolean active are ignored
  'plan-mode-malformed': 'truthy', // no boolean active: JavaScript truthiness of data.active
  'idle-revert-notice': 'keep', // an idle change's notice goes to the inbox and stays there
});

// The seeded mistakes, each breaking one clause (see README.md).
export const MISTAKES = Object.freeze([
  'rejected-step-drops-selection',
  'failed-append-drops-selection',
  'cancel-keeps-entry',
  'notice-to-inbox',
  'unload-keeps-exit-tool',
  'blocks-host-tools',
  'heading-after-text',
  'uppercase-off',
  'wrong-reply-outcome',
  'approval-one-step-late',
  'reload-keeps-pending',
  'restart-stale-state',
  'duplicate-pending-notice',
]);

// The plan review as this plugin asks it through the user-questions seam.
export const REVIEW = Object.freeze({
  id: 'ready-to-build',
  go: 'Build it',
  notYet: 'Not yet',
});

export class SettingsError extends Error {}

// readSettings validates the plugin config (CFG-1): exactly { section },
// a non-blank string. Anything else refuses the load.
export function readSettings(raw) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new SettingsError('plan mode wants its settings as an object such as {"section": "..."}');
  }
  const strangers = Object.keys(raw).filter((k) => k !== 'section').sort();
  if (strangers.length > 0) {
    throw new SettingsError(`plan mode does not know the setting(s) ${strangers.map((k) => JSON.stringify(k)).join(', ')}`);
  }
  if (!Object.prototype.hasOwnProperty.call(raw, 'section')) {
    throw new SettingsError('plan mode needs a "section" setting: the guidance shown while planning');
  }
  if (typeof raw.section !== 'string') {
    throw new SettingsError(`plan mode's "section" must be text, not ${raw.section === null ? 'null' : typeof raw.section}`);
  }
  if (raw.section.trim() === '') {
    throw new SettingsError('plan mode\'s "section" is blank');
  }
  return raw.section;
}

// activeOf reads one plan/mode event's data: a boolean active when there is
// one (whatever else the data holds), else the truthiness of data.active.
export function activeOf(data) {
  if (data !== null && typeof data === 'object' && typeof data.active === 'boolean') return data.active;
  if (data === null || typeof data !== 'object') return false;
  return Boolean(data.active);
}

// foldPlanMode(events, end) (LOG-2): the active of the last plan/mode among
// events.slice(0, end); false when there is none.
export function foldPlanMode(events, end) {
  const upto = end === undefined ? events : events.slice(0, end);
  for (let i = upto.length - 1; i >= 0; i--) {
    if (upto[i] && upto[i].type === EVENT) return activeOf(upto[i].data);
  }
  return false;
}

// headingFirst: after leading whitespace, the plan opens with a level-1
// heading, "#", at least one blank, then text (EXIT-3).
function headingFirst(plan) {
  const body = plan.replace(/^\s+/, '');
  if (!body.startsWith('#')) return false;
  const title = body.slice(1).split('\n', 1)[0];
  return /^[ \t]+\S/.test(title);
}

// headingAnywhere is the seeded mistake heading-after-text.
function headingAnywhere(plan) {
  return plan.split('\n').some((line) => headingFirst(line));
}

// What the process remembers of each agent's state, for the seeded mistake
// restart-stale-state only: it outlives a reload and the opening of a log,
// and is what a log opened again starts from instead of its fold (the
// default, inactive, when the process never saw the agent).
const recollection = new Map();

// forgetEverything empties what the process remembers: a new process.
export function forgetEverything() {
  recollection.clear();
}

class Cursor {
  constructor(agentId, events, stale) {
    this.agentId = agentId;
    this.events = events;
    this.read = 0;
    this.on = false;
    this.turnOpen = false;
    this.shown = undefined; // the state the last request/header was assembled with
    if (stale) {
      this.on = recollection.get(agentId) ?? false;
      this.read = events.length;
      for (const e of events) this.track(e, false);
    }
  }

  track(e, fold) {
    if (e.type === EVENT && fold) this.on = activeOf(e.data);
    else if (e.type === 'turn/start') this.turnOpen = true;
    else if (e.type === 'turn/end') this.turnOpen = false;
    else if (e.type === 'request/header') this.shown = this.on;
  }

  catchUp(stale) {
    for (; this.read < this.events.length; this.read++) this.track(this.events[this.read], true);
    if (stale) recollection.set(this.agentId, this.on);
    return this;
  }
}

// Options of the plugin, each a reading SPEC.md leaves open, with this
// plugin's default first:
//   trimmed         false: the /plan argument is read as typed, whitespace
//                   included; true: without its surrounding whitespace.
//   noticeAfter     false: a pre-step's notice comes before the messages the
//                   other listeners put in the decision; true: after them.
//   settledPending  false: a selection the log already holds (another writer
//                   logged it) is not waiting to be appended, so get does not
//                   report it; true: it is reported until the next accepted
//                   pre-step drops it.
//   extras          true: notices carry a source field of this plugin's own.
//   mistake         one of MISTAKES, or '' for none.
export class PlanMode {
  constructor(section, { userQuestions = false, commands = false } = {}, options = {}) {
    this.section = section;
    this.canAsk = userQuestions;
    this.hasCommand = commands;
    this.mistake = options.mistake || '';
    this.trimmed = Boolean(options.trimmed);
    this.noticeAfter = Boolean(options.noticeAfter);
    this.settledPending = Boolean(options.settledPending);
    this.extras = options.extras !== false;
    this.waiting = new Map(); // agent id -> { active, by: 'user' | 'review', echoes, late }
    this.echo = new Map(); // agent id -> a selection cancelled in this turn (duplicate-pending-notice)
    this.cursors = new WeakMap(); // log (events array) -> Cursor
    this.disposed = false;
  }

  // What the plugin registers with its runtime.
  registration() {
    return {
      listener: 'prepend',
      tools: [EXIT_TOOL],
      sections: [SECTION],
      commands: this.hasCommand ? [COMMAND] : [],
    };
  }

  dispose() {
    this.disposed = true;
  }

  // linger keeps only the exit tool of a disposed plugin working (the
  // seeded mistake unload-keeps-exit-tool): no section, no listener, nothing
  // waiting.
  linger() {
    this.lingering = true;
    this.disposed = false; // what is left of it does not know it was disposed
    this.waiting.clear();
  }

  // handOver gives the waiting selections to a reloaded instance (only under
  // the seeded mistake reload-keeps-pending; the declared reading drops them).
  handOver(next) {
    if (this.mistake === 'reload-keeps-pending') next.waiting = new Map(this.waiting);
  }

  // view is the tally of an agent's log, advanced to its end. It is kept per
  // log (the events array the runtime hands over for the agent's life).
  view(agent) {
    const stale = this.mistake === 'restart-stale-state';
    const events = agent.session.events;
    let c = this.cursors.get(events);
    if (c === undefined || c.read > events.length) {
      c = new Cursor(agent.id, events, stale);
      this.cursors.set(events, c);
    }
    return c.catchUp(stale);
  }

  // A selection equal to the logged state will never be appended (an outside
  // writer logged it first): it is not waiting any more (PEND-7), unless the
  // option settledPending keeps showing it.
  waitingFor(agent) {
    const w = this.waiting.get(agent.id);
    if (w && w.active === this.view(agent).on && !this.settledPending) {
      this.waiting.delete(agent.id);
      return undefined;
    }
    return w;
  }

  notice(active) {
    const text = active
      ? 'Heads-up from the user: planning mode is on. Read and investigate, but do not edit anything; when you are ready, lay out a plan with exit_plan_mode.'
      : 'Heads-up from the user: planning mode is off. You may make changes again.';
    const source = {
      kind: 'plugin',
      plugin: PLUGIN,
      form: 'notice',
      summary: active ? 'planning mode switched on' : 'planning mode switched off',
    };
    // A field of this plugin's own (the strict schemas refuse it: see --plain).
    if (this.extras) source.cause = 'user-selection';
    return { role: 'user', text, source };
  }

  // --- the service (SVC-1) ---

  get(agent) {
    const on = this.view(agent).on;
    const w = this.waitingFor(agent);
    return w === undefined ? { active: on } : { active: on, pending: w.active };
  }

  set(agent, active) {
    const v = this.view(agent);
    const w = this.waitingFor(agent);
    if (w !== undefined && w.active === active) return 'noop';
    if (w !== undefined && active === v.on) {
      if (this.mistake !== 'cancel-keeps-entry') this.waiting.delete(agent.id);
      if (v.turnOpen) this.echo.set(agent.id, w.active);
      return 'cancelled';
    }
    if (active === v.on) return 'noop';
    if (v.turnOpen) {
      const again = this.echo.get(agent.id) === active;
      this.waiting.set(agent.id, {
        active,
        by: 'user',
        echoes: again && this.mistake === 'duplicate-pending-notice' ? 2 : 1,
      });
      return 'queued';
    }
    const shown = v.shown;
    this.waiting.delete(agent.id); // a settled entry, under settledPending
    try {
      agent.session.append(EVENT, { active });
    } catch {
      // idle-append-failure=pending: the selection waits for the next
      // accepted in-turn pre-step, like any other.
      this.waiting.set(agent.id, { active, by: 'user', echoes: 1 });
      return 'queued';
    }
    if (shown !== undefined && shown !== active) agent.inject(this.notice(active));
    return 'committed';
  }

  // --- the agent/pre-step listener (STEP-1..7) ---

  preStep(agent, step, next) {
    const downstream = next();
    if (this.lingering) return downstream;
    const w = this.waitingFor(agent);
    this.echo.delete(agent.id);
    if (downstream.kind !== 'enter' || step.signal.aborted) {
      if (w !== undefined && this.mistake === 'rejected-step-drops-selection') this.waiting.delete(agent.id);
      return downstream;
    }
    const carried = downstream.messages || [];
    if (w === undefined) return downstream;
    if (step.skipsEmpty && carried.length === 0) return downstream; // empty-step=keep-pending
    if (w.late > 0) {
      w.late--;
      return downstream;
    }
    const v = this.view(agent);
    if (w.active === v.on) {
      this.waiting.delete(agent.id); // settled: nothing to append
      return downstream;
    }
    const shown = v.shown;
    try {
      agent.session.append(EVENT, { active: w.active });
    } catch {
      if (this.mistake === 'failed-append-drops-selection') this.waiting.delete(agent.id);
      return downstream;
    }
    this.waiting.delete(agent.id);
    if (w.by !== 'user' || shown === undefined || shown === w.active) return downstream;
    const told = Array.from({ length: w.echoes || 1 }, () => this.notice(w.active));
    if (this.mistake === 'notice-to-inbox') {
      for (const m of told) agent.inject(m);
      return downstream;
    }
    return { kind: 'enter', messages: this.noticeAfter ? [...carried, ...told] : [...told, ...carried] };
  }

  // --- the request's part (CFG-2, EXIT-1) ---

  sections(agent) {
    return this.view(agent).on && !this.lingering ? [{ name: SECTION, order: SECTION_ORDER, text: this.section }] : [];
  }

  catalog(hostTools) {
    return [...hostTools, { name: EXIT_TOOL }];
  }

  // --- the host's tools (SVC-3) ---

  gate(agent, name) {
    if (this.mistake === 'blocks-host-tools' && this.view(agent).on) {
      return { allow: false, reason: `${name} is not available while planning` };
    }
    return { allow: true };
  }

  // --- exit_plan_mode (EXIT-2..7) ---

  exitTool(agent, args, ask) {
    const refuse = (error) => ({ ok: false, error });
    if (!this.view(agent).on) return refuse('exit_plan_mode is only for leaving planning mode, and planning mode is not on.');
    const plan = args !== null && typeof args === 'object' && !Array.isArray(args) ? args.plan : undefined;
    if (typeof plan !== 'string') return refuse('exit_plan_mode needs a "plan" argument holding the plan as markdown text.');
    const heads = this.mistake === 'heading-after-text' ? headingAnywhere(plan) : headingFirst(plan);
    if (!heads) return refuse('The plan must be complete markdown whose first line is a top-level "# " title.');
    if (!this.canAsk) return refuse('Nobody can review the plan here (no way to ask the user), so planning mode stays on.');
    let reply;
    try {
      reply = ask({
        id: REVIEW.id,
        title: 'Review the plan',
        prompt: 'Shall the assistant leave planning mode and carry out this plan?',
        plan,
        choices: [REVIEW.go, REVIEW.notYet],
      });
    } catch (e) {
      return refuse(`The review did not complete (${e.message}); planning mode stays on. Wait for the user.`);
    }
    if (this.disposed) return refuse('Planning mode was restarted while the plan was under review; it stays on. Present the plan again.');
    if (reply.dismissed) return refuse('The user closed the review without deciding; planning mode stays on. Wait for their instructions.');
    const mine = (reply.answers || []).filter((a) => a.question === REVIEW.id);
    const one = mine.length === 1 ? mine[0] : undefined;
    const picked = one ? one.picked || [] : [];
    if (one && picked.length === 1 && picked[0] === REVIEW.go && !one.text) {
      this.waiting.set(agent.id, { active: false, by: 'review', late: this.mistake === 'approval-one-step-late' ? 1 : 0 });
      return { ok: true, result: { approved: true } }; // exactly this (SPEC.md lists it among the fixed names)
    }
    const w = this.waiting.get(agent.id);
    if (w !== undefined && w.by === 'review') this.waiting.delete(agent.id);
    const feedback = one && one.text ? one.text : '';
    return refuse(
      feedback
        ? `Not approved yet. The user asks you to keep planning: ${feedback}`
        : 'Not approved yet. The user asks you to keep planning; revise the plan and present it again.',
    );
  }

  // --- /plan [off|message] (CMD-2..4) ---
  //
  // By default the argument is read as given: surrounding whitespace belongs
  // to it, so only the exact text "off" is off, "  off " is a message, and so
  // is an argument of blanks. With the option trimmed (SPEC.md does not say
  // which reading holds) the whitespace around the argument is dropped first.
  command(agent, raw) {
    const arg = this.trimmed ? raw.trim() : raw;
    let active = true;
    let message;
    if (arg === 'off' || (this.mistake === 'uppercase-off' && arg.toLowerCase() === 'off')) active = false;
    else if (arg !== '') message = arg;
    const outcome = this.set(agent, active);
    if (message !== undefined) agent.steer({ role: 'user', text: message, source: { kind: 'user' } });
    let told = outcome;
    if (outcome === 'noop' && this.mistake === 'wrong-reply-outcome') told = this.view(agent).turnOpen ? 'queued' : 'committed';
    return { kind: 'success', text: replyText(active, told), outcome: told };
  }
}

function replyText(active, outcome) {
  switch (outcome) {
    case 'committed':
      return active ? 'Planning mode is on.' : 'Planning mode is off.';
    case 'queued':
      return active ? 'Planning mode starts with the next request.' : 'Planning mode ends with the next request.';
    case 'cancelled':
      return active ? 'Withdrawn: planning mode stays on.' : 'Withdrawn: planning mode stays off.';
    default:
      return active ? 'Planning mode was on already.' : 'Planning mode was off already.';
  }
}
