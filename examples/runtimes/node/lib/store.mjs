// The session store: one append-only event log per agent.
//
// Every writer goes through append(): the agent loop, plan mode, and an
// outside writer alike. A store can be told to refuse the next n `plan/mode`
// appends of an agent (a storage fault); a refused append throws
// StoreRefusal to whoever tried, and nothing is written. The store also
// keeps a journal on disk when given one (see journal.mjs), so that a run
// leaves session logs a linter can read.

export const PLAN_MODE_EVENT = 'plan/mode';

export class StoreRefusal extends Error {
  constructor(agent, type) {
    super(`session store refused to write ${type} to ${agent}'s log`);
    this.name = 'StoreRefusal';
  }
}

export class SessionStore {
  #logs = new Map();
  #faults = new Map();
  #journal;
  #listeners = [];

  // faultsSpareOutsiders: armed faults fail only the runtime's own
  // plan/mode appends (--lay-aside fault-scope); by default they fail every
  // writer's.
  constructor({ journal = null, faultsSpareOutsiders = false } = {}) {
    this.#journal = journal;
    this.faultsSpareOutsiders = faultsSpareOutsiders;
  }

  has(agent) {
    return this.#logs.has(agent);
  }

  agents() {
    return [...this.#logs.keys()];
  }

  // Starts a session whose log begins with the given events (a resumed or
  // recorded session), renumbered 0..n-1.
  create(agent, events = []) {
    const log = events.map((e, seq) => Object.freeze({ seq, type: e.type, data: e.data }));
    this.#logs.set(agent, log);
    this.#journal?.begin(agent, log);
    return log;
  }

  events(agent) {
    const log = this.#logs.get(agent);
    if (!log) throw new Error(`no session for agent ${JSON.stringify(agent)}`);
    return log;
  }

  length(agent) {
    return this.events(agent).length;
  }

  // The next `count` attempts to append plan/mode to this agent's log fail,
  // whoever makes them.
  armFaults(agent, count) {
    this.#faults.set(agent, (this.#faults.get(agent) ?? 0) + count);
  }

  onAppend(fn) {
    this.#listeners.push(fn);
  }

  append(agent, type, data, { outside = false } = {}) {
    const log = this.events(agent);
    if (type === PLAN_MODE_EVENT && !(outside && this.faultsSpareOutsiders)) {
      const left = this.#faults.get(agent) ?? 0;
      if (left > 0) {
        this.#faults.set(agent, left - 1);
        throw new StoreRefusal(agent, type);
      }
    }
    const event = Object.freeze({ seq: log.length, type, data });
    log.push(event);
    this.#journal?.write(agent, event, outside ? 'outside' : 'runtime');
    for (const fn of this.#listeners) fn(agent, event);
    return event;
  }
}
