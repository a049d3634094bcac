/// <reference types="node" preserve="true" />
/**
 * The stdio transport: newline-delimited JSON-RPC over a pair of streams (stdin/stdout by
 * default), framing only. Partial lines and CRLF are fine; a garbage line gets -32700 and the
 * server goes on; an over-long line gets -32600 and the server goes on. Writes respect
 * backpressure, `console.log` goes to stderr, and the returned promise settles once input
 * has ended (EOF) and every call in flight has been answered. SIGTERM drains: new requests
 * are refused (-32000) while the calls in flight finish, for at most `drainTimeoutMs`.
 *
 * @example
 * import { emcp, mcpServer } from 'emcp'
 * import { serveStdio } from 'emcp/stdio'
 * const echo = emcp({ name: 'echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
 * await serveStdio(mcpServer([echo], { name: 'e', version: '1' }).implement({ echo: ({ text }) => text }))
 */
import type { Readable, Writable } from 'node:stream'
import * as O from 'fp-ts/lib/Option.js'
import type { AnyTool } from '../emcp.js'
import { encode, failure, isRequestId, parse, rpcError, type RequestId } from '../jsonrpc.js'
import type { Server } from '../server.js'
import { outbound, type ServerMessage } from '../outbound.js'
import { abortCall, newSession, type Identity } from '../session.js'
import { defaultDrainTimeoutMs, exitSoon, refusalOf, shuttingDown } from './drain.js'

// ---------------------------------------------------------------------------------------
// model

/** Options of `serveStdio`. */
export interface StdioOptions {
  /** Where messages come from; `process.stdin` by default. */
  readonly input?: Readable
  /** Where answers go; `process.stdout` by default. */
  readonly output?: Writable
  /** The longest line accepted, in bytes (default 32 MiB); longer ones get -32600. */
  readonly maxLineBytes?: number
  /** Calls answered concurrently before reading pauses (default 1024; reading goes on while calls await the client). */
  readonly maxInFlight?: number
  /**
   * While the client does not read stdout, how much waits for it (default 16 MiB): past it,
   * progress and log notifications are dropped. Answers, the server's requests and other
   * notifications always wait (reading has stopped, so no new calls add answers).
   */
  readonly maxQueuedBytes?: number
  /** Send `console.log/info/debug` to stderr while serving (default true with process.stdout). */
  readonly redirectConsole?: boolean
  /**
   * Drain on SIGTERM and SIGINT (default true with process.stdin): answer the calls in
   * flight, refuse new requests with error -32000, then exit with code 0. A second signal
   * ends the drain at once.
   */
  readonly handleSignals?: boolean
  /** The longest a drain waits for calls in flight (default 10 000 ms); those still running are then aborted and answered with an error. */
  readonly drainTimeoutMs?: number
  /**
   * Who is at the other end: stdio has no tokens, so whoever starts the process vouches for
   * its caller (e.g. a local user with the roles the server's `authorize` asks). Anonymous
   * by default.
   */
  readonly identity?: Identity
}

/** A running stdio server. */
export interface StdioServer {
  /** Settles once input ended and every call in flight was answered. */
  readonly done: Promise<void>
  /** Stops reading; calls in flight are still answered. */
  readonly close: () => Promise<void>
  /** Refuses new requests (error -32000) while answering the calls in flight, for at most `drainTimeoutMs`; then stops. */
  readonly drain: () => Promise<void>
}

// ---------------------------------------------------------------------------------------
// constructors

/** Serves `server` over stdio; resolves when input has ended and all answers are written. */
export const serveStdio = <U extends AnyTool>(server: Server<U>, options: StdioOptions = {}): Promise<void> =>
  startStdio(server, options).done

/** Starts serving over stdio and returns a handle to stop it. */
export const startStdio = <U extends AnyTool>(server: Server<U>, options: StdioOptions = {}): StdioServer => {
  const input = options.input ?? process.stdin
  const output = options.output ?? process.stdout
  const maxLineBytes = options.maxLineBytes ?? 32 * 1024 * 1024
  const maxInFlight = options.maxInFlight ?? 1024
  const maxQueuedBytes = options.maxQueuedBytes ?? 16 * 1024 * 1024
  const session = newSession(undefined, outbound((message) => send(JSON.stringify(message), isDroppable(message))))
  session.identity = options.identity
  const restoreConsole = (options.redirectConsole ?? output === process.stdout) ? redirectConsole() : () => {}

  let pending: Buffer[] = []
  let pendingBytes = 0
  let discarding = false
  let inFlight = 0
  let ended = false
  let outputBlocked = false
  // writes the output has accepted but not yet handed on: `done` waits for them
  let unflushed = 0
  let queued: string[] = []
  // what waits while the output is blocked (counted only then: it is the bounded part)
  let heldBytes = 0
  let flushScheduled = false
  let settled = false
  let finish: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    finish = resolve
  })

  let reading = true
  const updateFlow = (): void => {
    if (ended) return
    // calls waiting on the client's answers need input read to go on: the in-flight limit
    // then yields rather than deadlock (the answers are lines like any other)
    const wanted = !outputBlocked && (inFlight < maxInFlight || (session.outbound?.pending() ?? 0) > 0)
    if (wanted === reading) return
    reading = wanted
    if (wanted) input.resume()
    else input.pause()
  }

  const settleIfDone = (): void => {
    if (draining && inFlight === 0 && !ended) stopReading()
    if (settled || !ended || (inFlight > 0 && !forced) || queued.length > 0 || outputBlocked || unflushed > 0) return
    settled = true
    cleanup()
    finish()
  }

  // once the output failed (the client went away: EPIPE), answers have nowhere to go
  let broken = false

  const flush = (): void => {
    flushScheduled = false
    if (broken) queued = []
    // a blocked output is not written to: what waits stays here, where it is bounded, and
    // goes out in one write when the output drains
    if (outputBlocked) return
    heldBytes = 0
    // answers dropped for a broken output may have been all `done` was waiting for
    if (queued.length === 0) return settleIfDone()
    const text = queued.join('')
    queued = []
    unflushed++
    const accepted = output.write(text, () => {
      unflushed--
      settleIfDone()
    })
    if (!accepted) {
      outputBlocked = true
      updateFlow()
      output.once('drain', () => {
        outputBlocked = false
        updateFlow()
        if (queued.length > 0) flush()
        else settleIfDone()
      })
    }
    settleIfDone()
  }

  const send = (line: string, droppable = false): void => {
    if (outputBlocked) {
      const bytes = Buffer.byteLength(line) + 1
      if (droppable && heldBytes + bytes > maxQueuedBytes) return
      heldBytes += bytes
    }
    queued.push(line + '\n')
    // answers resolved in the same turn go out in one write
    if (!flushScheduled) {
      flushScheduled = true
      process.nextTick(flush)
    }
  }

  const handleLine = (line: string): void => {
    if (line.trim() === '') return
    if (draining) {
      const parsed = parse(line)
      const refusal = parsed._tag === 'Right' ? refusalOf(parsed.right) : undefined
      if (refusal !== undefined) return send(encode(refusal))
    }
    inFlight++
    updateFlow()
    server.dispatchText(line, session)().then(answered, crashed)
  }

  const answered = (out: O.Option<string>): void => {
    if (O.isSome(out)) send(out.value)
    inFlight--
    updateFlow()
    settleIfDone()
  }

  const crashed = (e: unknown): void =>
    answered(O.some(encode(failure(null, rpcError('InternalError', `Internal error: ${String(e)}`)))))

  // an over-long line is skipped up to its newline; its edges are kept to find its id
  let overflowHead = ''
  let overflowTail: Buffer = Buffer.alloc(0)

  const startOverflow = (seen: ReadonlyArray<Buffer>): void => {
    discarding = true
    overflowHead = firstBytes(seen, edgeBytes).toString('utf8')
    overflowTail = Buffer.concat(seen.map((b) => b.subarray(-edgeBytes))).subarray(-edgeBytes)
  }

  const endOverflow = (): void => {
    discarding = false
    const id = idOfOversized(overflowHead, overflowTail.toString('utf8'))
    overflowHead = ''
    overflowTail = Buffer.alloc(0)
    send(encode(failure(id, rpcError('InvalidRequest', `Invalid Request: message exceeds the limit of ${maxLineBytes} bytes`))))
  }

  const onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    // lines are read by offset: the common line (whole in one chunk) makes no Buffer view
    let start = 0
    let nl = buf.indexOf(10)
    while (nl !== -1) {
      if (!discarding && pendingBytes + (nl - start) > maxLineBytes) startOverflow([...pending, buf.subarray(start, nl)])
      else if (discarding) overflowTail = Buffer.concat([overflowTail, buf.subarray(Math.max(start, nl - edgeBytes), nl)]).subarray(-edgeBytes)
      if (discarding) endOverflow()
      else if (pendingBytes === 0) handleLine(stripCR(buf.toString('utf8', start, nl)))
      else handleLine(stripCR(Buffer.concat([...pending, buf.subarray(start, nl)]).toString('utf8')))
      if (pending.length > 0) {
        pending = []
        pendingBytes = 0
      }
      start = nl + 1
      nl = buf.indexOf(10, start)
    }
    if (start === buf.length) return
    const rest = start === 0 ? buf : buf.subarray(start)
    if (discarding) {
      overflowTail = Buffer.concat([overflowTail, rest.subarray(-edgeBytes)]).subarray(-edgeBytes)
      return
    }
    if (pendingBytes + rest.length > maxLineBytes) {
      // stop buffering at once; the answer goes out when the line ends, and the server goes on
      startOverflow([...pending, rest])
      pending = []
      pendingBytes = 0
      return
    }
    pending.push(rest)
    pendingBytes += rest.length
  }

  const onEnd = (): void => {
    if (ended) return
    // no answer to our own requests can arrive any more: let the handlers waiting on them go on
    session.outbound?.close('the client closed the connection')
    if (discarding) endOverflow()
    else if (pendingBytes > 0) handleLine(stripCR(Buffer.concat(pending).toString('utf8')))
    pending = []
    pendingBytes = 0
    ended = true
    settleIfDone()
  }

  const stopReading = (): void => {
    input.pause()
    onEnd()
  }

  // a drain keeps reading, so that requests are refused and the client's answers still arrive
  let draining = false
  let forced = false
  let drainTimer: NodeJS.Timeout | undefined
  const drain = (): Promise<void> => {
    if (!draining && !ended) {
      draining = true
      drainTimer = setTimeout(force, options.drainTimeoutMs ?? defaultDrainTimeoutMs)
      settleIfDone()
    }
    return done
  }
  /** The drain's deadline: calls still running are aborted and answered, and the transport lets go. */
  const force = (): void => {
    if (forced) return
    forced = true
    for (const id of [...session.inFlight.keys()]) {
      abortCall(session, id, new DOMException(shuttingDown, 'AbortError'))
      send(encode(failure(id, rpcError('Refused', `${shuttingDown}: the call did not finish within the drain timeout`))))
    }
    stopReading()
    settleIfDone()
  }
  const onSignal = (): void => {
    if (draining) force()
    else void drain().then(() => exitSoon())
  }

  const onInputError = (): void => stopReading()

  const onOutputError = (): void => {
    broken = true
    queued = []
    heldBytes = 0
    unflushed = 0
    outputBlocked = false
    stopReading()
    settleIfDone()
  }

  const handleSignals = options.handleSignals ?? input === process.stdin
  // every listener this transport adds, so that cleanup removes exactly those
  const listeners: ReadonlyArray<readonly [NodeJS.EventEmitter, string, (...args: any[]) => void]> = [
    [input, 'data', onData],
    [input, 'end', onEnd],
    [input, 'close', onEnd],
    [input, 'error', onInputError],
    [output, 'error', onOutputError],
    ...(handleSignals ? ([[process, 'SIGTERM', onSignal], [process, 'SIGINT', onSignal]] as const) : []),
  ]
  const cleanup = (): void => {
    clearTimeout(drainTimer)
    for (const [emitter, event, listener] of listeners) emitter.off(event, listener)
    session.outbound?.close('the stdio connection ended')
    server.release(session)
    if (input === process.stdin) input.pause()
    restoreConsole()
  }

  for (const [emitter, event, listener] of listeners) emitter.on(event, listener)
  input.resume()

  return {
    done,
    close: () => {
      stopReading()
      return done
    },
    drain,
  }
}

// ---------------------------------------------------------------------------------------
// internals

/** How much of each end of an over-long line is kept to look for its id. */
const edgeBytes = 4096

const quotedOrInteger = '(-?\\d+|"(?:[^"\\\\]|\\\\.)*")'
/** `{"id": 7, ...` or `{"jsonrpc": "2.0", "id": 7, ...`: the id as the first member. */
const leadingId = new RegExp(`^\\s*\\{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?"id"\\s*:\\s*${quotedOrInteger}`)
/** `..., "id": 7}`: the id as the last member of the top-level object. */
const trailingId = new RegExp(`,\\s*"id"\\s*:\\s*${quotedOrInteger}\\s*\\}\\s*$`)

/**
 * The id of a line too long to parse, when it can be read safely: only where it must be the
 * top-level id (first or last member). Otherwise null, as for any unreadable request.
 */
const idOfOversized = (head: string, tail: string): RequestId | null => {
  const found = leadingId.exec(head)?.[1] ?? trailingId.exec(tail)?.[1]
  if (found === undefined) return null
  try {
    const id: unknown = JSON.parse(found)
    return isRequestId(id) ? id : null
  } catch {
    return null
  }
}

/** The first `n` bytes of a sequence of chunks, however small the chunks are. */
const firstBytes = (chunks: ReadonlyArray<Buffer>, n: number): Buffer => {
  const taken: Buffer[] = []
  let size = 0
  for (const c of chunks) {
    if (size >= n) break
    taken.push(c.subarray(0, n - size))
    size += Math.min(c.length, n - size)
  }
  return Buffer.concat(taken)
}

/** Progress and log notifications: a client that reads again later can do without the ones it missed. */
const isDroppable = (message: ServerMessage): boolean =>
  !('id' in message) && (message.method === 'notifications/progress' || message.method === 'notifications/message')

const stripCR = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line)

/** Points console.log/info/debug at stderr so that stdout carries only protocol messages. */
const redirectConsole = (): (() => void) => {
  const saved = { log: console.log, info: console.info, debug: console.debug }
  console.log = console.info = console.debug = console.error
  return () => Object.assign(console, saved)
}
