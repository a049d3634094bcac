/**
 * `connect`: the typed client of any MCP server, over Streamable HTTP, stdio or in memory.
 * Its types come from one value (a server, its contracts, or the list `emcp types` writes);
 * its wire work is the official SDK client's (`@modelcontextprotocol/client`, an optional
 * peer): that client already negotiates both eras (`initialize`, or `server/discover` and
 * per-request `_meta`), answers `input_required` rounds through the same handlers as
 * server-to-client requests, runs the OAuth flows (PKCE, discovery, dynamic registration),
 * validates structured results and follows pagination. Writing those again would be a second
 * client to keep in step with the spec; emcp adds the types, the codecs and the errors as data.
 *
 * @example
 * import { connect } from 'emcp/client'
 * import { calculator } from '../../examples/calculator.js'
 * const calc = await connect('http://127.0.0.1:3000/mcp', { contracts: calculator() })
 * const { sum } = await calc.call('add', { a: 1, b: 2 }) // sum: number
 * await calc.close()
 */
import * as E from 'fp-ts/lib/Either.js'
import { Client, ProtocolError, type CreateMessageRequestParams, type CreateMessageResult, type ElicitRequestParams, type ElicitResult, type RequestOptions, type Root } from '@modelcontextprotocol/client'
import type { CallToolResult } from '../contract/content.js'
import type { AnyTool, ListedTool } from '../contract/emcp.js'
import type { AnyPrompt } from '../features/prompts.js'
import { wrapsOutput } from '../protocol/2025-11-25/legacy-output.js'
import { isModernVersion } from '../protocol/versions.js'
import { formatIssues, isCodec, type JsonSchema } from '../schema/schema.js'
import type { Server } from '../server/server.js'
import { RpcCallError, ToolCallError } from '../transport/in-memory.js'
import { authorizer, isUnauthorized, type Auth } from './auth.js'
import { finishAuth, transportFor, type Command, type Target } from './target.js'
import { limitFailure, limitsOf, type Limits } from './bounds.js'
import type { CallOptions, Described, ListedContract, RemoteClient, ToolsOf } from './types.js'

/** Options of `connect`. */
export interface ConnectOptions<S = unknown, P extends AnyPrompt = AnyPrompt> {
  /**
   * The contracts as a value (the server, its tool list, or what `emcp types` wrote): types
   * are then inferred from it, io-ts codecs encode arguments and decode results, and a
   * 2025-11-25 server's wrapped non-object results are unwrapped.
   */
  readonly contracts?: S
  /** The server's prompts as values (`prompt(...)`): `prompts.get` is then typed by their names and arguments. */
  readonly prompts?: ReadonlyArray<P>
  /**
   * The revision to speak: `2026-07-28` (no `initialize`), a 2025 one (`initialize` offering
   * it), or absent: probe with `server/discover` and fall back to `initialize`.
   */
  readonly protocolVersion?: string
  readonly clientInfo?: { readonly name: string; readonly version: string }
  /** Answers the server's elicitation requests (and 2026 `input_required` elicitations); declares the capability. */
  readonly elicit?: (request: ElicitRequestParams) => ElicitResult | Promise<ElicitResult>
  /** Answers the server's sampling requests (and 2026 `input_required` ones); declares the capability. */
  readonly sample?: (request: CreateMessageRequestParams) => CreateMessageResult | Promise<CreateMessageResult>
  /** The roots offered to the server, or a function asked each time; declares the capability. */
  readonly roots?: ReadonlyArray<Root> | (() => ReadonlyArray<Root> | Promise<ReadonlyArray<Root>>)
  /** Called when the server says a list changed (2026: through a `subscriptions/listen` stream opened for it). */
  readonly onListChanged?: { readonly tools?: () => void; readonly prompts?: () => void; readonly resources?: () => void }
  /** HTTP credentials: a bearer token, OAuth client credentials, or an OAuth provider. */
  readonly auth?: Auth
  /** Extra HTTP headers on every request. */
  readonly headers?: { readonly [name: string]: string }
  /** The fetch used for HTTP (tests, proxies). */
  readonly fetch?: typeof fetch
  /** The default time limit of a request (the handshake included), in ms (default 60 000). */
  readonly timeoutMs?: number
  /** The most bytes of one answer (a JSON body, an SSE event, a stdio line; default 16 MiB): past it, the request fails with an `RpcCallError` naming the limit. */
  readonly maxAnswerBytes?: number
  /** How deeply one answer may nest, arrays and objects (default 512): past it, the request fails with an `RpcCallError` naming the limit. */
  readonly maxDepth?: number
  /** The most pages one `list()` follows (default 64). */
  readonly maxListPages?: number
  /** 2026-07-28: how many `input_required` rounds one request may take (default 10). */
  readonly maxInputRounds?: number
}

/** What `connect` needs of a contract at run time. */
interface Known {
  readonly input?: unknown
  readonly output?: unknown
  readonly outputSchema?: JsonSchema
}

/** Connects to an emcp server value in memory; its types and codecs come from it. */
export function connect<S extends Server<AnyTool>, P extends AnyPrompt = AnyPrompt>(server: S, options?: ConnectOptions<S, P>): Promise<RemoteClient<ToolsOf<S>, P>>
/** Connects to a URL or a command; typed by `S` (`typeof server`, or `emcp types`' list), given or inferred from `contracts`. */
export function connect<S extends Described = ReadonlyArray<AnyTool>, P extends AnyPrompt = AnyPrompt>(target: string | URL | Command, options?: ConnectOptions<S, P>): Promise<RemoteClient<ToolsOf<S>, P>>
export async function connect(target: Target, options: ConnectOptions<unknown> = {}): Promise<RemoteClient<AnyTool>> {
  const given = options.contracts ?? (typeof target === 'object' && 'dispatch' in target ? target : undefined)
  const known = new Map<string, Known>(contractsOf(given).map((c) => [c.name, c]))
  const auth = options.auth === undefined ? undefined : authorizer(options.auth)
  const http = { ...(auth === undefined ? {} : { authorizer: auth }), ...(options.headers === undefined ? {} : { headers: options.headers }), ...(options.fetch === undefined ? {} : { fetch: options.fetch }) }
  const limits = limitsOf(
    { ...pick(options, 'maxAnswerBytes'), ...pick(options, 'maxDepth'), ...pick(options, 'maxListPages'), ...(options.timeoutMs === undefined ? {} : { requestTimeoutMs: options.timeoutMs }) },
    { peer: 'the server', option: "the client's " },
  )
  const handshake = { timeout: limits.requestTimeoutMs }
  let client = sdkClient(options, limits)
  let transport = transportFor(target, http, limits)
  try {
    await client.connect(transport, handshake)
  } catch (error) {
    if (!isUnauthorized(error) || auth?.authorize === undefined) throw asRpcError(error, limits)
    await finishAuth(transport, await auth.authorize())
    client = sdkClient(options, limits)
    transport = transportFor(target, http, limits)
    await bounded(() => client.connect(transport, handshake), limits)
  }
  const subscription = await listenForChanges(client, options)
  return typedSurface(client, known, options, limits, async () => {
    await subscription?.close()
    await client.close()
  })
}

/** The contracts of a value given as `contracts` or as the target. */
const contractsOf = (value: unknown): ReadonlyArray<Known & { readonly name: string }> => {
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null && 'tools' in value ? (value as { tools: unknown }).tools : []
  if (!Array.isArray(list)) throw new TypeError('emcp/client: `contracts` is a server, a list of contracts, or the tool list `emcp types` wrote')
  return (list as ReadonlyArray<AnyTool | ListedContract>).map((t) => t as Known & { readonly name: string })
}

/** `{ key: value }` when the option is given, else nothing. */
const pick = <K extends 'maxAnswerBytes' | 'maxDepth' | 'maxListPages'>(options: ConnectOptions<unknown>, key: K): { [k in K]?: number } =>
  options[key] === undefined ? {} : ({ [key]: options[key] } as { [k in K]?: number })

/** The SDK client, with handlers for what the options answer. */
const sdkClient = (options: ConnectOptions<unknown>, limits: Limits): Client => {
  const version = options.protocolVersion
  const client = new Client(options.clientInfo ?? { name: 'emcp-client', version: '0.1.0' }, {
    capabilities: {
      ...(options.elicit === undefined ? {} : { elicitation: { form: {} } }),
      ...(options.sample === undefined ? {} : { sampling: {} }),
      ...(options.roots === undefined ? {} : { roots: { listChanged: true } }),
    },
    versionNegotiation: { mode: version === undefined ? 'auto' : isModernVersion(version) ? { pin: version } : 'legacy' },
    ...(version === undefined || isModernVersion(version) ? {} : { supportedProtocolVersions: [version] }),
    inputRequired: { maxRounds: options.maxInputRounds ?? 10 },
    listMaxPages: limits.maxListPages,
    listChanged: listChangedHandlers(options),
  })
  const { elicit, sample, roots } = options
  if (elicit !== undefined) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params))
  if (sample !== undefined) client.setRequestHandler('sampling/createMessage', async (request) => sample(request.params))
  if (roots !== undefined) client.setRequestHandler('roots/list', async () => ({ roots: [...(typeof roots === 'function' ? await roots() : roots)] }))
  return client
}

/** The SDK's list_changed handlers for `onListChanged` (it refreshes the list, then calls). */
const listChangedHandlers = (options: ConnectOptions<unknown>) => {
  const on = options.onListChanged ?? {}
  const handler = (f: (() => void) | undefined) => (f === undefined ? undefined : { autoRefresh: false, onChanged: () => f() })
  const entries = Object.entries({ tools: handler(on.tools), prompts: handler(on.prompts), resources: handler(on.resources) }).filter(([, h]) => h !== undefined)
  return Object.fromEntries(entries)
}

/** 2026-07-28 sends list_changed only on a `subscriptions/listen` stream: one is opened for the lists asked about. */
const listenForChanges = async (client: Client, options: ConnectOptions<unknown>) => {
  const on = options.onListChanged
  if (on === undefined || client.getProtocolEra() !== 'modern') return undefined
  return client.listen({
    ...(on.tools === undefined ? {} : { toolsListChanged: true }),
    ...(on.prompts === undefined ? {} : { promptsListChanged: true }),
    ...(on.resources === undefined ? {} : { resourcesListChanged: true }),
  })
}

/** The SDK's request options for a call's. */
const requestOptions = (defaults: ConnectOptions<unknown>, options: CallOptions = {}): RequestOptions => ({
  ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress, resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? true }),
  ...(options.signal === undefined ? {} : { signal: options.signal }),
  ...((options.timeoutMs ?? defaults.timeoutMs) === undefined ? {} : { timeout: options.timeoutMs ?? defaults.timeoutMs }),
})

/**
 * A protocol error of the SDK as emcp's `RpcCallError` (code, message, data), and so a limit
 * passed (no answer in time: -32001; a list without end: -32603); anything else as it is.
 */
const asRpcError = (error: unknown, limits: Limits): unknown => {
  if (error instanceof ProtocolError) return new RpcCallError({ code: error.code, message: error.message, data: error.data })
  const passed = limitFailure(error, limits, 'the request')
  if (passed === undefined) return error
  if (passed.limit === 'maxListPages') return new RpcCallError({ code: -32603, message: passed.message, data: { limit: 'maxListPages' } })
  // the call's own timeoutMs, when it set one, is what the SDK reports
  const ms = (error as { data?: { timeout?: unknown } }).data?.timeout
  return new RpcCallError({ code: -32001, message: `the server did not answer within timeoutMs (${typeof ms === 'number' ? ms : limits.requestTimeoutMs} ms)`, data: { limit: 'timeoutMs' } })
}

/** Runs `f`, with the SDK's protocol errors and the limits passed as `RpcCallError`. */
const bounded = async <A>(f: () => Promise<A>, limits: Limits): Promise<A> => {
  try {
    return await f()
  } catch (error) {
    throw asRpcError(error, limits)
  }
}

/** The typed surface over a connected SDK client. */
const typedSurface = (client: Client, known: Map<string, Known>, defaults: ConnectOptions<unknown>, limits: Limits, close: () => Promise<void>): RemoteClient<AnyTool> => {
  const rpc = <A>(f: () => Promise<A>): Promise<A> => bounded(f, limits)
  // without contracts given, the listed tools tell which results are structured
  let listed: Promise<Map<string, Known>> | undefined
  const list = async (): Promise<ReadonlyArray<ListedTool>> => (await rpc(() => client.listTools())).tools as unknown as ReadonlyArray<ListedTool>
  const contractOf = async (name: string): Promise<Known | undefined> => {
    if (known.has(name)) return known.get(name)
    listed ??= list().then((tools) => new Map(tools.map((t) => [t.name, t])))
    return (await listed).get(name)
  }
  const callResult = async (name: string, args: unknown, options?: CallOptions): Promise<CallToolResult> => {
    const input = known.get(name)?.input
    const encoded = (isCodec(input) ? input.encode(args) : args) ?? {}
    return (await rpc(() => client.callTool({ name, arguments: encoded as Record<string, unknown> }, requestOptions(defaults, options)))) as CallToolResult
  }
  const call = async (name: string, args: unknown, options?: CallOptions): Promise<unknown> => {
    const result = await callResult(name, args, options)
    if (result.isError === true) throw new ToolCallError(result)
    const contract = await contractOf(name)
    return contract?.outputSchema === undefined ? result : decoded(name, contract, result, client.getProtocolEra() === 'modern')
  }
  return {
    call: call as RemoteClient<AnyTool>['call'],
    callResult: callResult as RemoteClient<AnyTool>['callResult'],
    list,
    prompts: {
      list: async () => (await rpc(() => client.listPrompts())).prompts,
      get: async (name, args, options) => rpc(() => client.getPrompt({ name, ...(args === undefined ? {} : { arguments: { ...(args as Record<string, string>) } }) }, requestOptions(defaults, options))),
    },
    resources: {
      list: async () => (await rpc(() => client.listResources())).resources,
      templates: async () => (await rpc(() => client.listResourceTemplates())).resourceTemplates,
      read: async (uri, options) => (await rpc(() => client.readResource({ uri }, requestOptions(defaults, options)))).contents,
    },
    ping: async () => {
      // 2026-07-28 has no ping: `server/discover` is the cheapest request that shows the server answers
      await rpc(() => (client.getProtocolEra() === 'modern' ? client.discover() : client.ping()))
    },
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    serverInfo: () => client.getServerVersion(),
    close,
    [Symbol.asyncDispose]: close,
  }
}

/** A structured result as the caller's type: unwrapped for a 2025 server that wrapped it, decoded by an io-ts codec. */
const decoded = (name: string, contract: Known, result: CallToolResult, modern: boolean): unknown => {
  const wrapped = !modern && contract.outputSchema !== undefined && wrapsOutput(contract.outputSchema)
  const structured = wrapped ? (result.structuredContent as { readonly result?: unknown } | undefined)?.result : result.structuredContent
  const output = contract.output
  if (!isCodec(output)) return structured
  const value = output.decode(structured)
  if (E.isLeft(value)) throw new Error(`emcp/client: tool ${name} returned undecodable output: ${formatIssues(value.left.map((e) => ({ path: '', message: e.message ?? 'invalid' })))}`)
  return value.right
}
