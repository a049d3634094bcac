/**
 * The raw ceiling's dispatcher: a switch on the method, no validation beyond what is needed
 * to answer, the tool list serialized once (on the first tools/list) and spliced into each
 * answer. Answers are JSON text. Shared by raw-stdio.mjs and raw-http.mjs.
 */
import { add, addResult, fillerResult, fillers, toolCount } from './contract.mjs'

const tools = [add, ...fillers(toolCount())]
const names = new Set(tools.map((t) => t.name))
// serialised on the first tools/list, as emcp serialises its pages: neither startup pays for it
let listText
const initResult = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: { listChanged: false } },
  serverInfo: { name: 'bench', version: '1.0.0' },
}

const ok = (id, result) => JSON.stringify({ jsonrpc: '2.0', id, result })
const fail = (id, code, message) => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })

/** The answer to one message as JSON text, or undefined for a notification. */
export const dispatch = (msg) => {
  if (msg === null || typeof msg !== 'object') return fail(null, -32700, 'Parse error')
  if (msg.id === undefined) return undefined
  const id = msg.id
  switch (msg.method) {
    case 'tools/call': {
      const p = msg.params ?? {}
      if (p.name === 'add') return ok(id, addResult(p.arguments.a, p.arguments.b))
      if (names.has(p.name)) return ok(id, fillerResult(p.arguments))
      return fail(id, -32602, `Unknown tool: ${p.name}`)
    }
    case 'ping':
      return ok(id, {})
    case 'tools/list':
      return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${(listText ??= JSON.stringify({ tools }))}}`
    case 'initialize':
      return ok(id, initResult)
    default:
      return fail(id, -32601, 'Method not found')
  }
}
