// The agent loop: agents, their inboxes, turns and steps.
//
// A turn opens with turn/start and runs steps until the model answers
// without tool calls (and nobody steered a message meanwhile), a pre-step is
// rejected or aborted, or request recovery gives up. Each step:
//   1. claims the agent's inbox (the prompt, steered messages, injected ones),
//   2. dispatches agent/pre-step through the listener chain; the innermost
//      decision accepts the claimed messages,
//   3. on acceptance logs the decision's messages, derives the request from
//      the log (system sections, tool catalog, transcript), logs its
//      request/header and sends it,
//   4. logs the model's output and runs its tool calls, logging each result.
// A failed request is retried: the step is proposed again and goes through
// agent/pre-step again (request recovery "pre-step"). Step events are not
// logged: a step is its request header, its output and its tool results.
// After turn/end the agent checkpoints (it is still running, no turn open).

import { ToolFailure } from './services.mjs';

export class ProviderFailure extends Error {
  constructor(message) {
    super(message);
    this.name = 'ProviderFailure';
  }
}

// Messages waiting for the agent's next step. A steered message wakes the
// agent (a running turn goes on to another step for it); an injected one
// only rides along with the next step that runs anyway.
export class Inbox {
  #items = [];
  // steered counts the messages ever steered, so that a caller can tell
  // whether something it ran steered one.
  steered = 0;

  admit(message) {
    this.#items.push({ message, kind: 'prompt' });
  }

  steer(message) {
    this.#items.push({ message, kind: 'steer' });
    this.steered++;
  }

  inject(message, owner) {
    this.#items.push({ message, kind: 'inject', owner });
  }

  claim() {
    const messages = this.#items.map((i) => i.message);
    this.#items = [];
    return messages;
  }

  wantsStep() {
    return this.#items.some((i) => i.kind !== 'inject');
  }

  retract(owner) {
    this.#items = this.#items.filter((i) => i.owner !== owner);
  }
}

export class Agent {
  constructor(name, store) {
    this.name = name;
    this.store = store;
    this.inbox = new Inbox();
    this.status = 'idle';
    this.current = null; // the running step: {turn, step, controller}
    this.catalogCache = null;
  }

  get events() {
    return this.store.events(this.name);
  }

  append(type, data) {
    return this.store.append(this.name, type, data);
  }

  turnOpen() {
    return openTurn(this.events) !== null;
  }

  turnsSoFar() {
    return this.events.filter((e) => e.type === 'turn/start').length;
  }

  abortStep(reason) {
    this.current?.controller.abort(reason);
  }
}

// The number of the turn the log leaves open, or null.
export function openTurn(events) {
  let open = null;
  for (const e of events) {
    if (e.type === 'turn/start') open = e.data?.turn ?? 0;
    else if (e.type === 'turn/end') open = null;
  }
  return open;
}

const MAX_RETRIES = 8;

export class AgentLoop {
  #agents = new Map();
  #turnEndHooks = [];

  constructor({ store, chain, tools, sections, staleCatalog = false, retryThroughPreStep = true }) {
    this.store = store;
    this.chain = chain;
    this.tools = tools;
    this.sections = sections;
    this.staleCatalog = staleCatalog;
    this.retryThroughPreStep = retryThroughPreStep;
  }

  // Opens an agent on a log (empty for a new session). A turn the log
  // leaves open was cut short by the process that wrote it: it is closed.
  open(name, events) {
    this.store.create(name, events);
    const agent = new Agent(name, this.store);
    this.#agents.set(name, agent);
    const left = openTurn(agent.events);
    if (left !== null) agent.append('turn/end', { turn: left, reason: { kind: 'interrupted' } });
    return agent;
  }

  agent(name) {
    const agent = this.#agents.get(name);
    if (!agent) throw new Error(`agent ${JSON.stringify(name)} was never opened`);
    return agent;
  }

  onTurnEnd(fn) {
    this.#turnEndHooks.push(fn);
    return () => {
      this.#turnEndHooks = this.#turnEndHooks.filter((f) => f !== fn);
    };
  }

  // Runs one whole turn. world answers the model's requests
  // (complete(request, context)) and hears of tool results (toolDone).
  async runTurn(agent, trigger, world) {
    const turn = agent.turnsSoFar() + 1;
    agent.status = 'running';
    agent.append('turn/start', { turn, trigger });
    let step = 0;
    let dispatches = 0;
    let followsTools = false;
    let reason = 'completed';
    steps: for (;;) {
      step += 1;
      for (let attempt = 0; ; attempt += 1) {
        const controller = new AbortController();
        agent.current = { turn, step, controller };
        const retrying = attempt > 0;
        let messages = [];
        if (!retrying || this.retryThroughPreStep) {
          dispatches += 1;
          const claimed = agent.inbox.claim();
          const skipsEmpty = !followsTools && !retrying;
          const decision = await this.chain.dispatch(
            {
              agent,
              turn,
              step,
              attempt,
              dispatch: dispatches,
              messages: claimed,
              skipsEmpty,
              signal: controller.signal,
              abort: (why) => controller.abort(why),
            },
            async () => ({ kind: 'accept', messages: claimed }),
          );
          if (decision?.kind !== 'accept') {
            reason = 'blocked';
            break steps;
          }
          if (controller.signal.aborted) {
            reason = 'aborted';
            break steps;
          }
          messages = decision.messages ?? [];
          if (skipsEmpty && messages.length === 0) break steps; // nothing to send: the turn is over
        }
        for (const message of messages) agent.append('user/message', message);
        const request = this.#derive(agent);
        agent.append('request/header', {
          header: { system: request.sections, tools: request.tools.map((name) => ({ name })) },
          reason: headerReason(agent.events, request),
          attempt: attempt + 1,
        });
        let reply;
        try {
          reply = await world.complete({ at: agent.events.length, ...request }, { agent, turn, step, signal: controller.signal });
        } catch (err) {
          if (!(err instanceof ProviderFailure)) throw err;
          if (attempt >= MAX_RETRIES) {
            reason = 'error';
            break steps;
          }
          agent.append('llm/retry', { turn, step, retry: attempt + 1, mode: 'pre-step', cause: err.message });
          continue;
        }
        const calls = reply.calls ?? [];
        const content = [];
        if (typeof reply.text === 'string') content.push({ type: 'text', text: reply.text });
        for (const c of calls) content.push({ type: 'tool-call', id: c.id, name: c.name, arguments: JSON.stringify(c.args ?? null) });
        agent.append('assistant/message', { turn, step, message: { role: 'assistant', content } });
        agent.append('node/usage', { turn, step, promptMessages: request.messages.length, replyParts: content.length });
        for (const call of calls) {
          if (controller.signal.aborted) break;
          const outcome = await this.#execute(agent, call, controller);
          agent.append('tool/result', {
            turn,
            step,
            message: {
              role: 'user',
              source: { kind: 'tool', callId: call.id },
              content: [
                {
                  type: 'tool-result',
                  toolCallId: call.id,
                  isError: !outcome.ok,
                  content: [{ type: 'text', text: outcome.ok ? JSON.stringify(outcome.value ?? null) : outcome.error }],
                },
              ],
            },
          });
          world.toolDone(call, outcome);
        }
        if (controller.signal.aborted) {
          reason = 'aborted';
          break steps;
        }
        followsTools = calls.length > 0;
        if (followsTools || agent.inbox.wantsStep()) continue steps;
        break steps;
      }
    }
    agent.current = null;
    agent.append('turn/end', { turn, reason: { kind: reason }, steps: step });
    agent.status = 'checkpointing';
    for (const hook of this.#turnEndHooks) hook(agent);
    agent.status = 'idle';
  }

  // The request is derived from the log after the pre-step: the sections
  // and the tool catalog as they stand, the whole transcript.
  #derive(agent) {
    const context = { agent };
    let tools = this.tools.catalog(context).map((t) => t.name);
    if (this.staleCatalog) {
      agent.catalogCache ??= tools;
      tools = agent.catalogCache;
    }
    return { sections: this.sections.render(context), tools, messages: transcriptOf(agent.events) };
  }

  async #execute(agent, call, controller) {
    const tool = this.tools.find(call.name, { agent });
    if (!tool) return { ok: false, error: `There is no tool called ${call.name} in this session.` };
    try {
      const value = await tool.execute(call.args, {
        agent,
        callId: call.id,
        signal: controller.signal,
        abort: (why) => controller.abort(why),
      });
      return { ok: true, value };
    } catch (err) {
      if (err instanceof ToolFailure) return { ok: false, error: err.message };
      return { ok: false, error: String(err?.message ?? err), exception: true };
    }
  }
}

function headerReason(events, request) {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    if (events[i].type !== 'request/header') continue;
    const last = events[i].data?.header;
    const same =
      JSON.stringify(last?.system) === JSON.stringify(request.sections) &&
      JSON.stringify((last?.tools ?? []).map((t) => t.name)) === JSON.stringify(request.tools);
    return same ? 'resume' : 'change';
  }
  return 'initial';
}

// The model's transcript, read from the log: user messages, the model's
// outputs and tool results, in log order. Nothing else (plan/mode among it)
// is ever shown to the model.
export function transcriptOf(events) {
  const out = [];
  for (const e of events) {
    const d = e.data;
    if (e.type === 'user/message' && d && Array.isArray(d.content)) {
      const m = { role: 'user', text: textOf(d.content) };
      const source = sourceOf(d.source);
      if (source) m.source = source;
      out.push(m);
    } else if (e.type === 'assistant/message' && d?.message && Array.isArray(d.message.content)) {
      out.push({ role: 'assistant', text: textOf(d.message.content) });
    } else if (e.type === 'tool/result' && d?.message && Array.isArray(d.message.content)) {
      const parts = d.message.content.flatMap((p) => (Array.isArray(p?.content) ? p.content : []));
      const m = { role: 'tool', text: textOf(parts) };
      const source = sourceOf(d.message.source);
      if (source) m.source = source;
      out.push(m);
    }
  }
  return out;
}

function textOf(parts) {
  return parts
    .filter((p) => p && p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
}

const SOURCE_KEYS = ['kind', 'plugin', 'form', 'summary', 'callId'];

function sourceOf(source) {
  if (!source || typeof source !== 'object' || typeof source.kind !== 'string') return null;
  const out = {};
  for (const k of SOURCE_KEYS) if (typeof source[k] === 'string') out[k] = source[k];
  return out;
}
