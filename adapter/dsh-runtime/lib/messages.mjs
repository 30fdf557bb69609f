// Conversions between dsh's message and event shapes and the protocol's;
// messages as the plugin-level host converts them (adapter/node/messages.mjs).
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { userMessageInput } from '../../node/messages.mjs'

export { toMessage } from '../../node/messages.mjs'

const SURFACE = new Set(['user/message', 'assistant/message', 'tool/result'])

/** A dsh user message carrying `text` from the user. */
export function userMessage (text) {
  return createUserMessage(userMessageInput({ text }))
}

/** The surface metadata dsh requires for an append of `type` (none for other types). */
export function surfaceOptions (type) {
  return SURFACE.has(type) ? [{ surfaceOp: 'append' }] : []
}

/**
 * A protocol Event as reported: seq, type, data. No time; the surface
 * metadata dsh's JSONL carries is left out (toSeed restores it on a restart).
 */
export function toEvent (e) {
  return { seq: e.seq, type: e.type, data: e.data }
}

/**
 * The seed dsh's session store accepts for a log the kit passes to `open`:
 * each event with a time (its seq: the kit's logs carry none), and surface
 * metadata restored when the kit's copy dropped it — `append`, an assistant
 * message citing the chunks of its response, a tool result citing its call.
 */
export function toSeed (events, agent) {
  const seed = []
  for (const [index, e] of events.entries()) {
    if (e === null || typeof e !== 'object' || typeof e.type !== 'string') {
      throw new Error(`open ${JSON.stringify(agent)}: event ${index} is not an object with a string type`)
    }
    if (e.seq !== index) throw new Error(`open ${JSON.stringify(agent)}: event ${index} has seq ${JSON.stringify(e.seq)}, want ${index}`)
    const out = { type: e.type, seq: index, time: index, data: e.data === undefined ? {} : e.data }
    if (SURFACE.has(e.type)) {
      out.surfaceOp = e.surfaceOp ?? 'append'
      const sources = e.sourceEventSeqs ?? inferSources(seed, e)
      if (sources.length > 0) out.sourceEventSeqs = sources
    } else if (e.surfaceOp !== undefined) {
      out.surfaceOp = e.surfaceOp
      if (e.sourceEventSeqs !== undefined) out.sourceEventSeqs = e.sourceEventSeqs
    }
    seed.push(out)
  }
  return seed
}

function inferSources (before, e) {
  if (e.type === 'tool/result') {
    const callId = e.data?.message?.source?.callId
    const call = before.findLast((b) => b.type === 'tool/call' && b.data?.callId === callId)
    return call === undefined ? [] : [call.seq]
  }
  if (e.type === 'assistant/message') {
    const chunks = []
    for (let i = before.length - 1; i >= 0; i--) {
      const b = before[i]
      if (b.type === 'assistant/chunk') {
        if (b.data?.turn === e.data?.turn && b.data?.step === e.data?.step) chunks.unshift(b.seq)
        continue
      }
      if (['step/start', 'llm/retry', 'llm/retry-started', 'assistant/message', 'request/header', 'request/context'].includes(b.type)) break
    }
    return chunks
  }
  return []
}
