/** Raw 2026-07-28 requests for the mount's tasks tests: an authenticated caller per request, and listen streams. */
import * as O from 'fp-ts/lib/Option.js'
import { encode, newSession, outbound, type Server, type ServerMessage } from '../../src/index.js'
import { meta, type Wire } from '../features/tasks/support.js'

let next = 1

/** One 2026-07-28 request from the caller `subject`, declaring the tasks extension (a fresh session, as stateless HTTP). */
export const as = async (server: Server, subject: string, method: string, params: Record<string, unknown> = {}): Promise<Wire> => {
  const session = newSession()
  session.identity = { subject, roles: [] }
  const out = await server.dispatch({ jsonrpc: '2.0', id: next++, method, params: { ...params, _meta: meta({ elicitation: {} }) } }, session)()
  if (O.isNone(out)) throw new Error(`no answer to ${method}`)
  return JSON.parse(encode(out.value)) as Wire
}

/** Polls tasks/get as `subject` until the task is in `status` or the answer is an error (bounded by the test's timeout). */
export const ended = async (server: Server, subject: string, taskId: string, status = 'completed'): Promise<any> => {
  for (;;) {
    const r = await as(server, subject, 'tasks/get', { taskId })
    if (r.result?.status === status || r.error !== undefined) return r
    await new Promise((res) => setImmediate(res))
  }
}

/** A subscriptions/listen stream of `subject` naming `taskIds`: what it heard, a wait for a message, and its end. */
export const listenOf = (server: Server, subject: string, taskIds: ReadonlyArray<string>) => {
  const heard: ServerMessage[] = []
  let wake = (): void => undefined
  const session = newSession(undefined, outbound((m) => (heard.push(m), wake())))
  session.identity = { subject, roles: [] }
  const id = next++
  const answered = server.dispatch({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { taskIds }, _meta: meta() } }, session)()
  const until = (p: (m: any) => boolean): Promise<void> =>
    new Promise((resolve) => {
      wake = () => (heard.some(p) ? resolve() : undefined)
      wake()
    })
  return { heard, until, answered, end: () => session.inFlight.get(id)?.() }
}
