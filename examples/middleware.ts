/**
 * Middleware around the calculator: a rate limit per caller (every request), and a log line
 * per tool call (on stderr, so that stdio's stdout carries only JSON-RPC). Both work the same
 * over stdio, HTTP of either era and the in-memory client: they wrap the server, not a
 * transport.
 *
 *   node dist/examples/middleware.js --stdio
 *   node dist/examples/middleware.js --http --port 3000 [--host 127.0.0.1]
 */
import * as E from 'fp-ts/lib/Either.js'
import { errorCodes, mcpServer, rpcError, type Middleware, type Session } from 'emcp'
import { serveHttp } from 'emcp/http'
import { serveStdio } from 'emcp/stdio'
import { add, echo } from './calculator.js'
import { portOf, runMain } from './main.js'

/** How `rateLimit` counts. */
export interface RateLimitOptions {
  /** Requests a caller may make per window. */
  readonly limit: number
  /** The window, in milliseconds. */
  readonly windowMs: number
  /** Who is calling: the verified subject by default (stateless HTTP makes a session per request). */
  readonly key?: (session: Readonly<Session>) => string
  /** The clock; for tests. */
  readonly now?: () => number
}

/**
 * At most `limit` requests per caller in each fixed window; past it, error -32000 with
 * `retryAfterMs` in its data. The counts are dropped when a window ends, so memory is bounded
 * by the callers of one window.
 */
export const rateLimit = ({ limit, windowMs, key = whoIs, now = Date.now }: RateLimitOptions): Middleware => {
  const window = { start: now(), counts: new Map<string, number>() }
  return {
    request: (req, next) => {
      const t = now()
      if (t - window.start >= windowMs) {
        window.start = t
        window.counts = new Map()
      }
      const caller = key(req.session)
      const n = (window.counts.get(caller) ?? 0) + 1
      window.counts.set(caller, n)
      if (n <= limit) return next()
      const retryAfterMs = window.start + windowMs - t
      return E.left(rpcError('Refused', `Too many requests: ${limit} per ${windowMs} ms for ${caller}; retry in ${retryAfterMs} ms`, { retryAfterMs }))
    },
  }
}

/** One line per tool call: when, who, which tool, how it ended, how long it took. */
export const logCalls = (write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Middleware => ({
  toolCall: async (call, next) => {
    const started = performance.now()
    const out = await next()
    const ms = (performance.now() - started).toFixed(1)
    const how = E.isLeft(out) ? `error ${errorCodes[out.left._tag]}` : out.right.isError === true ? 'failed' : 'ok'
    write(`${new Date().toISOString()} ${whoIs(call.session)} tools/call ${call.tool.name} ${how} ${ms} ms`)
    return out
  },
})

/** The caller as the transport verified it, else anonymous. */
const whoIs = (session: Readonly<Session>): string => session.identity?.subject ?? 'anonymous'

/** The calculator's add and echo, logged, and limited to 100 requests a second per caller. */
export const limited = mcpServer([add, echo], { name: 'limited-calculator', version: '1.0.0' }, {
  middleware: [logCalls(), rateLimit({ limit: 100, windowMs: 1000 })],
}).implement({
  add: ({ a, b }) => ({ sum: a + b }),
  echo: ({ text }) => text,
})

const usage = `The calculator's add and echo, logged and rate-limited by middleware.

  node dist/examples/middleware.js [--stdio]
  node dist/examples/middleware.js --http [--port 3000] [--host 127.0.0.1]`

const options = { stdio: { type: 'boolean' }, http: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } as const

runMain(import.meta.url, { usage, options }, async ({ http, port, host }) => {
  if (http === true) {
    const running = await serveHttp(limited, { port: portOf(port, 3000), host })
    process.stderr.write(`listening on ${running.url}\n`)
  } else await serveStdio(limited)
})
