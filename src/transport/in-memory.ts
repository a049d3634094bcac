/**
 * A typed client that drives a server's dispatcher in the same process: no transport, same
 * code path as stdio and HTTP. `call` takes the tool's typed arguments and resolves to its
 * typed output; a tool error or a protocol error rejects with the error as data.
 *
 * @example
 * import { emcp, mcpServer, inMemoryClient } from 'emcp'
 * const add = emcp({
 *   name: 'add',
 *   input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 *   output: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
 * })
 * const server = mcpServer([add], { name: 'calc', version: '1' }).implement({ add: ({ a, b }) => ({ sum: a + b }) })
 * const { sum } = await inMemoryClient(server).call('add', { a: 1, b: 2 }) // sum: number
 * await inMemoryClient(server, { protocolVersion: '2026-07-28' }).call('add', { a: 1, b: 2 }) // the 2026 way
 */
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type { CallToolResult } from '../contract/content.js'
import type { AnyTool, ListedTool, sameAsHandler, StandardWire } from '../contract/emcp.js'
import { unwrap, type Outgoing, type RpcErrorObject } from '../protocol/jsonrpc.js'
import { wrapsOutput } from '../protocol/2025-11-25/legacy-output.js'
import { isModernVersion, latestVersion } from '../protocol/versions.js'
import { formatIssues, isCodec, type Codec } from '../schema/schema.js'
import type { Server } from '../server/server.js'
import { newSession, type Session } from '../server/session.js'
import type { ToolNamed } from '../contract/sum.js'

// ---------------------------------------------------------------------------------------
// model

/** What `call` resolves to: the typed structured output, or the whole result for plain tools. */
export type ResultOf<T extends AnyTool> = T['_S'] extends true ? (T['_W'] extends StandardWire<unknown, infer R> ? ([R] extends [typeof sameAsHandler] ? T['_O'] : R) : T['_O']) : CallToolResult

/**
 * The arguments a caller passes to tool `T`: its handler's argument type, with the arguments
 * that have a `default` optional (the server fills them in before the handler runs) and
 * without the claim-bound ones (the server fills them from the caller's token); an
 * object of unknown values for a contract whose types are not known (`AnyTool`).
 */
export type ArgsOf<T extends AnyTool> = 0 extends 1 & T['_I']
  ? { readonly [argument: string]: unknown }
  : T['_W'] extends StandardWire<infer A, unknown> // a Standard Schema's input type, before its transforms and defaults
    ? [A] extends [typeof sameAsHandler] ? ArgsOfHandler<T> : Unclaimed<A, T['_C']>
    : ArgsOfHandler<T>

/** The caller's arguments read from the handler's: the defaulted ones optional, the claim-bound ones absent. */
type ArgsOfHandler<T extends AnyTool> = Unclaimed<[T['_D']] extends [never] ? T['_I'] : string extends T['_D'] ? T['_I'] : WithOptional<T['_I'], T['_D']>, T['_C']>

/** `A` without the claim-bound arguments `C` (the server fills them from the caller's token). */
type Unclaimed<A, C extends string> = [C] extends [never]
  ? A
  : string extends C
    ? A
    : { [K in keyof A as K extends C ? never : K]: A[K] } & { readonly [K in C]?: never } // `never`: not even through an index signature

/** `I` with the keys `D` optional. */
type WithOptional<I, D> = { [K in keyof I as K extends D ? never : K]: I[K] } & { [K in keyof I as K extends D ? K : never]?: I[K] }

/** The typed client of a server whose tools are the union `U`. */
export interface Client<U extends AnyTool> {
  /** Calls a tool; resolves to its typed output, rejects with `ToolCallError` on `isError`. */
  readonly call: <K extends U['name']>(name: K, args: ArgsOf<ToolNamed<U, K>>) => Promise<ResultOf<ToolNamed<U, K>>>
  /** Calls a tool and resolves to the whole `CallToolResult`, errors included. */
  readonly callResult: <K extends U['name']>(name: K, args: ArgsOf<ToolNamed<U, K>>) => Promise<CallToolResult>
  /** Lists every tool, following pagination to the end. */
  readonly list: () => Promise<ReadonlyArray<ListedTool>>
  /** Sends `ping`. */
  readonly ping: () => Promise<void>
  /** Sends any request and resolves to its raw result. */
  readonly request: (method: string, params?: { readonly [key: string]: unknown }) => Promise<unknown>
}

/** Options of the in-memory client. */
export interface ClientOptions {
  /**
   * The revision spoken: one of the 2025-11-25 family (negotiated by `initialize`, the
   * default) or `2026-07-28` (no `initialize`; every request carries its `_meta`).
   */
  readonly protocolVersion?: string
  readonly clientInfo?: { readonly name: string; readonly version: string }
  readonly capabilities?: { readonly [key: string]: unknown }
  /**
   * 2026-07-28: answers the questions of an `input_required` result (elicitation, sampling,
   * roots), as a client's user or model would; the request is then sent again with the
   * answers, up to 10 rounds. Without it, `input_required` rejects with `InputRequiredError`.
   */
  readonly answer?: (request: { readonly method: string; readonly params: { readonly [key: string]: unknown } }) => unknown
}

/** An `input_required` result the in-memory client had no `answer` for (or still got after 10 rounds). */
export class InputRequiredError extends Error {
  constructor(readonly result: { readonly inputRequests?: unknown; readonly requestState?: string }) {
    super(`the server needs input from the client: ${JSON.stringify(result.inputRequests ?? {})}`)
    this.name = 'InputRequiredError'
  }
}

/** A JSON-RPC error answered by the server. */
export class RpcCallError extends Error {
  readonly code: number
  readonly data: unknown
  constructor(error: RpcErrorObject) {
    super(error.message)
    this.name = 'RpcCallError'
    this.code = error.code
    this.data = error.data
  }
}

/** A tool result with `isError: true`. */
export class ToolCallError extends Error {
  constructor(readonly result: CallToolResult) {
    super(result.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n') || 'tool error')
    this.name = 'ToolCallError'
  }
}

// ---------------------------------------------------------------------------------------
// constructors

/** A typed client over a server's dispatcher, in the same process. */
export const inMemoryClient = <U extends AnyTool>(server: Server<U>, options: ClientOptions = {}): Client<U> => {
  const session: Session = newSession(undefined, undefined, { transport: 'memory' })
  const modern = isModernVersion(options.protocolVersion)
  const meta = {
    'io.modelcontextprotocol/protocolVersion': options.protocolVersion,
    'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
    'io.modelcontextprotocol/clientInfo': options.clientInfo ?? { name: 'emcp-in-memory', version: '0' },
  }
  const byName = new Map<string, AnyTool>(server.tools.map((t) => [t.name, t]))
  let nextId = 1
  let ready: Promise<void> | undefined

  const send = async (method: string, params?: { readonly [key: string]: unknown }): Promise<unknown> => {
    const out = await server.dispatch({ jsonrpc: '2.0', id: nextId++, method, ...(params ? { params } : {}) }, session)()
    if (O.isNone(out)) throw new Error(`emcp: no response to ${method}`)
    if (Array.isArray(out.value)) throw new Error(`emcp: a batch answered a single ${method}`)
    const m: Outgoing = unwrap(out.value as Outgoing)
    if ('error' in m) throw new RpcCallError(m.error)
    return m.result
  }

  /** 2026-07-28: one request with its _meta, retried with the answers while the server needs input. */
  const sendModern = async (method: string, params: { readonly [key: string]: unknown } = {}): Promise<unknown> => {
    let extra: { readonly [key: string]: unknown } = {}
    for (let round = 0; ; round++) {
      const result = (await send(method, { ...params, ...extra, _meta: { ...meta, ...(params._meta as object | undefined) } })) as {
        readonly resultType?: string
        readonly inputRequests?: { readonly [key: string]: { readonly method: string; readonly params: { readonly [key: string]: unknown } } }
        readonly requestState?: string
      }
      if (result.resultType !== 'input_required') return result
      if (options.answer === undefined || round >= 10) throw new InputRequiredError(result)
      const answers: Record<string, unknown> = {}
      for (const [key, request] of Object.entries(result.inputRequests ?? {})) answers[key] = await options.answer(request)
      extra = { inputResponses: answers, ...(result.requestState === undefined ? {} : { requestState: result.requestState }) }
    }
  }

  const connect = (): Promise<void> =>
    (ready ??= (async () => {
      await send('initialize', {
        protocolVersion: options.protocolVersion ?? latestVersion,
        capabilities: options.capabilities ?? {},
        clientInfo: options.clientInfo ?? { name: 'emcp-in-memory', version: '0' },
      })
      await server.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)()
    })())

  const request = async (method: string, params?: { readonly [key: string]: unknown }): Promise<unknown> => {
    if (modern) return sendModern(method, params)
    await connect()
    return send(method, params)
  }

  const callResult = async (name: string, args: unknown): Promise<CallToolResult> => {
    const input = byName.get(name)?.input
    const encoded: unknown = isCodec(input) ? (input as Codec).encode(args) : args
    // a copy as JSON would carry it: the server may fill in defaults, and the caller's object stays theirs
    const wire = JSON.parse(JSON.stringify(encoded ?? {})) as { readonly [key: string]: unknown }
    return (await request('tools/call', { name, arguments: wire })) as CallToolResult
  }

  const call = async (name: string, args: unknown): Promise<unknown> => {
    const result = await callResult(name, args)
    if (result.isError === true) throw new ToolCallError(result)
    const tool = byName.get(name)
    if (tool?.outputSchema === undefined) return result
    const output = tool.output
    // a 2025-11-25 client gets a non-object result wrapped
    const structured = !modern && wrapsOutput(tool.outputSchema) ? (result.structuredContent as { readonly result?: unknown } | undefined)?.result : result.structuredContent
    if (!isCodec(output)) return structured
    const decoded = output.decode(structured)
    if (E.isLeft(decoded)) throw new Error(`emcp: tool ${name} returned undecodable output: ${formatIssues(decoded.left.map((e) => ({ path: '', message: e.message ?? 'invalid' })))}`)
    return decoded.right
  }

  const list = async (): Promise<ReadonlyArray<ListedTool>> => {
    const tools: ListedTool[] = []
    let cursor: string | undefined
    do {
      const page = (await request('tools/list', cursor === undefined ? undefined : { cursor })) as {
        tools: ListedTool[]
        nextCursor?: string
      }
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    return tools
  }

  return {
    call: call as Client<U>['call'],
    callResult: callResult as Client<U>['callResult'],
    list,
    ping: async () => {
      await request('ping')
    },
    request,
  }
}
