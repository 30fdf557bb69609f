// Stable ids for the random ones the runtime mints. dsh gives messages
// random UUIDs, dsh-llm-retry gives retry chains random UUIDs, and the
// command service mints `cmd-<random token>-<n>`. Each distinct random
// string is replaced, per agent, by `id-<n>` in order of first appearance,
// so two runs of the same scenario report byte-identical observations. After
// a restart the log holds the stable ids already; the counter continues after
// the largest one it finds there.

const RANDOM = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|cmd-[0-9a-f]{8}-\d+)$/
const STABLE = /^id-(\d+)$/

export class StableIds {
  #map = new Map()
  #next = 1

  /** Continue numbering after the stable ids already present in `value`. */
  adopt (value) {
    walk(value, (s) => {
      const m = STABLE.exec(s)
      if (m !== null) this.#next = Math.max(this.#next, Number(m[1]) + 1)
      return s
    })
  }

  /** A JSON-safe deep copy of `value` with every random id replaced. */
  replace (value) {
    return walk(value, (s) => {
      if (!RANDOM.test(s)) return s
      let id = this.#map.get(s)
      if (id === undefined) {
        id = `id-${this.#next++}`
        this.#map.set(s, id)
      }
      return id
    })
  }
}

function walk (value, string) {
  if (typeof value === 'string') return string(value)
  if (Array.isArray(value)) return value.map((v) => walk(v, string))
  if (value !== null && typeof value === 'object') {
    const out = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = walk(v, string)
    return out
  }
  return value
}
