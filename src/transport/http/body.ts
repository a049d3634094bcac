/**
 * The body, read once and parsed once. Its bytes count against the in-flight budget (in all
 * and per client) from before it is read until its answer is out, so that a flood of large
 * bodies waits unread instead of filling the heap; a body over the limit gets 413, text that
 * is not JSON gets 400 with a parse error. Every later step reads `req.message`.
 *
 * @example
 * import { body } from './body.js'
 * const step = body({ maxBodyBytes: 4 * 1024 * 1024 })
 */
import * as E from 'fp-ts/lib/Either.js'
import { failure, parse } from '../../protocol/jsonrpc.js'
import { addressKey } from './caller.js'
import { byteBudget, releasedAtEnd, shareOf } from './in-flight.js'
import type { HttpMiddleware, HttpOptions, HttpRequestHead } from './model.js'
import { json, refuse } from './reply.js'

// ---------------------------------------------------------------------------------------
// constructors

/** The body step of `options`' limits. */
export const body = (options: HttpOptions): HttpMiddleware => {
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024
  const budget = byteBudget({ total: options.maxBytesInFlight ?? 32 * 1024 * 1024, perClient: options.maxBytesInFlightPerClient ?? 8 * 1024 * 1024 })
  const clientOf = (req: HttpRequestHead): string | undefined => {
    const address = addressOf(options, req)
    return address === undefined ? undefined : addressKey(address)
  }
  return async (req, next) => {
    const release = await budget.take(clientOf(req), shareOf(req, maxBodyBytes), () => req.signal)
    try {
      const read = await req.readBody(maxBodyBytes)
      if (read === 'too-large') {
        release()
        return refuse(413, `Payload Too Large: the body exceeds ${maxBodyBytes} bytes`, { connection: 'close' })
      }
      const parsed = parse(read.text)
      if (E.isLeft(parsed)) {
        release()
        return json(400, failure(null, parsed.left))
      }
      req.message = parsed.right
      return releasedAtEnd(await next(req), release)
    } catch (e) {
      release()
      throw e
    }
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** The client's address as `options` reads it: its own function, else the connection's peer. */
export const addressOf = (options: HttpOptions, req: HttpRequestHead): string | undefined => options.clientAddress?.(req) ?? req.remoteAddress
