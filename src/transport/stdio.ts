/// <reference types="node" preserve="true" />
/**
 * The stdio transport: newline-delimited JSON-RPC over a pair of streams (stdin/stdout by
 * default). This file is its lifecycle (flow control, end of input, drain, signals); the
 * line framer (stdio/framer.ts) and the output queue (stdio/output-queue.ts) are its parts. Partial lines and CRLF are fine; a garbage line gets -32700 and the
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
import type { InspectOptions } from 'node:util'
import * as O from 'fp-ts/lib/Option.js'
import type { AnyTool } from '../contract/emcp.js'
import { encode, failure, parse, rpcError } from '../protocol/jsonrpc.js'
import type { Server } from '../server/server.js'
import { outbound, type ServerMessage } from '../server/outbound.js'
import { abortCall, newSession, type Identity, type Session } from '../server/session.js'
import { defaultDrainTimeoutMs, exitSoon, refusalOf, shuttingDown } from './drain.js'
import { heldByLoader } from './loading.js'
import { isThenable, map, type Eventually } from '../util/eventually.js'
import { innerOf } from '../server/inner.js'
import { lineFramer } from './stdio/framer.js'
import { outputQueue, type OutputQueue } from './stdio/output-queue.js'

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
  // a module loaded by the emcp command line serves through the command, not on its stdin
  const held = heldByLoader(server as Server)
  if (held !== undefined) return { done: held, close: () => Promise.resolve(), drain: () => Promise.resolve() }
  const input = options.input ?? process.stdin
  const output = options.output ?? process.stdout
  const restoreConsole = (options.redirectConsole ?? output === process.stdout) ? redirectConsole() : () => {}
  let detach = (): void => {}
  const c = connection(server, input, output, options, () => {
    detach()
    restoreConsole()
  })
  const handleSignals = options.handleSignals ?? input === process.stdin
  // every listener this transport adds, so that the end removes exactly those
  const listeners: ReadonlyArray<readonly [NodeJS.EventEmitter, string, (...args: any[]) => void]> = [
    [input, 'data', c.onData],
    [input, 'end', c.onEnd],
    [input, 'close', c.onEnd],
    [input, 'error', c.close],
    [output, 'error', c.onOutputError],
    ...(handleSignals ? ([[process, 'SIGTERM', c.onSignal], [process, 'SIGINT', c.onSignal]] as const) : []),
  ]
  for (const [emitter, event, listener] of listeners) emitter.on(event, listener)
  detach = () => {
    for (const [emitter, event, listener] of listeners) emitter.off(event, listener)
  }
  input.resume()
  return { done: c.done, close: c.close, drain: c.drain }
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * One stdio connection: lines from the framer are dispatched (at most `maxInFlight` at once),
 * answers go through the output queue, and reading follows both; `done` settles once input
 * ended and every answer is written, and then `ended` runs.
 */
const connection = <U extends AnyTool>(server: Server<U>, input: Readable, output: Writable, options: StdioOptions, ended: () => void) => {
  const maxLineBytes = options.maxLineBytes ?? 32 * 1024 * 1024
  const maxInFlight = options.maxInFlight ?? 1024
  const state = { inFlight: 0, ended: false, reading: true, settled: false, draining: false, forced: false }
  let finish: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    finish = resolve
  })
  const queue: OutputQueue = outputQueue(output, options.maxQueuedBytes ?? 16 * 1024 * 1024, { blocked: () => updateFlow(), settled: () => settleIfDone() })
  const send = queue.send
  const session = newSession(undefined, outbound((message) => send(JSON.stringify(message), isDroppable(message))), { transport: 'stdio' })
  session.identity = options.identity

  const updateFlow = (): void => {
    if (state.ended) return
    // calls waiting on the client's answers need input read to go on: the in-flight limit
    // then yields rather than deadlock (the answers are lines like any other)
    const wanted = !queue.isBlocked() && (state.inFlight < maxInFlight || (session.outbound?.pending() ?? 0) > 0)
    if (wanted === state.reading) return
    state.reading = wanted
    if (wanted) input.resume()
    else input.pause()
  }

  const settleIfDone = (): void => {
    if (state.draining && state.inFlight === 0 && !state.ended) stopReading()
    if (state.settled || !state.ended || (state.inFlight > 0 && !state.forced) || !queue.isIdle()) return
    state.settled = true
    drainer.cancel()
    session.outbound?.close('the stdio connection ended')
    server.release(session)
    if (input === process.stdin) input.pause()
    ended()
    finish()
  }

  const answer = lineAnswerer(server)
  const answered = (out: string | undefined): void => {
    if (out !== undefined) send(out)
    state.inFlight--
    updateFlow()
    settleIfDone()
  }
  const crashed = (e: unknown): void => answered(encode(failure(null, rpcError('InternalError', `Internal error: ${String(e)}`))))

  const framer = lineFramer(maxLineBytes, {
    line: (line) => {
      if (line.trim() === '') return
      const refusal = state.draining ? refusalOfLine(line) : undefined
      if (refusal !== undefined) return send(refusal)
      state.inFlight++
      updateFlow()
      answerLine(answer, line, session, answered, crashed)
    },
    oversized: (id) => send(encode(failure(id, rpcError('InvalidRequest', `Invalid Request: message exceeds the limit of ${maxLineBytes} bytes`)))),
  })

  const onEnd = (): void => {
    if (state.ended) return
    // no answer to our own requests can arrive any more: let the handlers waiting on them go on
    session.outbound?.close('the client closed the connection')
    framer.end()
    state.ended = true
    settleIfDone()
  }
  const stopReading = (): void => {
    input.pause()
    onEnd()
  }

  // a drain keeps reading, so that requests are refused and the client's answers still arrive
  const drainer = drainControl(session, options.drainTimeoutMs ?? defaultDrainTimeoutMs, {
    start: () => !state.draining && !state.ended && (state.draining = true),
    settle: settleIfDone,
    force: () => {
      state.forced = true
      stopReading()
      settleIfDone()
    },
    send,
    done,
  })

  return {
    done,
    onData: (chunk: Buffer | string): void => framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
    onEnd,
    onOutputError: (): void => {
      queue.fail()
      stopReading()
      settleIfDone()
    },
    onSignal: drainer.onSignal,
    drain: drainer.drain,
    close: (): Promise<void> => {
      stopReading()
      return done
    },
  }
}

/** How a connection answers one line: the server's text path when it has one (no Option per line), else `answerText`. */
const lineAnswerer = (server: Server): ((line: string, session: Session) => Eventually<string | undefined>) => {
  const own = innerOf(server)?.answerLine
  return own ?? ((line, session) => map(server.answerText(line, session), (o) => (O.isSome(o) ? o.value : undefined)))
}

/** Answers one line: at once when the handler is synchronous (no promise, no microtask per call), else when it settles. */
const answerLine = (
  answer: (line: string, session: Session) => Eventually<string | undefined>,
  line: string,
  session: Session,
  answered: (out: string | undefined) => void,
  crashed: (e: unknown) => void,
): void => {
  let out: Eventually<string | undefined>
  try {
    out = answer(line, session)
  } catch (e) {
    return crashed(e)
  }
  if (isThenable(out)) out.then(answered, crashed)
  else answered(out)
}

/** What the drain asks of the lifecycle. */
interface DrainHooks {
  /** Starts draining; false when already draining or ended. */
  readonly start: () => boolean
  /** Lets the lifecycle end if nothing is in flight. */
  readonly settle: () => void
  /** The deadline passed: stop reading and let go. */
  readonly force: () => void
  readonly send: (line: string) => void
  readonly done: Promise<void>
}

/**
 * The drain: new requests are refused while the calls in flight finish, for at most
 * `timeoutMs`; then the calls still running are aborted and answered. A signal starts a
 * drain and exits once it is done; a second signal ends it at once.
 */
const drainControl = (session: Session, timeoutMs: number, hooks: DrainHooks) => {
  let timer: NodeJS.Timeout | undefined
  let forced = false
  const force = (): void => {
    if (forced) return
    forced = true
    for (const id of [...session.inFlight.keys()]) {
      abortCall(session, id, new DOMException(shuttingDown, 'AbortError'))
      hooks.send(encode(failure(id, rpcError('Refused', `${shuttingDown}: the call did not finish within the drain timeout`))))
    }
    hooks.force()
  }
  const drain = (): Promise<void> => {
    if (timer === undefined && hooks.start()) {
      // the deadline first: settling may end everything at once, and clears it then
      timer = setTimeout(force, timeoutMs)
      hooks.settle()
    }
    return hooks.done
  }
  const onSignal = (): void => {
    if (timer !== undefined) force()
    else void drain().then(() => exitSoon())
  }
  return { drain, onSignal, cancel: () => clearTimeout(timer) }
}

/** While draining: the refusal of a line that is a request, as the line to send; undefined for anything else. */
const refusalOfLine = (line: string): string | undefined => {
  const parsed = parse(line)
  const refusal = parsed._tag === 'Right' ? refusalOf(parsed.right) : undefined
  return refusal === undefined ? undefined : encode(refusal)
}

/** Progress and log notifications: a client that reads again later can do without the ones it missed. */
const isDroppable = (message: ServerMessage): boolean =>
  !('id' in message) && (message.method === 'notifications/progress' || message.method === 'notifications/message')

/**
 * Points console.log/info/debug (and dirxml and table, which print through log) at stderr so
 * that stdout carries only protocol messages; console.dir too, which writes to stdout itself
 * (the OpenTelemetry console exporters print with it).
 */
const redirectConsole = (): (() => void) => {
  const saved = { log: console.log, info: console.info, debug: console.debug, dir: console.dir }
  console.log = console.info = console.debug = console.error
  console.dir = (item: unknown, options?: InspectOptions) => {
    const inspect = inspectOf()
    if (inspect === undefined) console.error(item)
    else console.error(inspect(item, { customInspect: false, ...options }))
  }
  return () => Object.assign(console, saved)
}

/**
 * node:util's inspect, taken when console.dir is called rather than imported: this module sits
 * in the core bundle, which Workers load too, where a static `node:util` would need
 * nodejs_compat. Node before 20.16 has no getBuiltinModule: console.error formats it there.
 */
const inspectOf = (): ((item: unknown, options: InspectOptions) => string) | undefined => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  return typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule('node:util') as typeof import('node:util')).inspect : undefined
}
