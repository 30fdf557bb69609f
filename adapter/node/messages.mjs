// Conversions between dsh's messages and the protocol's Message, for both
// Node hosts (adapter/dsh, adapter/dsh-runtime). It imports only Node's
// own modules, so each host keeps resolving its pinned packages from its
// own node_modules: a host makes a dsh message with its own dsh-llm's
// createUserMessage(userMessageInput(m)).

/** The text parts of a content list, joined (a tool result's by its own content). */
function textOf (content) {
  let text = ''
  for (const block of content ?? []) {
    if (block?.type === 'text') text += block.text
    else if (block?.type === 'tool-result') text += textOf(block.content)
  }
  return text
}

/** A protocol message source from a dsh one: its kind (user when it names none) and its string plugin, form and summary. */
function sourceOf (s) {
  const source = { kind: String(s?.kind ?? 'user') }
  for (const k of ['plugin', 'form', 'summary']) if (typeof s?.[k] === 'string') source[k] = s[k]
  return source
}

/**
 * A protocol Message from a dsh message, as the model receives it: role,
 * joined text, and the source. dsh carries a tool result as a user message
 * holding one tool-result block; the protocol calls that role "tool", with
 * the call it answers in its source. An assistant message has no source.
 */
export function toMessage (m) {
  const result = (m?.content ?? []).find((b) => b?.type === 'tool-result')
  if (result !== undefined) return { role: 'tool', text: textOf(m.content), source: { kind: 'tool', callId: String(result.toolCallId) } }
  const out = { role: m?.role, text: textOf(m?.content) }
  if (m?.role !== 'assistant') out.source = sourceOf(m?.source)
  return out
}

/** What dsh-llm's createUserMessage takes for a protocol Message: its text as one text part, and its source. */
export function userMessageInput (m) {
  return { content: [{ type: 'text', text: m?.text ?? '' }], source: sourceOf(m?.source) }
}
