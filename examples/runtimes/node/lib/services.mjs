// The services an agent loop offers to plugins: the agent/pre-step listener
// chain, the tool registry, the system-prompt sections and the slash
// commands. Each registration returns a function that undoes it, which is
// how a plugin is disposed.

// A tool's ordinary failure: the model sees the message as the tool's error.
export class ToolFailure extends Error {
  constructor(message) {
    super(message);
    this.name = 'ToolFailure';
  }
}

// agent/pre-step: listeners run outermost first; each gets the step's
// context and next(), which runs the listeners after it and resolves to
// their decision ({kind: 'accept', messages} or {kind: 'reject'}).
export class PreStepChain {
  #links = [];

  use(name, listener, { prepend = false } = {}) {
    const link = { name, listener };
    if (prepend) this.#links.unshift(link);
    else this.#links.push(link);
    return () => {
      this.#links = this.#links.filter((l) => l !== link);
    };
  }

  names() {
    return this.#links.map((l) => l.name);
  }

  dispatch(context, innermost) {
    const links = this.#links.slice();
    const run = (i) => (i < links.length ? links[i].listener(context, () => run(i + 1)) : innermost());
    return run(0);
  }
}

// Tools in registration order; assemblers (prompt-assembly listeners) may
// add tools to each request's catalog after the registered ones.
export class ToolRegistry {
  #tools = [];
  #assemblers = [];

  register(tool) {
    if (this.#tools.some((t) => t.name === tool.name)) throw new Error(`tool ${tool.name} is already registered`);
    this.#tools.push(tool);
    return () => {
      this.#tools = this.#tools.filter((t) => t !== tool);
    };
  }

  assembler(fn) {
    this.#assemblers.push(fn);
    return () => {
      this.#assemblers = this.#assemblers.filter((f) => f !== fn);
    };
  }

  catalog(context) {
    let tools = this.#tools.slice();
    for (const fn of this.#assemblers) tools = fn(tools, context);
    return tools;
  }

  find(name, context) {
    return this.catalog(context).find((t) => t.name === name) ?? null;
  }
}

// System-prompt sections: {name, order, text(context)}; rendered by
// ascending order (ties keep registration order), empty text left out.
export class PromptSections {
  #sections = [];

  add(section) {
    this.#sections.push(section);
    return () => {
      this.#sections = this.#sections.filter((s) => s !== section);
    };
  }

  render(context) {
    return this.#sections
      .map((s, i) => ({ i, name: s.name, order: s.order, text: s.text(context) }))
      .filter((s) => typeof s.text === 'string' && s.text !== '')
      .sort((a, b) => a.order - b.order || a.i - b.i)
      .map(({ name, order, text }) => ({ name, order, text }));
  }
}

// Slash commands by name: {name, summary, run({agent, args})}.
export class CommandRegistry {
  #commands = new Map();

  register(command) {
    this.#commands.set(command.name, command);
    return () => {
      if (this.#commands.get(command.name) === command) this.#commands.delete(command.name);
    };
  }

  find(name) {
    return this.#commands.get(name) ?? null;
  }
}

// Splits a typed command line into its name and its raw argument: the text
// after the first whitespace character that follows the name, kept as typed.
export function parseCommandLine(input) {
  const m = /^\/(\S*)(?:\s([\s\S]*))?$/.exec(input);
  if (!m) return null;
  return { name: m[1], args: m[2] ?? '' };
}
