// The on-disk journal of the session store: one JSONL file per agent and
// runtime instance, in dsh's session-log shape (a `session` header line, then
// one `{"type","seq","data"}` line per event), which `plankit lint` reads.
//
// A resumed session (a restart opens the agent with its whole log) starts a
// new file holding the whole log, so every file is a complete session.
// Lines are appended synchronously: the file is the durable copy, and a
// process killed mid-run leaves every event written so far. Each event line
// also says who wrote it ("by": "runtime", "outside" for an outside writer,
// "opened" for the log the session was opened with), which readers of the
// format ignore and a reviewer of lint findings can use.

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class Journal {
  #dir;
  #stem;
  #files = new Map();

  // stem tells this runtime instance's files apart from those of other
  // processes (and of earlier instances of a reused process).
  constructor(dir, stem) {
    this.#dir = dir;
    this.#stem = stem;
    mkdirSync(dir, { recursive: true });
  }

  begin(agent, events) {
    const safe = agent.replace(/[^A-Za-z0-9_.-]/g, '_');
    const file = join(this.#dir, `${this.#stem}-${safe}.jsonl`);
    const head = JSON.stringify({ type: 'session', version: 0, id: `${this.#stem}/${agent}`, agent });
    writeFileSync(file, [head, ...events.map((e) => line(e, 'opened'))].join('\n') + '\n');
    this.#files.set(agent, file);
  }

  write(agent, event, by) {
    const file = this.#files.get(agent);
    if (file) appendFileSync(file, line(event, by) + '\n');
  }
}

function line(event, by) {
  return JSON.stringify({ type: event.type, seq: event.seq, data: event.data, by });
}
