/**
 * A tap on the messages the upstream sends, for what the SDK client cannot take itself: the
 * tasks extension's `CreateTaskResult` (`resultType: "task"`, which its result decoder
 * refuses as an unsupported result type) and its `notifications/tasks`. The tap sits between
 * the SDK transport and the SDK client (a JS Proxy over the transport that wraps the
 * `onmessage` the client installs), so that the transport's own work (SSE, resumption, auth)
 * is untouched. A task result is held under a random token and handed to the client as a
 * plain result carrying that token; `take` gives the upstream's result back as it came.
 *
 * @example
 * import { taskTap } from './tap.js'
 * const tap = taskTap((status) => console.log(status.taskId))
 * // new Client(...).connect(tap.wrap(transport)); tap.take(await client.request(...)) // the CreateTaskResult, or undefined
 */
import { randomUUID } from 'node:crypto'
import type { Transport } from '@modelcontextprotocol/client'
import { isObject } from '../../util/json-object.js'

// ---------------------------------------------------------------------------------------
// model

/** A JSON object as the tap reads and writes it. */
type JsonObject = { readonly [key: string]: unknown }

/** The tap of one proxy: how to wrap its transports, and where held task results are taken. */
export interface TaskTap {
  /** The transport, with the upstream's task results held back and its task notifications taken out. */
  readonly wrap: (transport: Transport) => Transport
  /** The upstream's `CreateTaskResult` that `result` stands for (once: it is forgotten then); undefined for any other result. */
  readonly take: (result: unknown) => JsonObject | undefined
}

/** A permissive result schema for the SDK client's `request`: the upstream's answer as it came (the proxy checks what it serves). */
export const asItCame = { '~standard': { version: 1, vendor: 'emcp', validate: (value: unknown) => ({ value }) } } as const

/** The most task results held at once: a call abandoned before its answer came leaves one (the oldest goes). */
export const maxHeld = 1000

// ---------------------------------------------------------------------------------------
// constructors

/** A tap that passes the upstream's `notifications/tasks` params to `onStatus`. */
export const taskTap = (onStatus: (params: JsonObject) => void): TaskTap => {
  // random per proxy: an upstream cannot name a held result it did not send
  const tokenKey = `dev.emcp.proxy/task-${randomUUID()}`
  const held = new Map<string, JsonObject>()
  const inbound = (m: JsonObject): JsonObject | undefined => {
    if (m.method === 'notifications/tasks' && m.id === undefined) {
      if (isObject(m.params)) onStatus(m.params)
      return undefined
    }
    if (m.id === undefined || !isObject(m.result) || m.result.resultType !== 'task') return m
    const token = randomUUID()
    held.set(token, m.result)
    if (held.size > maxHeld) held.delete(held.keys().next().value as string)
    return { ...m, result: { resultType: 'complete', content: [], _meta: { [tokenKey]: token } } }
  }
  return {
    wrap: (transport) => tapped(transport, inbound),
    take: (result) => {
      const token = isObject(result) && isObject(result._meta) ? result._meta[tokenKey] : undefined
      if (typeof token !== 'string') return undefined
      const raw = held.get(token)
      held.delete(token)
      return raw
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** `transport`, with each incoming message passed through `inbound` first (undefined: dropped). */
const tapped = (transport: Transport, inbound: (m: JsonObject) => JsonObject | undefined): Transport =>
  new Proxy(transport, {
    // methods run on the transport itself (its private state is not the proxy's)
    get: (t, key) => {
      const v: unknown = Reflect.get(t, key, t)
      return typeof v === 'function' && key !== 'onmessage' && key !== 'onclose' && key !== 'onerror' ? v.bind(t) : v
    },
    set: (t, key, value: unknown) => {
      if (key !== 'onmessage' || typeof value !== 'function') return Reflect.set(t, key, value, t)
      const deliver = value as NonNullable<Transport['onmessage']>
      t.onmessage = (message, extra) => {
        const m = isObject(message) ? inbound(message) : message
        if (m !== undefined) deliver(m as typeof message, extra)
      }
      return true
    },
  })
