// What the two Node hosts (adapter/dsh, adapter/dsh-runtime) share around
// their own methods: stdout kept for the protocol, and the NDJSON loop —
// one JSON request per line on stdin, one JSON reply per line on stdout.
// It imports only Node's own modules, so each host keeps resolving its
// pinned packages from its own node_modules.
import { createInterface } from 'node:readline'
import { format } from 'node:util'

/** Everything on stdout is protocol: route stray console output to stderr. */
export function protocolStdout () {
  console.log = (...args) => process.stderr.write(format(...args) + '\n')
  console.info = console.log
  console.warn = console.log
  console.debug = console.log
}

// message is the text of anything thrown.
function message (error) {
  return error?.message ?? String(error)
}

function reply (obj) {
  process.stdout.write(JSON.stringify(obj) + '\n')
}

/**
 * Serve requests until stop or the end of stdin, then exit 0 once the last
 * reply is flushed. handle(method, params) answers each request of a method
 * in methods; what it throws is an error reply (its stack on stderr), a
 * result with an unsupported member an unsupported reply. A line that is
 * not a JSON object, a method not in methods or params that are not an
 * object are answered without reaching handle; a line without a usable seq
 * is answered with the seq that follows the last one. stop is answered
 * here. If the loop itself fails, the host exits 3.
 */
export function serve (methods, handle) {
  loop(methods, handle).catch((error) => {
    process.stderr.write(`plankit host: ${error?.stack ?? error}\n`)
    process.exit(3)
  })
}

async function loop (methods, handle) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
  let want = 1
  for await (const line of lines) {
    if (line.trim() === '') continue
    let req
    try {
      req = JSON.parse(line)
    } catch (error) {
      reply({ seq: want++, error: { message: `request is not JSON: ${message(error)}` } })
      continue
    }
    const seq = Number.isSafeInteger(req?.seq) ? req.seq : want
    want = seq + 1
    if (req === null || typeof req !== 'object' || Array.isArray(req)) {
      reply({ seq, error: { message: 'request is not a JSON object' } })
      continue
    }
    if (typeof req.method !== 'string' || !methods.has(req.method)) {
      reply({ seq, unsupported: { message: `unknown method ${JSON.stringify(req.method)}` } })
      continue
    }
    if (req.method === 'stop') {
      reply({ seq, result: {} })
      break
    }
    const params = req.params === undefined ? {} : req.params
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      reply({ seq, error: { message: `${req.method}: params must be an object` } })
      continue
    }
    try {
      const result = await handle(req.method, params)
      if (result?.unsupported !== undefined) reply({ seq, unsupported: { message: `${req.method}: ${result.unsupported}` } })
      else reply({ seq, result })
    } catch (error) {
      process.stderr.write(`plankit host: ${req.method}: ${error?.stack ?? error}\n`)
      reply({ seq, error: { message: `${req.method}: ${message(error)}` } })
    }
  }
  process.stdout.write('', () => process.exit(0))
}
