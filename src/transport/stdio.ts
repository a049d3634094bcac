/**
 * The stdio transport: newline-delimited JSON-RPC over a pair of streams (stdin/stdout by
 * default), framing only. Partial lines and CRLF are fine; a garbage line gets -32700 and the
 * server goes on; an over-long line gets -32600 and the server goes on. Writes respect
 * backpressure, `console.log` goes to stderr, and the returned promise settles once input
 * has ended (EOF or SIGTERM) and every call in flight has been answered.
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
import { encode, failure, rpcError } from '../jsonrpc.js'
import type { Server } from '../server.js'
import { newSession } from '../session.js'

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
  /** Calls answered concurrently before reading pauses (default 1024). */
  readonly maxInFlight?: number
  /** Send `console.log/info/debug` to stderr while serving (default true with process.stdout). */
  readonly redirectConsole?: boolean
  /** Stop reading and drain on SIGTERM and SIGINT (default true with process.stdin). */
  readonly handleSignals?: boolean
}

/** A running stdio server. */
export interface StdioServer {
  /** Settles once input ended and every call in flight was answered. */
  readonly done: Promise<void>
  /** Stops reading; calls in flight are still answered. */
  readonly close: () => Promise<void>
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
  const session = newSession()
  const restoreConsole = (options.redirectConsole ?? output === process.stdout) ? redirectConsole() : () => {}

  let pending: Buffer[] = []
  let pendingBytes = 0
  let discarding = false
  let inFlight = 0
  let ended = false
  let outputBlocked = false
  let queued: string[] = []
  let flushScheduled = false
  let finish: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    finish = resolve
  })

  const updateFlow = (): void => {
    if (ended) return
    if (outputBlocked || inFlight >= maxInFlight) input.pause()
    else input.resume()
  }

  const settleIfDone = (): void => {
    if (!ended || inFlight > 0 || queued.length > 0 || outputBlocked) return
    cleanup()
    finish()
  }

  const flush = (): void => {
    flushScheduled = false
    if (queued.length === 0) return
    const text = queued.join('')
    queued = []
    if (!output.write(text)) {
      outputBlocked = true
      updateFlow()
      output.once('drain', () => {
        outputBlocked = false
        updateFlow()
        settleIfDone()
      })
    }
    settleIfDone()
  }

  const send = (line: string): void => {
    queued.push(line + '\n')
    // answers resolved in the same turn go out in one write
    if (!flushScheduled) {
      flushScheduled = true
      process.nextTick(flush)
    }
  }

  const handleLine = (line: string): void => {
    if (line.trim() === '') return
    inFlight++
    updateFlow()
    server
      .dispatchText(line, session)()
      .then((out) => {
        if (O.isSome(out)) send(out.value)
      })
      .catch((e: unknown) => send(encode(failure(null, rpcError('InternalError', `Internal error: ${String(e)}`)))))
      .finally(() => {
        inFlight--
        updateFlow()
        settleIfDone()
      })
  }

  const tooLong = (): void =>
    send(encode(failure(null, rpcError('InvalidRequest', `Invalid Request: message exceeds the limit of ${maxLineBytes} bytes`))))

  const onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    let nl = buf.indexOf(10)
    while (nl !== -1) {
      if (discarding) discarding = false
      else if (pendingBytes + nl > maxLineBytes) tooLong()
      else {
        const head = buf.subarray(0, nl)
        const bytes = pendingBytes === 0 ? head : Buffer.concat([...pending, head])
        handleLine(stripCR(bytes.toString('utf8')))
      }
      pending = []
      pendingBytes = 0
      buf = buf.subarray(nl + 1)
      nl = buf.indexOf(10)
    }
    if (buf.length === 0 || discarding) return
    if (pendingBytes + buf.length > maxLineBytes) {
      // answer at once and skip to the next newline; the server goes on
      tooLong()
      pending = []
      pendingBytes = 0
      discarding = true
      return
    }
    pending.push(buf)
    pendingBytes += buf.length
  }

  const onEnd = (): void => {
    if (ended) return
    if (pendingBytes > 0 && !discarding) handleLine(stripCR(Buffer.concat(pending).toString('utf8')))
    pending = []
    pendingBytes = 0
    ended = true
    settleIfDone()
  }

  const onSignal = (): void => {
    input.pause()
    onEnd()
  }

  const handleSignals = options.handleSignals ?? input === process.stdin
  const cleanup = (): void => {
    input.off('data', onData)
    input.off('end', onEnd)
    input.off('close', onEnd)
    if (handleSignals) {
      process.off('SIGTERM', onSignal)
      process.off('SIGINT', onSignal)
    }
    if (input === process.stdin) input.pause()
    restoreConsole()
  }

  input.on('data', onData)
  input.on('end', onEnd)
  input.on('close', onEnd)
  if (handleSignals) {
    process.on('SIGTERM', onSignal)
    process.on('SIGINT', onSignal)
  }
  input.resume()

  return {
    done,
    close: () => {
      onSignal()
      return done
    },
  }
}

// ---------------------------------------------------------------------------------------
// internals

const stripCR = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line)

/** Points console.log/info/debug at stderr so that stdout carries only protocol messages. */
const redirectConsole = (): (() => void) => {
  const saved = { log: console.log, info: console.info, debug: console.debug }
  console.log = console.info = console.debug = console.error
  return () => Object.assign(console, saved)
}
