/**
 * `emcp/hono`: the transport as a Hono handler, `app.all('/mcp', mcpHono(server))`. It only
 * translates: Hono's `c.req.raw` is the Web Request the fetch handler takes, the worker's
 * `ExecutionContext` (on Cloudflare) its `ctx.waitUntil`; the chain is the one of
 * transport/http. Hono is not imported: the handler takes any context of that shape.
 *
 * @example
 * import { Hono } from 'hono'
 * import { mcpHono } from 'emcp/hono'
 * const app = new Hono()
 * app.all('/mcp', mcpHono(server))
 */
import type { AnyTool } from '../../../contract/emcp.js'
import type { Server } from '../../../server/server.js'
import { toFetchHandler, type FetchOptions } from '../fetch.js'

// ---------------------------------------------------------------------------------------
// model

/** The part of Hono's `Context` the handler reads. */
export interface HonoContext {
  readonly req: { readonly raw: Request }
  readonly env?: unknown
  /** Throws outside a worker (Hono's getter): read through `executionCtxOf`. */
  readonly executionCtx?: unknown
}

// ---------------------------------------------------------------------------------------
// constructors

/** A Hono handler for the route it is mounted on (`app.all(path, …)`: POST, GET and DELETE reach it). */
export const mcpHono = <U extends AnyTool>(server: Server<U>, options: FetchOptions = {}): ((c: HonoContext) => Promise<Response>) => {
  const handle = toFetchHandler(server, options)
  return (c) => handle(c.req.raw, c.env, executionCtxOf(c))
}

// ---------------------------------------------------------------------------------------
// internals

/** The worker's execution context, or undefined where Hono has none (its getter throws on Node, Deno, Bun). */
const executionCtxOf = (c: HonoContext): unknown => {
  try {
    return c.executionCtx
  } catch {
    return undefined
  }
}
