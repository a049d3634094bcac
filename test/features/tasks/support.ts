/** Requests of the 2026-07-28 era for the tasks tests: capabilities in each request's `_meta`. */
import * as O from 'fp-ts/lib/Option.js'
import { encode, newSession, tasksExtension, type Server } from '../../../src/index.js'

/** What a request's answer looks like once read off the wire. */
export interface Wire {
  readonly result?: any
  readonly error?: { readonly code: number; readonly message: string; readonly data?: any }
}

/** The `_meta` of a 2026-07-28 request with these capabilities (the tasks extension unless `tasks: false`). */
export const meta = (caps: Record<string, unknown> = {}, tasks = true) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { ...caps, ...(tasks ? { extensions: { [tasksExtension]: {} } } : {}) },
})

let next = 1

/** Sends one 2026-07-28 request (a fresh session each, as stateless HTTP does). */
export const send = async (server: Server, method: string, params: Record<string, unknown> = {}, m: Record<string, unknown> = meta({ elicitation: {} })): Promise<Wire> => {
  const out = await server.dispatch({ jsonrpc: '2.0', id: next++, method, params: { ...params, _meta: m } }, newSession())()
  if (O.isNone(out)) throw new Error(`no answer to ${method}`)
  return JSON.parse(encode(out.value)) as Wire
}

/** Polls tasks/get until the task is in `status` or has ended. */
export const waitFor = async (server: Server, taskId: string, status: string, timeoutMs = 15_000): Promise<any> => {
  const end = Date.now() + timeoutMs
  for (;;) {
    const r = await send(server, 'tasks/get', { taskId })
    const s = r.result?.status
    if (s === status || s === 'completed' || s === 'failed' || s === 'cancelled' || Date.now() > end) return r.result
    await new Promise((res) => setTimeout(res, 5))
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((res) => setTimeout(res, ms))

/** An acknowledgement (tasks/update, tasks/cancel): resultType "complete" and no task envelope (only _meta may come along). */
export const isAck = (result: any): boolean =>
  result?.resultType === 'complete' && ['taskId', 'status', 'result', 'error', 'inputRequests'].every((k) => !(k in result))
