// A Script plays the world outside the runtime for one request of the
// runtime protocol: the model (one scripted response per request the loop
// sends, its host actions run while it "streams"), the host's pre-step
// listeners and tools, and the user answering a plan review. It records
// what the protocol reports back: every request as sent, and the results of
// host actions and tool calls in the order they finished.

import { ProviderFailure } from './loop.mjs';

const FALLBACK = { text: 'Done.' };

export class Script {
  constructor(app, agentName, spec = {}) {
    this.app = app;
    this.agentName = agentName;
    this.responses = spec.responses ?? [];
    this.preSteps = spec.preSteps ?? [];
    this.next = 0;
    this.calls = new Map();
    this.asked = new Set();
    this.requests = [];
    this.results = [];
  }

  // --- the model ------------------------------------------------------------

  async complete(request) {
    this.requests.push(request);
    const response = this.responses[this.next] ?? FALLBACK;
    this.next += 1;
    await this.act(response.during ?? [], this.agentName);
    if (response.fail) throw new ProviderFailure('the model provider answered with an error');
    const calls = (response.calls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args }));
    for (const c of response.calls ?? []) this.calls.set(c.id, c);
    return { text: response.text, calls };
  }

  toolDone(call, outcome) {
    const tool = { name: call.name, ok: outcome.ok, asked: this.asked.has(call.id) };
    if (outcome.ok) tool.value = outcome.value ?? null;
    else tool.error = outcome.error;
    if (outcome.exception) tool.exception = true;
    this.results.push({ id: call.id, tool });
  }

  // --- the host's listeners and tools ---------------------------------------

  preStep(dispatch, listener) {
    return this.preSteps.find((p) => p.dispatch === dispatch && p.listener === listener) ?? null;
  }

  async whileToolRuns(callId) {
    await this.act(this.calls.get(callId)?.during ?? [], this.agentName);
  }

  // --- the user at the plan review ------------------------------------------

  async review({ agent, callId, questions }) {
    this.asked.add(callId);
    const question = questions[0];
    const [approve, revise] = question.choices.map((c) => c.id);
    const review = this.calls.get(callId)?.review ?? {};
    if (review.fail) {
      switch (review.fail) {
        case 'aborted':
          this.app.agent(agent).abortStep('the step was cancelled during the review');
          throw new Error('the step was cancelled while the question was open');
        case 'refused':
          throw new Error('the question service will not ask on behalf of this agent');
        case 'unavailable':
          throw new Error('the question service has no way to reach the user');
        default:
          throw new Error('the question service failed');
      }
    }
    if (review.reload) this.app.reload();
    if (review.reply) {
      return {
        answers: (review.reply.answers ?? []).map((a) => {
          const answer = {
            question: a.question === undefined ? question.id : `elsewhere:${a.question}`,
            picked: (a.selected ?? []).map((s) => (s === 'approve' ? approve : revise)),
          };
          if (a.custom !== undefined) answer.note = a.custom;
          return answer;
        }),
      };
    }
    if (review.answer === 'dismiss') return { dismissed: true };
    if (review.answer === 'approve' || review.answer === 'keep-planning') {
      const answer = { question: question.id, picked: [review.answer === 'approve' ? approve : revise] };
      if (review.feedback !== undefined) answer.note = review.feedback;
      return { answers: [answer] };
    }
    return { answers: [] };
  }

  // --- host actions -----------------------------------------------------------

  async act(actions, agentName) {
    for (const action of actions) this.results.push(await this.#perform(action, agentName));
  }

  async #perform(action, agentName) {
    const app = this.app;
    if (action.set) return { id: action.id, set: app.select(agentName, action.set.active) };
    if (action.get) {
      const state = app.inspect(agentName);
      if (!state) throw new Error('get while plan mode is not loaded');
      return { id: action.id, get: state };
    }
    if (action.command) {
      const reply = await app.command(agentName, action.command.input);
      return { id: action.id, command: reply };
    }
    if (action.append) {
      app.outsideAppend(agentName, action.append.type, action.append.data);
      return { id: action.id, append: {} };
    }
    if (action.fault) {
      app.armFaults(agentName, action.fault.count);
      return { id: action.id, fault: {} };
    }
    throw new Error(`unknown host action ${JSON.stringify(action)}`);
  }
}
