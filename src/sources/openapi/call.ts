/**
 * One operation called with `fetch`: the arguments placed where the document says (path
 * segments encoded, query parameters repeated for arrays, headers, the JSON body), the
 * configured headers and credentials added, the call bounded by the tool call's signal and
 * a timeout, the answer read up to a limit. A 2xx JSON answer is the tool's result (the
 * structured value when the operation has an output schema); any other status is an
 * `isError` result carrying the method, the path, the status and an excerpt of the body.
 *
 * @example
 * import { callOperation } from './call.js'
 * // const handler = callOperation(operation, { baseUrl: new URL('http://127.0.0.1:3000') })
 * // await handler({ id: 1 }, ctx)
 */
import { toolError } from '../../contract/content.js'
import type { ToolContext } from '../../server/context.js'
import { readBounded } from '../../util/read-bounded.js'
import { clip } from '../../util/clip.js'
import type { Operation } from './operations.js'
import { trimRuns } from '../../util/trim-runs.js'
import { defaultMaxDepth, deeperThan } from '../../util/json-depth.js'

// ---------------------------------------------------------------------------------------
// model

/** How the operations are called. */
export interface CallOptions {
  /** Where the API is: the operation's path is appended to it. */
  readonly baseUrl: URL
  /** Headers on every call, fixed or computed per call (from the caller's identity, say). */
  readonly headers?: { readonly [name: string]: string } | ((ctx: ToolContext) => { readonly [name: string]: string } | Promise<{ readonly [name: string]: string }>)
  /** Credentials for the API. */
  readonly auth?: OpenApiAuth
  /** The fetch to call with (default the global one). */
  readonly fetch?: typeof fetch
  /** The longest one call may take, in milliseconds (default 30 000). */
  readonly timeoutMs?: number
  /** The largest answer read, in bytes (default 10 MiB): a larger one is an `isError` result. */
  readonly maxResponseBytes?: number
}

/** Credentials for the API: a bearer token, an API key (in a header or the query), or HTTP basic. */
export type OpenApiAuth =
  | { readonly bearer: string | (() => string | Promise<string>) }
  | { readonly apiKey: { readonly name: string; readonly in: 'header' | 'query'; readonly value: string } }
  | { readonly basic: { readonly username: string; readonly password: string } }

/** How much of an error answer's body an `isError` result shows. */
export const excerptLength = 2000

// ---------------------------------------------------------------------------------------
// functions

/** The handler of `op`: calls the API and turns its answer into a tool result. */
export const callOperation =
  (op: Operation, options: CallOptions) =>
  async (args: { readonly [argument: string]: unknown }, ctx: ToolContext): Promise<unknown> => {
    const dots = dotSegment(op, args)
    if (dots !== undefined) return toolError(`${op.method} ${op.path}: the path parameter ${dots} cannot be "." or "..": it would name another path`)
    const url = urlOf(op, options.baseUrl, args)
    const headers = new Headers(typeof options.headers === 'function' ? await options.headers(ctx) : options.headers)
    for (const p of op.parameters) if (p.in === 'header' && args[p.argument] !== undefined) headers.set(p.name, textOf(args[p.argument]))
    await authorize(options.auth, headers, url)
    headers.set('accept', 'application/json, */*;q=0.5')
    const body = op.body === undefined || args[op.body] === undefined ? undefined : JSON.stringify(args[op.body])
    if (body !== undefined) headers.set('content-type', 'application/json')
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(options.timeoutMs ?? 30_000)])
    let res: Response
    try {
      res = await (options.fetch ?? fetch)(url, { method: op.method, headers, ...(body === undefined ? {} : { body }), signal, redirect: 'follow' })
    } catch (e) {
      // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, a bad port, a timeout)
      const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause
      const why = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined
      return toolError(`${op.method} ${op.path}: the API at ${options.baseUrl.origin} did not answer: ${(e as Error).message}${why === undefined ? '' : ` (${why})`}`)
    }
    let text: string | undefined
    try {
      text = await readBounded(res.body, options.maxResponseBytes ?? 10 * 1024 * 1024)
    } catch (e) {
      // the timeout (or the caller's cancellation) also ends a body that trickles in
      const why = signal.aborted ? (ctx.signal.aborted ? 'the call was cancelled' : `no whole answer within timeoutMs (${options.timeoutMs ?? 30_000} ms)`) : (e as Error).message
      return toolError(`${op.method} ${op.path}: HTTP ${res.status}: the answer could not be read: ${why}`)
    }
    if (text === undefined) return toolError(`${op.method} ${op.path}: HTTP ${res.status}: the answer is larger than ${options.maxResponseBytes ?? 10 * 1024 * 1024} bytes`)
    if (!res.ok) return toolError(`${op.method} ${op.path}: HTTP ${res.status}${res.statusText === '' ? '' : ` ${res.statusText}`}: ${clip(text, excerptLength)}`)
    return resultOf(op, res, text)
  }

// ---------------------------------------------------------------------------------------
// internals

/** The URL of one call: the base, the path with its parameters filled in, the query. */
const urlOf = (op: Operation, base: URL, args: { readonly [argument: string]: unknown }): URL => {
  let path = op.path
  for (const p of op.parameters)
    if (p.in === 'path') path = path.replaceAll(`{${p.name}}`, encodeURIComponent(textOf(args[p.argument])))
  const url = new URL(trimRuns(base.href, '/', 'end') + path)
  for (const p of op.parameters) {
    const v = args[p.argument]
    if (p.in !== 'query' || v === undefined) continue
    // OpenAPI's default for query arrays: form, exploded (`?tag=a&tag=b`)
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(p.name, textOf(item))
  }
  return url
}

/**
 * The path parameter that would be a dot segment (`.`, `..`, in any encoding): URL parsing
 * resolves those, encoded or not, so a caller could reach another path of the API.
 */
const dotSegment = (op: Operation, args: { readonly [argument: string]: unknown }): string | undefined =>
  op.parameters.find((p) => p.in === 'path' && /^(\.|%2e){1,2}$/i.test(textOf(args[p.argument])))?.argument

/** A parameter's value as text: strings as they are, everything else as JSON. */
const textOf = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v))

const authorize = async (auth: OpenApiAuth | undefined, headers: Headers, url: URL): Promise<void> => {
  if (auth === undefined) return
  if ('bearer' in auth) headers.set('authorization', `Bearer ${typeof auth.bearer === 'string' ? auth.bearer : await auth.bearer()}`)
  else if ('basic' in auth) headers.set('authorization', `Basic ${Buffer.from(`${auth.basic.username}:${auth.basic.password}`).toString('base64')}`)
  else if (auth.apiKey.in === 'header') headers.set(auth.apiKey.name, auth.apiKey.value)
  else url.searchParams.set(auth.apiKey.name, auth.apiKey.value)
}

/** A 2xx answer as the tool's result. */
const resultOf = (op: Operation, res: Response, text: string): unknown => {
  const json = /\bjson\b/i.test(res.headers.get('content-type') ?? '')
  if (op.outputSchema === undefined) return text === '' ? `${op.method} ${op.path}: HTTP ${res.status}` : text
  if (!json) return toolError(`${op.method} ${op.path}: HTTP ${res.status} answered ${res.headers.get('content-type') ?? 'without a content type'}, not the JSON its document promises: ${clip(text, excerptLength)}`)
  let value: unknown
  try {
    value = JSON.parse(text) as unknown
  } catch (e) {
    return toolError(`${op.method} ${op.path}: HTTP ${res.status} answered JSON that cannot be read (${(e as Error).message}): ${clip(text, excerptLength)}`)
  }
  // checked before anything walks it (the output validator, the text block's JSON)
  if (deeperThan(value, defaultMaxDepth)) return toolError(`${op.method} ${op.path}: HTTP ${res.status} answered JSON nested deeper than ${defaultMaxDepth} levels`)
  return value
}
