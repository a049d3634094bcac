/**
 * The body, read once and parsed once. Its bytes count against the in-flight budget (in all
 * and per client) as they arrive, and go back once it is parsed, whatever the answer does
 * afterwards (a stream may stay open for hours): a flood of large bodies waits unread instead
 * of filling the heap, and a body that trickles in holds only what it sent. A body over the
 * limit gets 413, one that does not arrive in time 408, text that is not JSON 400 with a parse
 * error. Every later step reads `req.message`.
 *
 * @example
 * import { body } from './body.js'
 * const step = body({ maxBodyBytes: 4 * 1024 * 1024, bodyTimeoutMs: 60_000 })
 */
import * as E from 'fp-ts/lib/Either.js'
import { failure, parse } from '../../protocol/jsonrpc.js'
import { addressKey } from './caller.js'
import { pressedFinishSec } from './body-pace.js'
import { byteBudget, shareOf, type ByteBudget } from './in-flight.js'
import type { BodyPace, HttpMiddleware, HttpOptions, HttpRequest, HttpRequestHead } from './model.js'
import { json, refuse } from './reply.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The body step of `options`' limits. */
export const body = (options: HttpOptions): HttpMiddleware => {
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024
  const timeoutMs = options.bodyTimeoutMs ?? 60_000
  const minBytesPerSecond = options.minBodyBytesPerSecond ?? 1024
  const budget = byteBudget({ total: options.maxBytesInFlight ?? 32 * 1024 * 1024, perClient: options.maxBytesInFlightPerClient ?? 8 * 1024 * 1024 })
  const clientOf = (req: HttpRequestHead): string | undefined => {
    const address = addressOf(options, req)
    return address === undefined ? undefined : addressKey(address)
  }
  return async (req, next) => {
    const shares = reservations(budget, clientOf(req), req, maxBodyBytes)
    let read
    let heldUp = false
    try {
      if (shares.first !== undefined) await shares.first
      // while others wait for the budget in all, a body that would not finish soon gives its share up (408)
      read = await req.readBody(maxBodyBytes, { timeoutMs, minBytesPerSecond, reserve: shares.reserve, pressed: budget.pressed, limit: maxBodyBytes, onHeldUp: () => (heldUp = true) })
      if (typeof read === 'object') read = parse(read.text)
    } finally {
      // parsed (or given up): its bytes go back, whatever the answer does afterwards
      shares.release()
    }
    // no `Connection: close`: the adapter reads the rest of the body away first (a reset would hide the answer)
    if (read === 'too-large') return refuse(413, `Payload Too Large: the body exceeds ${maxBodyBytes} bytes (maxBodyBytes)`)
    if (read === 'too-slow' && heldUp)
      return refuse(408, `Request Timeout: the body stopped short of its end while other requests waited for the server's body budget; a body must keep coming (the rest within ${pressedFinishSec} s)`)
    if (read === 'too-slow') return refuse(408, `Request Timeout: the body must arrive within ${timeoutMs} ms, at ${minBytesPerSecond} bytes per second or more`)
    if (E.isLeft(read)) return json(400, failure(null, read.left))
    req.message = read.right
    return next(req)
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** The client's address as `options` reads it: its own function, else the connection's peer. */
export const addressOf = (options: HttpOptions, req: HttpRequestHead): string | undefined => options.clientAddress?.(req) ?? req.remoteAddress

// ---------------------------------------------------------------------------------------
// internals

/** What a request's first share of the budget is (later ones double it, up to the body limit). */
const firstShare = 64 * 1024

/** One request's shares of `budget`: the first, taken before the body is read; more as its bytes come; all given back at once. */
const reservations = (budget: ByteBudget, client: string | undefined, req: HttpRequest, limit: number) => {
  const given: Array<() => void> = []
  let done = false
  // asked for only when a share must wait; aborted when the client goes or the body is given up, so the waiter leaves the line
  let stop: AbortController | undefined
  const signalOf = (): AbortSignal => {
    stop ??= new AbortController()
    const gone = req.signal
    if (gone?.aborted === true) stop.abort()
    else gone?.addEventListener('abort', () => stop?.abort(), { once: true })
    return stop.signal
  }
  let reserved = Math.min(shareOf(req, limit), firstShare)
  const take = (bytes: number, holding: number): Promise<void> =>
    budget.take(client, bytes, signalOf, holding).then((release) => {
      if (done) release()
      else given.push(release)
    })
  const reserve: NonNullable<BodyPace['reserve']> = (received) => {
    if (received <= reserved) return undefined
    const holding = reserved
    const more = Math.max(received - holding, Math.min(holding, limit - holding))
    reserved += more
    return take(more, holding)
  }
  // granted at once when it fits and nobody waits: no promise to wait for
  const now = budget.takeNow(client, reserved)
  if (now !== undefined) given.push(now)
  return {
    first: now === undefined ? take(reserved, 0) : undefined,
    reserve,
    release: (): void => {
      done = true
      stop?.abort()
      for (const release of given.splice(0)) release()
    },
  }
}
