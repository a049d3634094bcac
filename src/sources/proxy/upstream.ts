/**
 * The upstream of a proxy: one connection to a remote MCP server, over Streamable HTTP (a
 * URL) or stdio (a command), made with the official SDK client (`@modelcontextprotocol/client`,
 * an optional peer). Why that client and not one of emcp's own: it already speaks both eras
 * (`versionNegotiation: 'auto'` probes with `server/discover` and falls back to `initialize`),
 * fulfils 2026-07-28 `input_required` rounds through the same request handlers that answer
 * 2025-11-25 server-to-client requests, resumes SSE streams, and does OAuth client
 * credentials; writing those again would be a second, less tested copy. The connection is
 * made on first use and made again after it is lost: a call that finds the upstream down
 * fails at once (it is never queued), and the next one tries again.
 *
 * @example
 * import { upstream } from 'emcp/proxy'
 * const up = upstream({ url: 'http://127.0.0.1:3000/mcp' }, { auth: { bearer: 'token' } })
 * const client = await up.client() // connected; up.close() ends it
 */
import type { Client, Transport } from '@modelcontextprotocol/client'
import { sdk } from './sdk.js'
import { tasksExtension } from '../../features/tasks/extension.js'
import { redactedUrl } from '../../util/redacted-url.js'
import { boundedFetch, guarded, limitsOf, type Limits, type UpstreamLimits } from '../../client/bounds.js'

// ---------------------------------------------------------------------------------------
// model

/** Where the upstream server is: a Streamable HTTP URL, or a command that speaks stdio. */
export type UpstreamTarget =
  | { readonly url: string | URL; readonly headers?: { readonly [name: string]: string } }
  | { readonly command: string; readonly args?: ReadonlyArray<string>; readonly env?: { readonly [name: string]: string }; readonly cwd?: string }

/** How the proxy authenticates to an HTTP upstream. */
export type UpstreamAuth =
  /** A bearer token, fixed or fetched before each request (a function: rotate it there). */
  | { readonly bearer: string | (() => string | undefined | Promise<string | undefined>) }
  /** OAuth 2.1 client credentials (client_secret_basic), at the authorization server the upstream names. */
  | {
      readonly clientCredentials: {
        readonly clientId: string
        readonly clientSecret: string
        readonly scope?: string
        /** The issuer the credentials belong to: they are sent to no other authorization server. */
        readonly issuer?: string
      }
    }

/** How the upstream connection is made. */
export interface UpstreamOptions {
  readonly auth?: UpstreamAuth
  /** Who the proxy says it is to the upstream (default `emcp-proxy`). */
  readonly clientInfo?: { readonly name: string; readonly version: string }
  /**
   * The era asked for first (default `2026-07-28`); the other is asked for when the upstream
   * refuses it. Reached the 2026 way, a server of both eras keeps the keys of its
   * `input_required` questions through the proxy, and its tasks extension can be relayed;
   * `2025-11-25` first suits servers whose 2026 support is not to be relied on.
   */
  readonly prefer?: '2025-11-25' | '2026-07-28'
  /** What the upstream may send back: answer size, depth, list pages, waiting time (defaults in docs/composition.md). */
  readonly limits?: UpstreamLimits
  /** The longest the connection (handshake included) may take, in milliseconds (default 10 000). */
  readonly connectTimeoutMs?: number
  /** Called with each new connection, before any request uses it (the proxy sets up its relays here). */
  readonly onConnect?: (client: Client) => void | Promise<void>
  /** Called with each new connection once it is made (not awaited): the proxy lists the tools again after a reconnection. */
  readonly onConnected?: (client: Client) => void
  /** Called when a connection is lost, with the reason. */
  readonly onLost?: (reason: string) => void
  /** Wraps each transport before the client uses it (the proxy taps what the SDK client cannot take: tasks). */
  readonly wrapTransport?: (transport: Transport) => Transport
}

/** A connection to the upstream, made on demand and made again once lost. */
export interface Upstream {
  /** A connected client: the current one, or a new connection (rejects with a readable `UpstreamDown`). */
  readonly client: () => Promise<Client>
  /** Forgets the current connection (after a failure that says it is gone); the next `client()` connects again. */
  readonly reset: (reason: string) => void
  /** Where the upstream is, without credentials, for messages. */
  readonly label: string
  /** The bounds on what the upstream sends back, defaults filled in. */
  readonly limits: Limits
  /** Ends the connection (and a stdio upstream's process); later calls of `client()` reject. */
  readonly close: () => Promise<void>
}

/** The upstream cannot be reached: the message says which and why. */
export class UpstreamDown extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UpstreamDown'
  }
}

// ---------------------------------------------------------------------------------------
// constructors

/** The upstream at `target`; nothing connects until the first `client()`. */
export const upstream = (target: UpstreamTarget, options: UpstreamOptions = {}): Upstream => {
  const label = labelOf(target)
  const limits = limitsOf(options.limits)
  let current: Promise<Client> | undefined
  // the connected client `current` holds, once it is connected
  let live: Client | undefined
  let closed = false
  const reset = (reason: string): void => {
    const was = current
    if (was === undefined) return
    current = undefined
    live = undefined
    options.onLost?.(reason)
    void was.then((c) => c.close()).catch(() => {})
  }
  const attempt = async (mode: 'legacy' | { pin: string }): Promise<Client> => {
    const client = new sdk.Client(
      { name: options.clientInfo?.name ?? 'emcp-proxy', version: options.clientInfo?.version ?? '0.1.0' },
      // the tasks extension, so that a listen stream may name task ids; each tools/call says for
      // itself whether its client can take a task (meta.ts), overriding these
      { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true }, extensions: { [tasksExtension]: {} } }, versionNegotiation: { mode }, listMaxPages: limits.maxListPages },
    )
    await options.onConnect?.(client)
    try {
      // a connection whose stream broke on a limit is forgotten at once: the next request connects again
      const broken = (reason: string): void => void (live === client && reset(reason))
      const transport = guarded(transportOf(target, options.auth, limits), limits, broken)
      await client.connect(options.wrapTransport?.(transport) ?? transport, { timeout: options.connectTimeoutMs ?? 10_000 })
      return client
    } catch (e) {
      await client.close().catch(() => {})
      throw e
    }
  }
  // 2026-07-28 first (unless `prefer` says otherwise): its questions keep the keys the upstream
  // chose, and its extensions (tasks) pass; a server that refuses it is asked for 2025-11-25
  const eras = options.prefer === '2025-11-25' ? (['2025-11-25', '2026-07-28'] as const) : (['2026-07-28', '2025-11-25'] as const)
  const connect = async (): Promise<Client> => {
    const modeOf = (era: string) => (era === '2025-11-25' ? ('legacy' as const) : { pin: era })
    try {
      return await attempt(modeOf(eras[0]))
    } catch (first) {
      if (unreachable(first)) throw new UpstreamDown(`the upstream MCP server ${label} cannot be reached: ${reasonOf(first)}`)
      try {
        return await attempt(modeOf(eras[1]))
      } catch (second) {
        throw new UpstreamDown(`the upstream MCP server ${label} cannot be reached: ${reasonOf(first)} (as ${eras[0]}); ${reasonOf(second)} (as ${eras[1]})`)
      }
    }
  }
  return {
    label,
    limits,
    reset,
    client: () => {
      if (closed) return Promise.reject(new UpstreamDown(`the proxy of ${label} is closed`))
      if (current === undefined) {
        const made = connect()
        current = made
        made.then(
          (client) => {
            if (current === made) live = client
            // a connection that ends by itself (the stdio process exited) is made again on the next use
            client.onclose = () => {
              if (current === made) reset('the connection closed')
            }
            if (current === made) options.onConnected?.(client)
          },
          // a failed attempt is not kept: the next call tries again
          () => {
            if (current === made) current = undefined
          },
        )
      }
      return current
    },
    close: async () => {
      closed = true
      const was = current
      current = undefined
      await was?.then((c) => c.close()).catch(() => {})
    },
  }
}

// ---------------------------------------------------------------------------------------
// functions

/** A readable reason for a failure of the upstream or of the way to it. */
export const reasonOf = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  const code = codeOf((e as { cause?: unknown }).cause)
  return code === undefined ? e.message : `${e.message} (${code})`
}

// ---------------------------------------------------------------------------------------
// internals

/** A failure to reach the server at all (refused, no such host, reset): trying another era would not help. */
const unreachable = (e: unknown): boolean => {
  const code = codeOf(e)
  return code !== undefined && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|ENOENT|EACCES|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT)$/.test(code)
}

/** The system error code of a failure or of one of its causes (the SDK's version probe wraps fetch's, which wraps the socket's), if any. */
const codeOf = (e: unknown): string | undefined => {
  for (let at = e, depth = 0; at !== null && typeof at === 'object' && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code
    if (typeof code === 'string' && systemCode.test(code)) return code
  }
  return undefined
}

/** A Node system error code (ECONNREFUSED) or undici's (UND_ERR_SOCKET), not an SDK's own. */
const systemCode = /^(E[A-Z0-9]+|UND_ERR_[A-Z_]+)$/

const labelOf = (target: UpstreamTarget): string =>
  'url' in target ? redactedUrl(String(target.url)) : [target.command, ...(target.args ?? [])].join(' ')

const transportOf = (target: UpstreamTarget, auth: UpstreamAuth | undefined, limits: Limits): Transport => {
  if ('command' in target)
    return new sdk.StdioClientTransport({
      command: target.command,
      args: [...(target.args ?? [])],
      ...(target.env === undefined ? {} : { env: { ...target.env } }),
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      // the upstream's diagnostics go where the proxy's own go
      stderr: 'inherit',
      // one line (one message) past the limit is refused; a pipe chunk (64 KiB) may sit beside it
      maxBufferSize: limits.maxAnswerBytes + 65_536,
    })
  return new sdk.StreamableHTTPClientTransport(new URL(target.url), {
    fetch: boundedFetch(limits),
    ...(target.headers === undefined ? {} : { requestInit: { headers: { ...target.headers } } }),
    ...(auth === undefined ? {} : { authProvider: authProviderOf(auth) }),
  })
}

const authProviderOf = (auth: UpstreamAuth) => {
  if ('bearer' in auth) {
    const { bearer } = auth
    return { token: async () => (typeof bearer === 'string' ? bearer : await bearer()) }
  }
  const { clientId, clientSecret, scope, issuer } = auth.clientCredentials
  return new sdk.ClientCredentialsProvider({ clientId, clientSecret, ...(scope === undefined ? {} : { scope }), ...(issuer === undefined ? {} : { expectedIssuer: issuer }) })
}
