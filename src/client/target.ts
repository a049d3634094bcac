/**
 * Where the typed client connects: a URL (Streamable HTTP), a command (stdio: the client
 * starts the server process and ends it on close), or a server value (in memory: served over
 * a pair of streams in this process, through the same stdio transport, so elicitation,
 * progress and cancellation behave as they do across a process boundary).
 *
 * @example
 * import { connect } from 'emcp/client'
 * const c = await connect({ command: 'node', args: ['dist/examples/calculator.js'] })
 * await c.close()
 */
import { PassThrough } from 'node:stream'
import { ReadBuffer, serializeMessage, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import type { AnyTool } from '../contract/emcp.js'
import type { Server } from '../server/server.js'
import { startStdio } from '../transport/stdio.js'
import type { Authorizer } from './auth.js'
import { boundedFetch, guarded, type Limits } from './bounds.js'

/** A server process the client starts and talks to over stdio. */
export interface Command {
  readonly command: string
  readonly args?: ReadonlyArray<string>
  /** Its environment, added to the SDK's safe defaults (PATH, HOME, ...); the rest of this process's is not passed on. */
  readonly env?: { readonly [name: string]: string }
  readonly cwd?: string
  /** Where the server's stderr goes (default `inherit`). */
  readonly stderr?: 'inherit' | 'pipe' | 'ignore'
}

/** A URL, a command, or a server value. */
export type Target = string | URL | Command | Server<AnyTool>

/** True for a server value (it has a dispatcher). */
const isServer = (target: Target): target is Server<AnyTool> => typeof target === 'object' && 'dispatch' in target && typeof target.dispatch === 'function'

/** HTTP options that reach the transport. */
export interface HttpParts {
  readonly authorizer?: Authorizer
  readonly headers?: { readonly [name: string]: string }
  readonly fetch?: typeof fetch
}

/** A fresh SDK transport for `target` (one per connection attempt), what it receives bounded by `limits`. */
export const transportFor = (target: Target, http: HttpParts, limits: Limits): Transport => guarded(rawTransport(target, http, limits), limits)

const rawTransport = (target: Target, http: HttpParts, limits: Limits): Transport => {
  if (typeof target === 'string' || target instanceof URL) {
    const url = new URL(target)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`emcp/client: an MCP URL is http: or https:, not ${url.protocol}`)
    return new StreamableHTTPClientTransport(url, {
      ...(http.authorizer === undefined ? {} : { authProvider: http.authorizer.provider }),
      ...(http.headers === undefined ? {} : { requestInit: { headers: { ...http.headers } } }),
      // every answer read up to limits.maxAnswerBytes, whichever fetch carries it
      fetch: boundedFetch(limits, http.fetch ?? ((input, init) => fetch(input, init))),
    })
  }
  if (isServer(target)) return memoryTransport(target)
  if (typeof target.command !== 'string' || target.command === '') throw new TypeError('emcp/client: a stdio target needs a command')
  return new StdioClientTransport({
    command: target.command,
    args: [...(target.args ?? [])],
    // the SDK adds these to its safe defaults (PATH, HOME, ...): no other variable of this process leaks to the server
    ...(target.env === undefined ? {} : { env: { ...target.env } }),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    stderr: target.stderr ?? 'inherit',
    // one line (one message) past the limit is refused; a pipe chunk (64 KiB) may sit beside it
    maxBufferSize: limits.maxAnswerBytes + 65_536,
  })
}

/** Finishes an authorization code flow on the transport that was refused. */
export const finishAuth = async (transport: Transport, code: string | URLSearchParams): Promise<void> => {
  if (!(transport instanceof StreamableHTTPClientTransport)) throw new Error('emcp/client: authorization applies to HTTP connections only')
  await (typeof code === 'string' ? transport.finishAuth(code) : transport.finishAuth(code))
}

/** An SDK transport over `server` served by the stdio transport on a pair of in-process streams. */
const memoryTransport = (server: Server<AnyTool>): Transport => {
  const toServer = new PassThrough()
  const fromServer = new PassThrough()
  const buffer = new ReadBuffer()
  let running: ReturnType<typeof startStdio> | undefined
  const transport: Transport = {
    start: async () => {
      running = startStdio(server, { input: toServer, output: fromServer, redirectConsole: false, handleSignals: false })
      // one message per turn of the event loop, as from a process: the SDK handles a
      // notification a few ticks after it arrives, and a response read in the same turn
      // would otherwise end the call (and drop its progress handler) first
      const deliver = (): void => {
        const m = buffer.readMessage()
        if (m === null) return
        transport.onmessage?.(m)
        setImmediate(deliver)
      }
      fromServer.on('data', (chunk: Buffer) => {
        buffer.append(chunk)
        setImmediate(deliver)
      })
      void running.done.then(() => transport.onclose?.())
    },
    send: async (message: JSONRPCMessage) => {
      toServer.write(serializeMessage(message))
    },
    close: async () => {
      toServer.end()
      await running?.done
    },
  }
  return transport
}
