/// <reference types="node" preserve="true" />
/**
 * Bytes in and out of a Node request: the body read up to a limit (refused early when its
 * declared length is over it) and at a pace, reserving its bytes as they come, and a reply
 * written whole or, for an SSE stream, chunk by chunk, waiting for 'drain' when the client
 * reads slowly; after an early answer, the rest of the body read and thrown away for a
 * bounded time (a lingering close).
 *
 * @example
 * import { readNodeBody, send } from './node-io.js'
 * const read = await readNodeBody(req, 4 * 1024 * 1024) // { text } or 'too-large'
 * send(res, { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' })
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { declaredLength, paceWatch } from './body-pace.js'
import type { BodyPace, BodyRead, HttpReply } from './model.js'

// ---------------------------------------------------------------------------------------
// functions

/** Writes `reply` to `res`: text at once, a stream as it comes (stopping when the client goes). */
export const send = (res: ServerResponse, reply: HttpReply): void => {
  const body = reply.body
  if (typeof body === 'string') {
    // a flat [name, value, ...] list, not a spread copy of the headers: the copy per answer
    // raised a stateless server's peak memory under load by a tenth (measured)
    const headers: string[] = []
    for (const name in reply.headers) headers.push(name, reply.headers[name] as string)
    headers.push('content-length', String(Buffer.byteLength(body)))
    res.writeHead(reply.status, headers)
    res.end(body)
    return
  }
  res.writeHead(reply.status, reply.headers)
  res.flushHeaders()
  void (async () => {
    try {
      // a response closed while waiting for 'drain' never drains: stop there (leaving the
      // loop cuts the stream), or the loop and what it holds would wait forever
      for await (const chunk of body) if ((!res.write(chunk) && !(await drained(res))) || res.destroyed) break
    } finally {
      res.end()
    }
  })()
}

/** The body of `req`, or 'too-large' past `limit` bytes, or 'too-slow' when it falls behind `pace`. */
export const readNodeBody = (req: IncomingMessage, limit: number, pace?: BodyPace): Promise<BodyRead> =>
  new Promise((resolve, reject) => {
    const declared = declaredLength(req.headers['content-length'])
    if (declared !== undefined && declared > limit) {
      resolve('too-large')
      return
    }
    // a client gone before its body was read sends no more events: without this the read, and
    // the bytes it holds in the in-flight budget, would wait forever
    if (req.destroyed || req.readableAborted) {
      reject(new Error('the client went away before its body was read'))
      return
    }
    // a body already here whole (it came with its head, as small ones do) is taken at once: no listeners, no timer
    if (req.complete) {
      resolve(bufferedBody(req, limit, pace))
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    // given up (too large, too slow) or read: no more bytes are kept; the rest, if any, is the adapter's to throw away
    const finish = (read: BodyRead | Error): void => {
      if (over) return
      over = true
      watch?.stop()
      // no listener may outlive the read: the request lives as long as its answer (a stream: hours), and would keep the body alive
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', finish)
      req.off('close', onClose)
      if (read instanceof Error) reject(read)
      else resolve(read)
    }
    const watch = pace === undefined ? undefined : paceWatch(pace, declared, () => finish('too-slow'))
    const onClose = (): void => {
      if (!req.complete) finish(new Error('the client went away before its body was read'))
    }
    req.once('close', onClose)
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > limit) return finish('too-large')
      chunks.push(chunk)
      watch?.received(size)
      const reservation = pace?.reserve?.(size)
      if (reservation === undefined) return
      // the rest waits unread in TCP until the budget has room for it
      req.pause()
      void (watch?.waiting(reservation) ?? reservation).then(() => {
        if (!over) req.resume()
      })
    }
    const onEnd = (): void => finish({ text: (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8') })
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', finish)
  })

/**
 * After an early answer (413, 408, a refusal before the body), reads what is left of the body
 * and throws it away, for at most `bounds.ms` and `bounds.bytes`, as nginx's lingering close
 * does: a client still writing its body would otherwise get a reset connection instead of the
 * answer (closing a socket with unread bytes sends a TCP reset). A body read to its end leaves
 * the connection open for the next request (`closeAfter`: closes it, for a client that asked
 * for that); past either bound, the connection is closed.
 */
export const linger = (req: IncomingMessage, bounds: { readonly ms: number; readonly bytes: number; readonly closeAfter?: boolean }): void => {
  if (req.complete || req.destroyed) {
    req.resume()
    return
  }
  let seen = 0
  const stop = (): void => {
    clearTimeout(timer)
    req.off('data', onData)
    req.socket.destroy()
  }
  const onData = (chunk: Buffer): void => {
    seen += chunk.length
    if (seen > bounds.bytes) stop()
  }
  const timer = setTimeout(stop, bounds.ms)
  timer.unref()
  req.on('data', onData)
  req.once('close', () => clearTimeout(timer))
  // read to its end: a client that asked for the connection to close gets it closed now, gracefully (nothing is left unread)
  if (bounds.closeAfter === true) req.once('end', () => req.socket.end())
  req.resume()
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * The body of a request whose bytes have all arrived, read from its buffer in one piece; its
 * bytes still count against the budget (a share that must grow waits for it, as it would
 * while reading).
 */
const bufferedBody = (req: IncomingMessage, limit: number, pace: BodyPace | undefined): BodyRead | Promise<BodyRead> => {
  // read() with no size returns everything buffered, null when there is nothing
  const bytes = req.read() as Buffer | null
  const size = bytes === null ? 0 : bytes.length
  if (size > limit) return 'too-large'
  const read: BodyRead = { text: bytes === null ? '' : bytes.toString('utf8') }
  const reservation = size === 0 ? undefined : pace?.reserve?.(size)
  return reservation === undefined ? read : reservation.then(() => read)
}

/** Resolves true once `res` can take more, false if it closed first. */
const drained = (res: ServerResponse): Promise<boolean> =>
  new Promise((resolve) => {
    const done = (ok: boolean) => (): void => {
      res.off('drain', onDrain)
      res.off('close', onClose)
      resolve(ok)
    }
    const onDrain = done(true)
    const onClose = done(false)
    res.once('drain', onDrain)
    res.once('close', onClose)
  })
