/**
 * `fromOpenApi`: an OpenAPI 3.0 or 3.1 document (an object, a file path or a URL) served as
 * MCP tools, one per operation, each calling the API with `fetch` (call.ts). The document is
 * read with `@readme/openapi-parser` (an optional peer), which validates it and bundles its
 * external references; emcp then inlines the internal ones (refs.ts), because MCP clients do
 * not resolve `$ref`s. Operations are picked by operationId or tag (`include`, `exclude`).
 * The result is an ordinary server, and its tool list and handlers are given too, so that it
 * mounts, transforms and composes like any other.
 *
 * @example
 * import { fromOpenApi } from 'emcp/openapi'
 * import { serveStdio } from 'emcp/stdio'
 * const api = await fromOpenApi('https://petstore3.swagger.io/api/v3/openapi.json', { include: { tags: ['pet'] } })
 * await serveStdio(api.server)
 */
import type * as Parser from '@readme/openapi-parser'
import type { Handler } from '../../server/call.js'
import { runtimeToolOf, type RuntimeTool } from '../../contract/runtime-tool.js'
import { mcpServer, type Server, type ServerInfo, type ServerOptions } from '../../server/server.js'
import { isObject } from '../../util/json-object.js'
import { readBounded } from '../../util/read-bounded.js'
import { redactedUrl } from '../../util/redacted-url.js'
import { callOperation, type CallOptions, type OpenApiAuth } from './call.js'
import { operationsOf, type Operation, type OperationProblem } from './operations.js'
import { expandedSize } from './refs.js'

// Loaded here, once: importing emcp/openapi without the parser says what to install, and the
// rest of emcp never imports it (an optional peer dependency).
const { bundle, compileErrors, validate }: typeof Parser = await import('@readme/openapi-parser').catch((e: unknown) => {
  throw new Error(
    `emcp/openapi needs the package @readme/openapi-parser (an optional peer dependency of emcp): install it with npm install @readme/openapi-parser. ${e instanceof Error ? e.message : String(e)}`,
  )
})

// ---------------------------------------------------------------------------------------
// model

/** Which operations to serve: by operationId (as written in the document) or by tag. */
export interface OperationFilter {
  readonly operationIds?: ReadonlyArray<string>
  readonly tags?: ReadonlyArray<string>
}

/** How `fromOpenApi` reads and serves the document. */
export interface OpenApiOptions extends ServerOptions, Omit<CallOptions, 'baseUrl'> {
  /** Where the API is; by default the document's first `servers` entry (resolved against the document's URL). */
  readonly baseUrl?: string | URL
  /** Serve only these operations (any that matches by id or tag); all when absent. */
  readonly include?: OperationFilter
  /** Leave these out (by id or tag), after `include`. */
  readonly exclude?: OperationFilter
  /** Who the server is; by default the document's `info` title and version. */
  readonly info?: ServerInfo
  /**
   * The most values the document may hold with its `$ref`s inlined (default 5 000 000): a
   * document of shared references is small as written and exponential when expanded, and the
   * parser's validation expands it. A larger one is refused before it is validated.
   */
  readonly maxExpandedValues?: number
  /** Where warnings go (an operation left out, a recursive schema cut short); by default `process.emitWarning`. */
  readonly onWarning?: (message: string) => void
}

/** A document served as tools. */
export interface OpenApiTools {
  /** The server: serve it over any transport, or mount it. */
  readonly server: Server
  /** The tools, in the document's order, and their handlers (to compose by hand). */
  readonly tools: ReadonlyArray<RuntimeTool>
  readonly handlers: { readonly [name: string]: Handler<RuntimeTool> }
  /** The operations served, with where each goes. */
  readonly operations: ReadonlyArray<Operation>
  /** Operations left out, and why (collisions, unreadable schemas). */
  readonly skipped: ReadonlyArray<OperationProblem>
}

export type { OpenApiAuth }

// ---------------------------------------------------------------------------------------
// constructors

/**
 * Reads, validates and serves `document`. Rejects with every problem when the document is
 * not valid OpenAPI, when two operations would be one tool, or when no operation is left.
 */
export const fromOpenApi = async (document: string | URL | object, options: OpenApiOptions = {}): Promise<OpenApiTools> => {
  const source = await sourceOf(document)
  const unreadable = (e: unknown): never => {
    throw new TypeError(`emcp openapi: cannot read the document: ${(e as Error).message}`)
  }
  // bundled first (external references made internal, nothing expanded), then sized, then validated
  const doc = await bundle(source as never).catch(unreadable)
  checkExpansion(doc, options.maxExpandedValues ?? defaultMaxExpandedValues)
  const checked = await validate(structuredClone(doc) as never).catch(unreadable)
  if (!checked.valid) throw new TypeError(`emcp openapi: the document is not valid OpenAPI:\n${firstLines(compileErrors(checked), 20)}`)
  if (checked.specification !== 'OpenAPI') throw new TypeError('emcp openapi: the document is Swagger 2.0; convert it to OpenAPI 3.0 or 3.1 first')
  const { operations, problems, cycles } = operationsOf(doc)
  const collided = problems.filter((p) => p.message.includes('operations are named'))
  if (collided.length > 0) throw new TypeError(`emcp openapi: tool names collide:\n${collided.map((p) => `  ${p.message}`).join('\n')}`)
  const warn = options.onWarning ?? ((m: string) => process.emitWarning(m))
  for (const p of problems) warn(`emcp openapi: operation ${p.operation} is left out: ${p.message}`)
  for (const ref of new Set(cycles)) warn(`emcp openapi: ${ref} refers to itself; where it recurs, the inlined schema accepts any value`)
  const picked = operations.filter((o) => (options.include === undefined || matches(o, options.include)) && (options.exclude === undefined || !matches(o, options.exclude)))
  if (picked.length === 0) throw new TypeError(`emcp openapi: no operation is left to serve (the document has ${operations.length}; check include and exclude)`)
  const baseUrl = baseUrlOf(doc, document, options.baseUrl)
  const built = toolsOf(picked, { ...options, baseUrl }, warn)
  const info = options.info ?? infoOf(doc)
  const server = mcpServer(built.tools as never, info, options).implement(built.handlers as never) as unknown as Server
  return { server, tools: built.tools, handlers: built.handlers, operations: picked, skipped: problems }
}

// ---------------------------------------------------------------------------------------
// internals

/**
 * What the parser reads: a file path as given (it reads JSON and YAML), an object as a copy
 * (the parser writes into what it reads), a URL fetched here. Why fetch it here: the user named
 * this URL, so it may be on this machine (127.0.0.1, a development server), which the
 * parser's own resolver refuses so that a document cannot make it fetch internal URLs; its
 * external references still go through that resolver.
 */
const sourceOf = async (document: string | URL | object): Promise<string | object> => {
  const url = document instanceof URL ? document.href : typeof document === 'string' && /^https?:\/\//i.test(document) ? document : undefined
  if (url === undefined) return typeof document === 'string' ? document : structuredClone(document)
  let res: Response
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) })
  } catch (e) {
    throw new TypeError(`emcp openapi: cannot fetch the document ${redactedUrl(url)}: ${(e as Error).message}`)
  }
  const text = await readBounded(res.body, maxDocumentBytes)
  if (!res.ok || text === undefined) throw new TypeError(`emcp openapi: cannot fetch the document ${redactedUrl(url)}: ${text === undefined ? `larger than ${maxDocumentBytes} bytes` : `HTTP ${res.status}`}`)
  try {
    return JSON.parse(text) as object
  } catch {
    throw new TypeError(`emcp openapi: the document at ${redactedUrl(url)} is not JSON (a YAML document is read from a file)`)
  }
}

/** The first `n` lines of `text` (a document with thousands of errors gives thousands of lines), and how many more. */
const firstLines = (text: string, n: number): string => {
  const lines = text.split('\n')
  return lines.length <= n ? text : `${lines.slice(0, n).join('\n')}\n… and ${lines.length - n} more lines`
}

/** The default of `maxExpandedValues`: about seven seconds of the parser's validation on this machine. */
const defaultMaxExpandedValues = 5_000_000

/** Refuses a document that would hold more than `cap` values with its references inlined, or nests too deeply. */
const checkExpansion = (doc: unknown, cap: number): void => {
  let size: number
  try {
    size = expandedSize(doc, cap)
  } catch (e) {
    throw new TypeError(`emcp openapi: cannot read the document: ${(e as Error).message}`)
  }
  if (size > cap)
    throw new TypeError(`emcp openapi: the document holds more than ${cap} values once its $refs are inlined (shared references multiply); raise maxExpandedValues if it is trusted`)
}

/** The largest document read from a URL. */
const maxDocumentBytes = 50 * 1024 * 1024

const matches = (o: Operation, f: OperationFilter): boolean =>
  (o.operationId !== undefined && (f.operationIds?.includes(o.operationId) ?? false)) || o.tags.some((t) => f.tags?.includes(t) ?? false)

const toolsOf = (operations: ReadonlyArray<Operation>, call: CallOptions, warn: (m: string) => void) => {
  const tools: RuntimeTool[] = []
  const handlers: { [name: string]: Handler<RuntimeTool> } = {}
  for (const o of operations) {
    try {
      tools.push(
        runtimeToolOf(
          {
            name: o.name,
            description: o.description,
            input: o.inputSchema,
            ...(o.outputSchema === undefined ? {} : { output: o.outputSchema }),
            annotations: { readOnlyHint: o.method === 'GET' || o.method === 'HEAD', idempotentHint: ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(o.method), openWorldHint: true },
            _meta: { 'emcp/openapi': { method: o.method, path: o.path, ...(o.operationId === undefined ? {} : { operationId: o.operationId }), ...(o.tags.length > 0 ? { tags: o.tags } : {}) } },
          },
          // an API's schemas carry keywords of their own (example, xml, discriminator): carried, not refused
          'allow',
        ),
      )
      handlers[o.name] = callOperation(o, call) as Handler<RuntimeTool>
    } catch (e) {
      warn(`emcp openapi: operation ${o.operationId ?? `${o.method} ${o.path}`} is left out: ${(e as Error).message}`)
    }
  }
  return { tools, handlers }
}

/** The base URL: given, else the first server of the document (relative to the document's own URL). */
const baseUrlOf = (doc: unknown, document: unknown, given: string | URL | undefined): URL => {
  const servers = isObject(doc) && Array.isArray(doc.servers) ? doc.servers : []
  const first = isObject(servers[0]) && typeof servers[0].url === 'string' ? servers[0].url : undefined
  const raw = given ?? first
  if (raw === undefined) throw new TypeError('emcp openapi: the document names no server: give baseUrl')
  const from = typeof document === 'string' && /^https?:/i.test(document) ? document : document instanceof URL ? document.href : undefined
  try {
    return new URL(String(raw), from)
  } catch {
    throw new TypeError(`emcp openapi: the base URL ${String(raw).slice(0, 200)} is not a URL${given === undefined ? ' (from the document\'s servers; give baseUrl)' : ''}`)
  }
}

const infoOf = (doc: unknown): ServerInfo => {
  const info = isObject(doc) && isObject(doc.info) ? doc.info : {}
  return { name: typeof info.title === 'string' && info.title !== '' ? info.title : 'openapi', version: typeof info.version === 'string' ? info.version : '0.0.0' }
}
