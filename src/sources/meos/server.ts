/**
 * The MEOS catalog as a server: the generated manifest (`meos-mcp.json`) gives the tools as
 * clients see them, the catalog (`meos-idl.json`) the C side of each call, and libmeos the
 * functions, called in worker processes (pool.ts). Every tool whose function the library
 * exports is served; the others are left out with one warning that lists them. A result
 * that may be absent (an out-parameter guarded by a `presence` return, a NULL pointer that
 * means "no value") answers `{}`, so the listed `outputSchema` no longer requires `result`
 * for those tools; array results are JSON arrays; void functions answer without structured
 * content; MEOS errors and ended workers are `isError` results.
 *
 * @example
 * import { meosServer } from 'emcp/meos'
 * import { serveStdio } from 'emcp/stdio'
 * const meos = await meosServer({ library: '/usr/local/lib/libmeos.so', manifest: 'meos-mcp.json', catalog: 'meos-idl.json' })
 * await serveStdio(meos.server)
 * await meos.close()
 */
import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { toolError, type ToolContent } from '../../contract/content.js'
import type { Server, ServerInfo, ServerOptions } from '../../server/server.js'
import { counted } from '../../util/counted.js'
import { isObject } from '../../util/json-object.js'
import { selected, type Selection } from '../manifest/catalog.js'
import { codecNamesOf } from '../manifest/dispatch.js'
import { serverOfManifest } from '../manifest/import.js'
import type { Manifest, ManifestTool } from '../manifest/manifest.js'
import type { Outcome } from './invoke.js'
import { decodersOf, errorCodesOf, plansOf, type CallPlan } from './plan.js'
import { defaultWorkers, startPool, type Pool } from './pool.js'

// ---------------------------------------------------------------------------------------
// model

/** How `meosServer` serves the catalog. */
export interface MeosOptions extends ServerOptions {
  /** libmeos's path (default: the MEOS_LIBRARY_PATH environment variable). */
  readonly library?: string
  /** The generated manifest: a path to its JSON, or the document. */
  readonly manifest: string | Manifest
  /** The generated catalog (`meos-idl.json`): a path to its JSON, or the document. */
  readonly catalog: string | object
  /** Serve only tools of these categories (`x-meos.category`: predicate, accessor, …). */
  readonly categories?: ReadonlyArray<string>
  /** Worker processes (default: one per core, at most four). */
  readonly workers?: number
  /** A call's deadline in milliseconds, after which its worker is ended (default 10 000). */
  readonly timeoutMs?: number
  /** Calls a worker serves before it is replaced, bounding what MEOS leaks on its error paths (default 10 000). */
  readonly recycleAfter?: number
  /** Pick each argument's parser from its value (`universal`, the default) or always use the manifest's (`manifest`). */
  readonly decode?: 'universal' | 'manifest'
  /** Who the server is (default: the manifest's `x-meos.server`, version 1.3.0). */
  readonly info?: ServerInfo
  /** Where the warning about missing symbols goes (default: `process.emitWarning`). */
  readonly onWarning?: (message: string) => void
  /** The worker script (default: the built one); for tests of the pool itself. */
  readonly workerScript?: string
}

/** A served MEOS catalog: the server, the tools left out, and how to stop its workers. */
export interface MeosServer {
  readonly server: Server
  /** Tools whose function libmeos does not export. */
  readonly missing: ReadonlyArray<string>
  /** The worker pool (its process ids, how many were started). */
  readonly pool: Pick<Pool, 'pids' | 'started'>
  /** Ends the worker processes. */
  readonly close: () => Promise<void>
}

/** The default per-call deadline, in milliseconds. */
export const defaultTimeoutMs = 10_000

// ---------------------------------------------------------------------------------------
// functions

/** Reads the manifest and catalog, starts the workers, and builds the server; throws when the library cannot be opened or nothing is left to serve. */
export const meosServer = async (options: MeosOptions): Promise<MeosServer> => {
  const library = options.library ?? process.env.MEOS_LIBRARY_PATH
  if (library === undefined || library === '') throw new TypeError('emcp/meos: no libmeos given: pass its path (library, or --library), or set MEOS_LIBRARY_PATH (build it with .ci/meos, see docs/meos.md)')
  const manifest = (typeof options.manifest === 'string' ? await readJson(options.manifest, 'manifest') : options.manifest) as Manifest
  const catalog = typeof options.catalog === 'string' ? await readJson(options.catalog, 'catalog') : options.catalog
  if (!isObject(manifest) || !Array.isArray(manifest.tools)) throw new TypeError('emcp/meos: the manifest has no tools array')
  const { plans, problems } = plansOf(manifest, catalog)
  const selection: Selection | undefined = options.categories === undefined || options.categories.length === 0 ? undefined : { categories: options.categories }
  const wanted = manifest.tools.filter((e) => plans.has(e.name) && (selection === undefined || selected(selection)(asCategorised(e))))
  if (wanted.length === 0) throw new TypeError(`emcp/meos: no tool of the manifest ${selection === undefined ? 'has a plan' : `is in the categories ${options.categories?.join(', ')}`}`)
  const pool = startPool({
    library,
    plans: wanted.flatMap((e) => plans.get(e.name) ?? []),
    decoders: decodersOf(catalog),
    universal: options.decode !== 'manifest',
    workers: options.workers ?? defaultWorkers(availableParallelism()),
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    ...(options.recycleAfter === undefined ? {} : { recycleAfter: options.recycleAfter }),
    ...(options.workerScript === undefined ? {} : { script: options.workerScript }),
  })
  let missingSymbols: ReadonlyArray<string>
  try {
    missingSymbols = await pool.ready
  } catch (e) {
    await pool.close()
    throw e
  }
  const warn = options.onWarning ?? ((m: string) => process.emitWarning(m, 'EmcpMeosWarning'))
  const missing = new Set(missingSymbols)
  const unplanned = problems.map((p) => p.tool)
  if (missing.size > 0 || unplanned.length > 0)
    warn(`emcp meos: ${counted(missing.size + unplanned.length, 'tool')} left out, their function not in libmeos or the catalog: ${[...missing, ...unplanned].join(', ')}`)
  const served = wanted.filter((e) => !missing.has(e.name))
  if (served.length === 0) {
    await pool.close()
    throw new TypeError('emcp/meos: libmeos exports none of the manifest\'s functions')
  }
  const server = buildServer(manifest, served, plans, pool, options, errorCodesOf(catalog))
  return { server, missing: [...missing, ...unplanned], pool: { pids: pool.pids, started: pool.started }, close: pool.close }
}

// ---------------------------------------------------------------------------------------
// internals

const readJson = async (path: string, what: string): Promise<unknown> => {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    throw new TypeError(`emcp/meos: the ${what} could not be read at ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
  try {
    return JSON.parse(text)
  } catch (e) {
    throw new TypeError(`emcp/meos: the ${what} at ${path} is not JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** The entry as `selected` reads categories: from `x-meos.category`. */
const asCategorised = (e: ManifestTool): { readonly name: string; readonly _meta: { readonly [key: string]: unknown } } => {
  const meos = e['x-meos']
  const category = isObject(meos) && typeof meos.category === 'string' ? meos.category : ''
  return { name: e.name, _meta: { ...e._meta, 'emcp/category': category } }
}

/** Whether a tool's result may be absent: a `presence` out-parameter, or a pointer that may be NULL. */
const mayBeAbsent = (plan: CallPlan): boolean => plan.result.kind === 'presence' || plan.result.kind === 'serialized' || plan.result.kind === 'string'

/** The entry as served: its output schema no longer requires a result that may be absent. */
const servedEntry = (e: ManifestTool, plan: CallPlan): ManifestTool => {
  const out = e.outputSchema
  if (out === undefined || !mayBeAbsent(plan) || !Array.isArray(out.required)) return e
  const required = out.required.filter((r: unknown) => r !== 'result')
  const { required: _required, ...rest } = out
  return { ...e, outputSchema: required.length === 0 ? rest : { ...rest, required } }
}

/** A call's outcome as a handler's answer; a MEOS error carries its code, and the code's name. */
const answerOf = (tool: string, hasOutput: boolean, o: Outcome, codes: { readonly [code: number]: string }): unknown => {
  switch (o.kind) {
    case 'error': {
      if (o.code === undefined) return toolError(o.message)
      const name = codes[o.code]
      return toolError(`${o.message} (MEOS error code ${o.code}${name === undefined ? '' : `, ${name}`})`)
    }
    case 'none':
      return hasOutput ? {} : ([] satisfies ToolContent)
    case 'void':
      return `${tool} done (the function returns no value)`
    case 'value':
      return hasOutput ? { result: o.value } : JSON.stringify(o.value)
  }
}

const buildServer = (manifest: Manifest, served: ReadonlyArray<ManifestTool>, plans: ReadonlyMap<string, CallPlan>, pool: Pool, options: MeosOptions, codes: { readonly [code: number]: string }): Server => {
  const entries = served.map((e) => {
    const plan = plans.get(e.name)
    return plan === undefined ? e : servedEntry(e, plan)
  })
  // the wire codecs the entries name are MEOS's own, run in the workers: here they pass strings through
  const codecs: Record<string, t.Type<any, string, unknown>> = {}
  for (const e of entries) for (const name of codecNamesOf(e)) codecs[name] = t.string
  const handlers: Record<string, (args: { readonly [name: string]: unknown }, ctx: { readonly signal: AbortSignal }) => Promise<unknown>> = {}
  for (const e of entries) {
    const hasOutput = e.outputSchema !== undefined
    handlers[e.name] = async (args, ctx) => answerOf(e.name, hasOutput, await pool.call(e.name, args, ctx.signal), codes)
  }
  const { library: _l, manifest: _m, catalog: _c, categories: _k, workers: _w, timeoutMs: _t, recycleAfter: _r, decode: _d, info, onWarning: _o, workerScript: _s, ...serverOptions } = options
  const meos = manifest['x-meos']
  const name = isObject(meos) && typeof meos.server === 'string' ? meos.server : 'meos'
  const built = serverOfManifest({ ...manifest, tools: entries }, handlers, {
    ...serverOptions,
    codecs,
    info: info ?? { name, version: '1.3.0' },
    // the generated schemas carry descriptive keywords only; nothing to warn a user about
    onWarning: () => undefined,
  })
  if (E.isLeft(built)) throw new TypeError(`emcp/meos: the manifest cannot be served:\n${built.left.slice(0, 20).map((p) => `  tool ${p.tool}: ${p.path} ${p.message}`).join('\n')}`)
  return built.right
}
